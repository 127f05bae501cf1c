package contract

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/reposerver/apiclient"
	"github.com/argoproj/argo-cd/v3/reposerver/repository"
	"github.com/argoproj/argo-cd/v3/util/git"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// registry is the fleet's registry repository, where Git delivery commits the tenants' folders.
var registry = gitopsbridge.GitHubTarget{Owner: "acme", Repository: "fleet-registry", Branch: "main"}

// TestTenantThroughGit: with Git delivery, Argo CD's own code takes a tenant's objects from its folder to the
// clusters it selects and no further. The ApplicationSet generators make one Application per selected cluster
// (a decommissioned one too: its namespaces stay); the repo server's manifest generation reads, for each, the
// cluster's file only; and the platform project permits every object of it, while refusing what a commit to
// the folder could add beyond the tenant's namespaces (another namespace, a cluster-scoped kind, a workload, a
// RoleBinding, another repository).
func TestTenantThroughGit(t *testing.T) {
	secrets := withRetiredSpoke(t)
	a := payments()
	selected := []string{"spoke-a", "spoke-old"}

	repo := t.TempDir()
	for _, c := range selected {
		ids := map[string]tenant.Identities{"payments": {"ledger": "arn:aws:iam::111122223333:role/ledger"}}
		content, err := tenant.File(a, ids, c == "spoke-a", "us-east-2")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(repo, tenant.FilePath(a.Name, c))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	apps := generateSet(t, tenant.PlatformApplicationSet(a, selected, registry), secrets)
	slices.SortFunc(apps, func(a, b argov1alpha1.Application) int { return strings.Compare(a.Name, b.Name) })
	var names []string
	for _, app := range apps {
		names = append(names, app.Name)
	}
	if !slices.Equal(names, []string{"payments-platform-spoke-a", "payments-platform-spoke-old"}) {
		t.Fatalf("Applications %v: want one per selected cluster (the hub is not selected)", names)
	}
	project := tenant.PlatformProject(a, selected, registry.RepoURL(), argocdNamespace)
	adb := argoDB(t, argocdNamespace, secrets...)
	app := apps[0]
	objects := manifestsOf(t, repo, app)
	var kinds []string
	for _, o := range objects {
		kinds = append(kinds, o.Kind+"/"+o.Namespace+"/"+o.Name)
	}
	want := []string{"Namespace//payments", "ResourceQuota/payments/tenant-quota", "SecretStore/payments/aws-secrets-manager",
		"Namespace//payments-batch", "SecretStore/payments-batch/aws-secrets-manager"}
	for _, w := range want {
		if !slices.Contains(kinds, w) {
			t.Errorf("Argo CD reads %v from %s for spoke-a, want %s among them", kinds, app.Spec.Source.Path, w)
		}
	}
	if n := len(manifestsOf(t, repo, apps[1])); n >= len(objects) {
		t.Errorf("spoke-old's Application reads %d objects, want fewer than spoke-a's %d (no SecretStores): it reads "+
			"another cluster's file", n, len(objects))
	}
	if err := permitted(t, project, *app.Spec.Source, app.Spec.Destination, adb, objects); err != nil {
		t.Errorf("the platform project refuses the tenant's own file: %v", err)
	}

	src, dest := *app.Spec.Source, app.Spec.Destination
	runProjectCases(t, project, secrets, map[string]projectCase{
		"its file":              {source: src, dest: dest, objects: objects},
		"kube-system":           {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "Namespace", Name: "kube-system"}}},
		"a quota elsewhere":     {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "ResourceQuota", Name: "q", Namespace: "orders", Namespaced: true}}},
		"a ClusterRoleBinding":  {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
		"a workload":            {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "apps", Kind: "Deployment", Name: "miner", Namespaced: true}}},
		"a RoleBinding":         {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding", Name: "admin", Namespaced: true}}},
		"a Secret":              {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "Secret", Name: "s", Namespaced: true}}},
		"the tenant's own repo": {refused: true, source: argov1alpha1.ApplicationSource{RepoURL: tenantRepo, Path: ".", TargetRevision: "main"}, dest: dest},
		"an unselected cluster": {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: "payments"}},
	})
}

// manifestsOf is what Argo CD v3.5.7's repo server generates for app's source out of the repository checked
// out at repo (a directory source), as the objects a sync would apply.
func manifestsOf(t *testing.T, repo string, app argov1alpha1.Application) []syncedObject {
	t.Helper()
	src := app.Spec.Source
	q := &apiclient.ManifestRequest{Repo: &argov1alpha1.Repository{Repo: src.RepoURL}, ApplicationSource: src,
		AppName: app.Name, Namespace: app.Spec.Destination.Namespace}
	res, err := repository.GenerateManifests(t.Context(), filepath.Join(repo, src.Path), repo, "main", q, false,
		&git.NoopCredsStore{}, resource.MustParse("0"), nil)
	if err != nil {
		t.Fatalf("%s: %v", app.Name, err)
	}
	var out []syncedObject
	for _, m := range res.Manifests {
		var u unstructured.Unstructured
		if err := yaml.Unmarshal([]byte(m), &u.Object); err != nil {
			t.Fatal(err)
		}
		gvk := u.GroupVersionKind()
		out = append(out, syncedObject{Group: gvk.Group, Kind: gvk.Kind, Name: u.GetName(), Namespace: u.GetNamespace(),
			Namespaced: gvk.Kind != "Namespace"})
	}
	return out
}
