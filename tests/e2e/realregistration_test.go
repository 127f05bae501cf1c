package e2e

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestRegistrationPullRequests: the dev fleet with Git delivery through pull requests (git.pullRequest, as the prod
// example registers), on Argo CD's own controllers. After `up` every registration waits in its pull request and
// the hub holds no cluster secret; merging the hub's and spoke-use2's pull requests (their branches' files onto
// main, served as GitHub would) has the registry Application register exactly those two, and the ApplicationSet
// controller then gives spoke-use2 its add-ons, Synced and Healthy, while spoke-usw2, whose pull request is still
// open, gets none.
func TestRegistrationPullRequests(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	sha, err := env.PublishGit(offline.AddonsRepo, offline.AddonsFixture, "the offline add-ons repository")
	if err != nil {
		t.Fatal(err)
	}
	const owner, repo = "gitops-fleet", "fleet-registry"
	stack := fleetStack(t, env, "dev")
	setConfig(t, stack, map[string]string{
		"gitops-fleet:repositories.addons.url":      offline.AddonsRepo,
		"gitops-fleet:repositories.addons.revision": sha,
		"gitops-fleet:git.owner":                    owner,
		"gitops-fleet:git.repository":               repo,
		"gitops-fleet:git.pullRequest":              "true",
		"github:token":                              "ghp_e2e0registration0token",
	})
	if _, err := stack.Up(ctx, optup.ProgressStreams(progress(t, env, "up"))); err != nil {
		t.Fatalf("up: %v", err)
	}
	// What each cluster's pull request would merge: its branch's files.
	pulls := map[string]map[string]string{}
	for _, cluster := range []string{"hub", "spoke-use2", "spoke-usw2"} {
		files, err := env.GitHubFiles(owner, repo, "gitops-fleet/"+cluster)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := files[gitopsbridge.RegistryPath("dev")+"/"+cluster+".yaml"]; !ok {
			t.Fatalf("the pull request branch gitops-fleet/%s holds %v, want its registration", cluster, slices.Sorted(maps.Keys(files)))
		}
		pulls[cluster] = files
	}
	if _, err := env.PublishGitHub(owner, repo, "main", "the registry before any merge", nil); err != nil {
		t.Fatal(err)
	}
	hubCP := controlplane.Name(devClusters["hub"], "hub")
	startArgoCD(t, env, devClusters["hub"], "hub")
	apps := dynamicClient(t, env, hubCP).Resource(argoApplications)
	registry := gitopsbridge.RegistryApplicationName("dev")
	// The registry Application has compared main, holding no registration yet, by the time this holds.
	if state, ok := waitFor(2*time.Minute, func() (string, bool) {
		app, err := apps.Namespace(gitopsbridge.DefaultNamespace).Get(ctx, registry, metav1.GetOptions{})
		if err != nil {
			return err.Error(), false
		}
		return conditions(app), app.Object["status"] != nil
	}); !ok {
		t.Fatalf("the registry Application %s: %s", registry, state)
	}
	if got := clusterSecrets(t, env, devClusters["hub"], "hub"); len(got) != 0 {
		t.Errorf("cluster secrets %v on the hub before any pull request is merged", got)
	}

	merged := map[string]string{}
	maps.Copy(merged, pulls["hub"])
	maps.Copy(merged, pulls["spoke-use2"])
	if _, err := env.PublishGitHub(owner, repo, "main", "Merge the hub's and spoke-use2's registrations", merged); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	// What the registry's push webhook to Argo CD's server would do (neither runs here): ask for a refresh.
	if _, err := apps.Namespace(gitopsbridge.DefaultNamespace).Patch(ctx, registry, types.MergePatchType,
		[]byte(`{"metadata":{"annotations":{"argocd.argoproj.io/refresh":"normal"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	addons := apps.Namespace(gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons"))
	want := []string{"addon-hub-aws-load-balancer-controller", "addon-hub-metrics-server",
		"addon-spoke-use2-aws-load-balancer-controller", "addon-spoke-use2-metrics-server"}
	type view struct{ Secrets, Addons string }
	got, ok := waitFor(3*time.Minute, func() (view, bool) {
		v := view{Secrets: strings.Join(clusterSecrets(t, env, devClusters["hub"], "hub"), ",")}
		list, err := addons.List(ctx, metav1.ListOptions{})
		if err != nil {
			return v, false
		}
		healthy := []string{}
		for _, app := range list.Items {
			sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status")
			health, _, _ := unstructured.NestedString(app.Object, "status", "health", "status")
			v.Addons += app.GetName() + "=" + sync + "/" + health + " "
			if sync == "Synced" && health == "Healthy" {
				healthy = append(healthy, app.GetName())
			}
		}
		slices.Sort(healthy)
		return v, v.Secrets == "hub,spoke-use2" && slices.Equal(healthy, want) && len(list.Items) == len(want)
	})
	if !ok {
		t.Fatalf("after merging: cluster secrets [%s], add-on Applications %s; want hub and spoke-use2 registered and "+
			"exactly %v Synced and Healthy", got.Secrets, got.Addons, want)
	}
	t.Logf("the merged registrations' add-ons Synced and Healthy %s after the merge", time.Since(started).Round(time.Second))
}
