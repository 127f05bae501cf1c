package gitopsbridge

import (
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestHubProjects: each Git path of a hub gets a project of its own: the registry's lets a commit write Secrets into
// Argo CD's namespace on the hub and nothing else, the add-ons' bootstrap only ApplicationSets into the add-ons'
// namespace, and the add-ons' Applications (project default) come from that namespace only and reach the spokes,
// never the hub unless hub.addonsOnHub, with every cluster-scoped kind but the admission policies.
func TestHubProjects(t *testing.T) {
	for name, tc := range map[string]struct {
		onHub bool
		dests string
	}{
		"spokes only": {dests: `[{name: spoke-a, namespace: "*"}]`},
		"add-ons on the hub": {onHub: true,
			dests: `[{server: "https://kubernetes.default.svc", namespace: "!argocd"}, {name: spoke-a, namespace: "*"}]`},
	} {
		t.Run(name, func(t *testing.T) {
			a := withDefaults(GitOpsBridgeArgs{
				Hub: &Hub{FleetClusters: []string{"hub", "spoke-a"}, SignatureKeys: []string{"4AEE18F83AFDEB23"},
					AddonsOnHub: tc.onHub},
				AddonsRepo: &Repo{URL: "https://github.com/acme/addons", Path: "bootstrap"},
				Git:        &GitDelivery{Owner: "acme", Repository: "registry"},
			}, "hub")
			got := map[string]any{}
			for _, p := range HubProjects(a, "hub") {
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
  description: "Add-ons bootstrap: the ApplicationSets of its repository (sourceRepos) into argocd-addons on the hub, nothing else"
  sourceRepos: ["https://github.com/acme/addons"]
  destinations: [{server: "https://kubernetes.default.svc", namespace: argocd-addons}]
  clusterResourceWhitelist: []
  namespaceResourceWhitelist: [{group: argoproj.io, kind: ApplicationSet}]
  signatureKeys: [{keyID: 4AEE18F83AFDEB23}]
default:
  sourceNamespaces: [argocd-addons]
  destinations: `+tc.dests+`
  clusterResourceWhitelist: [{group: "*", kind: "*"}]
  clusterResourceBlacklist:
  - {group: admissionregistration.k8s.io, kind: ValidatingAdmissionPolicy}
  - {group: admissionregistration.k8s.io, kind: ValidatingAdmissionPolicyBinding}
  - {group: admissionregistration.k8s.io, kind: MutatingAdmissionPolicy}
  - {group: admissionregistration.k8s.io, kind: MutatingAdmissionPolicyBinding}
  signatureKeys: [{keyID: 4AEE18F83AFDEB23}]
`), &want); err != nil {
				t.Fatal(err)
			}
			addons := got["default"].(map[string]any)
			repos := addons["sourceRepos"].([]any)
			if len(repos) != 1+len(DefaultChartRepositories) || repos[0] != "https://github.com/acme/addons" {
				t.Errorf("add-ons sources: %v", repos)
			}
			delete(addons, "sourceRepos")
			delete(addons, "description")
			if diff := cmp.Diff(want, roundTrip(t, got)); diff != "" {
				t.Errorf("projects (-want +got):\n%s", diff)
			}
		})
	}
	// An empty list of chart repositories is unset (a Go program's config-decoded struct sends unset lists as empty
	// ones): without them no add-on's chart would be permitted.
	if got := withDefaults(GitOpsBridgeArgs{Hub: &Hub{ChartRepositories: []string{}}}, "hub").Hub.ChartRepositories; len(got) != len(DefaultChartRepositories) {
		t.Errorf("an empty chartRepositories: %v, want the defaults", got)
	}
	a := withDefaults(GitOpsBridgeArgs{Hub: &Hub{}, Git: &GitDelivery{Owner: "acme", Repository: "registry"}}, "hub")
	if p := RegistryApplication(*a.Git, "prod", HubDestination(a, "hub", "argocd"))["project"]; p != RegistryProject {
		t.Errorf("registry Application in project %v", p)
	}
	tmpl := BootstrapApplicationSet(a, "addons", "hub")["template"].(map[string]any)
	if p := tmpl["spec"].(map[string]any)["project"]; p != AddonsProject {
		t.Errorf("add-ons bootstrap Application in project %v", p)
	}
	if d := tmpl["spec"].(map[string]any)["destination"].(map[string]any)["namespace"]; d != "argocd-addons" {
		t.Errorf("add-ons bootstrap Application into namespace %v", d)
	}
	var closed map[string]any
	for _, p := range HubProjects(a, "hub") {
		if p.Name == AddonApplicationsProject {
			closed = roundTrip(t, p.Object())
		}
	}
	want := map[string]any{"description": "Argo CD's default project, fenced: no add-ons repository, so it permits nothing",
		"sourceRepos": []any{}, "destinations": []any{}, "clusterResourceWhitelist": []any{}, "namespaceResourceWhitelist": []any{}}
	if diff := cmp.Diff(want, closed["spec"]); diff != "" {
		t.Errorf("default without add-ons (-want +got):\n%s", diff)
	}
	if ann := closed["metadata"].(map[string]any)["annotations"]; !cmp.Equal(ann, map[string]any{"pulumi.com/patchForce": "true"}) {
		t.Errorf("default's annotations: %v", ann)
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

// TestManagedHubDestinations: on a managed hub the fleet's own Applications (the registry's, each bootstrap) and the
// projects that admit them name the hub by its cluster secret's name, as the managed Argo CD registers it (by ARN);
// the in-cluster server, which it does not take, is only ever refused (the workloads' Applications). A self-managed
// hub keeps the in-cluster server.
func TestManagedHubDestinations(t *testing.T) {
	for name, tc := range map[string]struct {
		mode string
		want ProjectDestination
	}{
		"managed":      {ModeManaged, ProjectDestination{Name: "hub"}},
		"self-managed": {"", ProjectDestination{Server: InClusterServer}},
	} {
		t.Run(name, func(t *testing.T) {
			a := withDefaults(GitOpsBridgeArgs{Hub: &Hub{Mode: tc.mode, AddonsOnHub: true, FleetClusters: []string{"hub", "spoke-a"}},
				Git:           &GitDelivery{Owner: "acme", Repository: "registry"},
				AddonsRepo:    &Repo{URL: "https://github.com/acme/addons", Path: "addons", Revision: "main"},
				WorkloadsRepo: &Repo{URL: "https://github.com/acme/workloads", Path: "apps", Revision: "main"}}, "hub")
			at := func(ns string) map[string]any {
				d := tc.want
				d.Namespace = ns
				return d.Object()
			}
			if got := RegistryApplication(*a.Git, "prod", HubDestination(a, "hub", "argocd"))["destination"]; !reflect.DeepEqual(got, at("argocd")) {
				t.Errorf("the registry Application's destination is %v, want %v", got, at("argocd"))
			}
			for prefix, ns := range map[string]string{"addons": "argocd-addons", "workload": "argocd-workloads"} {
				tmpl := BootstrapApplicationSet(a, prefix, "hub")["template"].(map[string]any)["spec"].(map[string]any)
				if got := tmpl["destination"]; !reflect.DeepEqual(got, at(ns)) {
					t.Errorf("the %s bootstrap Application's destination is %v, want %v", prefix, got, at(ns))
				}
			}
			want := map[string]string{RegistryProject: "argocd", AddonsProject: "argocd-addons", WorkloadsProject: "argocd-workloads",
				AddonApplicationsProject: "!argocd"}
			for _, p := range HubProjects(a, "hub") {
				for _, d := range p.Destinations {
					if tc.mode == ModeManaged && d.Server == InClusterServer {
						t.Errorf("project %s permits the in-cluster server, which the managed Argo CD does not take: %v", p.Name, d)
					}
				}
				ns, ok := want[p.Name]
				if !ok {
					continue
				}
				d := tc.want
				d.Namespace = ns
				if !slices.Contains(p.Destinations, d) {
					t.Errorf("project %s's destinations %v do not name the hub as %v", p.Name, p.Destinations, d)
				}
				delete(want, p.Name)
			}
			if len(want) > 0 {
				t.Errorf("no project %v", want)
			}
		})
	}
}
