package gitopsbridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestHubProjects: each Git path of a hub gets a project of its own, and the registry's lets a commit write
// Secrets into Argo CD's namespace on the hub and nothing else.
func TestHubProjects(t *testing.T) {
	a := withDefaults(GitOpsBridgeArgs{
		Hub:        &Hub{FleetClusters: []string{"hub", "spoke-a"}, SignatureKeys: []string{"4AEE18F83AFDEB23"}},
		AddonsRepo: &Repo{URL: "https://github.com/acme/addons", Path: "bootstrap"},
		Git:        &GitDelivery{Owner: "acme", Repository: "registry"},
	}, "hub")
	got := map[string]any{}
	for _, p := range HubProjects(a) {
		got[p.Name] = p.Object()["spec"]
	}
	var want map[string]any
	if err := yaml.Unmarshal([]byte(`
fleet-registry:
  description: "Cluster secrets from the registry repository: Secrets in argocd on the hub, nothing else"
  sourceRepos: ["https://github.com/acme/registry.git"]
  destinations: [{server: "https://kubernetes.default.svc", namespace: argocd}]
  clusterResourceWhitelist: []
  namespaceResourceWhitelist: [{group: "", kind: Secret}]
  signatureKeys: [{keyID: 4AEE18F83AFDEB23}]
fleet-addons:
  description: "Add-ons of the fleet: https://github.com/acme/addons and its chart repositories, onto the fleet's clusters"
  destinations:
  - {server: "https://kubernetes.default.svc", namespace: "*"}
  - {name: hub, namespace: "*"}
  - {name: spoke-a, namespace: "*"}
  clusterResourceWhitelist: [{group: "*", kind: "*"}]
  signatureKeys: [{keyID: 4AEE18F83AFDEB23}]
`), &want); err != nil {
		t.Fatal(err)
	}
	addons := got["fleet-addons"].(map[string]any)
	repos := addons["sourceRepos"].([]any)
	if len(repos) != 1+len(DefaultChartRepositories) || repos[0] != "https://github.com/acme/addons" {
		t.Errorf("add-ons sources: %v", repos)
	}
	delete(addons, "sourceRepos")
	if diff := cmp.Diff(want, roundTrip(t, got)); diff != "" {
		t.Errorf("projects (-want +got):\n%s", diff)
	}
	if p := RegistryApplication(*a.Git, "prod", "argocd")["project"]; p != RegistryProject {
		t.Errorf("registry Application in project %v", p)
	}
	tmpl := BootstrapApplicationSet("addons", "hub", "argocd")["template"].(map[string]any)
	if p := tmpl["spec"].(map[string]any)["project"]; p != AddonsProject {
		t.Errorf("add-ons bootstrap Application in project %v", p)
	}
}

// roundTrip is v as YAML would read it back (lists of any, maps of any).
func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
