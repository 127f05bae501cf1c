package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

// TestProdFleetKeepsSecrets runs the prod stack (Git delivery as pull requests) on real control planes with a
// canary GitHub token in the stack config: it reaches the state, only ever encrypted. What Git delivers is in
// Git only: the hub's API server holds the registry Application and no cluster secret, the spokes' no tenant
// namespace, only the tenant's admission policies, which refuse a commit to its folder that lowers its Pod Security
// level or adds a SecretStore of its own (testTenantFolderPins).
func TestProdFleetKeepsSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	stack := env.Fleet("prod")
	const canary = "ghp_CANARY0fleet0e2e0token0never0in0plaintext"
	if err := stack.Auto.SetConfig(ctx, "github:token", auto.ConfigValue{Value: canary, Secret: true}); err != nil {
		t.Fatal(err)
	}
	stack.Up("up")

	text, _ := stack.Export(false)
	if strings.Contains(text, canary) {
		t.Error("the GitHub token is in plaintext in `pulumi stack export`")
	}
	if strings.Contains(text, "get-token") {
		t.Error("a kubeconfig is in plaintext in `pulumi stack export`")
	}
	revealed, _ := stack.Export(true)
	if !strings.Contains(revealed, canary) {
		t.Error("the canary is not in the state at all (export --show-secrets), so its absence proves nothing")
	}

	prs := env.Cloud().Records("github", "github:index/repositoryPullRequest:RepositoryPullRequest")
	files := env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile")
	if len(prs) != 4 || len(files) != 5 {
		t.Errorf("prod delivered %d files in %d pull requests, want one of each per cluster (3) and the payments "+
			"tenant's pull request with its two spokes' files", len(files), len(prs))
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.ID)
		if f.Scope != "gitops-fleet" {
			t.Errorf("file %s under owner %s, want gitops-fleet", f.ID, f.Scope)
		}
	}
	slices.Sort(paths)
	if want := []string{"fleet-registry/clusters/prod/hub.yaml", "fleet-registry/clusters/prod/spoke-use2.yaml",
		"fleet-registry/clusters/prod/spoke-usw2.yaml", "fleet-registry/tenants/payments/spoke-use2.yaml",
		"fleet-registry/tenants/payments/spoke-usw2.yaml"}; !slices.Equal(paths, want) {
		t.Errorf("files %v, want %v", paths, want)
	}
	// The tenant's objects are in Git only: no namespace of its is written into a spoke. What Pulumi writes there is
	// the tenant's admission policies, which pin what a commit to its folder can set.
	for _, spoke := range []string{"spoke-use2", "spoke-usw2"} {
		if env.ClusterIn(devClusters[spoke], spoke).Namespace("payments") != nil {
			t.Errorf("with git, Pulumi wrote the tenant's namespace payments into %s", spoke)
		}
	}
	testTenantFolderPins(ctx, t, env.Cluster("spoke-usw2"), "payments",
		committedFile(env, tenant.FilePath("payments", "spoke-usw2")))

	// Git is the source of truth: no cluster secret is written into the hub (a closed pull request registers
	// nothing); the hub's registry Application syncs the merged ones from clusters/prod/ of the registry.
	for _, o := range stateObjects(env, stack) {
		if o.kind == "Secret" {
			t.Errorf("Pulumi wrote secret %s/%s into %s", o.namespace, o.name, o.cluster.ControlPlane())
		}
	}
	if got := env.ClusterIn(devClusters["hub"], "hub").ClusterSecrets(); len(got) != 0 {
		t.Errorf("cluster secrets %v in the hub before any pull request is merged", got)
	}
	hub := env.Hub().Dynamic()
	argo := func(resource string) []unstructured.Unstructured {
		list, err := hub.Resource(schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: resource}).
			List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return list.Items
	}
	if !slices.ContainsFunc(argo("applicationsets"), func(o unstructured.Unstructured) bool { return o.GetName() == "payments-platform" }) {
		t.Error("no ApplicationSet payments-platform on the hub to sync the tenant's folder")
	}
	apps := argo("applications")
	if len(apps) != 1 {
		t.Fatalf("want one registry Application on the hub, got %d", len(apps))
	}
	source, _, _ := unstructured.NestedMap(apps[0].Object, "spec", "source")
	want := map[string]any{"repoURL": "https://github.com/gitops-fleet/fleet-registry.git", "targetRevision": "main",
		"path": "clusters/prod"}
	if diff := cmp.Diff(want, source); diff != "" || apps[0].GetName() != "cluster-registry-prod" {
		t.Errorf("registry Application %s source (-want +got):\n%s", apps[0].GetName(), diff)
	}
}
