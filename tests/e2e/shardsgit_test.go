package e2e

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
)

// TestShardsThroughGit runs the example's hub stack with Git delivery, then shard-us against it: the shard holds
// no provider of the hub and commits its spokes' cluster secrets to the hub's registry repository. The hub's real
// API server refuses those registrations (synced as Argo CD's application controller) until the hub stack names
// the shard's stack (shards[0].stack); its next up then admits exactly what the shard committed, and changes
// nothing else; every stack plans no change after each step.
func TestShardsThroughGit(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	stacks := shardStacks(t, env, "hub", "shard-us")
	setPath := func(stack, key, value string, secret bool) {
		t.Helper()
		if err := stacks[stack].SetConfigWithOptions(ctx, key, auto.ConfigValue{Value: value, Secret: secret},
			&auto.ConfigOptions{Path: true}); err != nil {
			t.Fatal(err)
		}
	}
	setPath("hub", "gitops-fleet:git.owner", "gitops-fleet", false)
	setPath("hub", "gitops-fleet:git.repository", "fleet-registry", false)
	for _, name := range []string{"hub", "shard-us"} {
		setPath(name, "github:token", "ghp_e2e0shard0token", true)
		if _, err := stacks[name].Up(ctx, optup.ProgressStreams(progress(t, env, "up-"+name))); err != nil {
			t.Fatalf("up %s: %v", name, err)
		}
	}
	settled := func(when string) { t.Helper(); settledAll(t, env, stacks, when) }
	settled("after the ups")

	if got := clusterSecrets(t, env, "us-east-1", "hub"); len(got) != 0 {
		t.Errorf("cluster secrets %v written into the hub: with git every registration comes from the registry", got)
	}
	committed := map[string]*corev1.Secret{}
	for _, f := range records(t, env, "github", "github:index/repositoryFile:RepositoryFile") {
		if !strings.HasPrefix(f.ID, "fleet-registry/") {
			continue // the hub's delivery of the shard stacks, in the program's repository
		}
		state, err := f.Plain()
		if err != nil {
			t.Fatal(err)
		}
		var secret corev1.Secret
		if err := yaml.Unmarshal([]byte(state["content"].(string)), &secret); err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		committed[f.ID] = &secret
	}
	if paths, want := slices.Sorted(maps.Keys(committed)), []string{"fleet-registry/clusters/prod/hub.yaml",
		"fleet-registry/clusters/prod/spoke-us1.yaml", "fleet-registry/clusters/prod/spoke-us2.yaml"}; !slices.Equal(paths, want) {
		t.Fatalf("files in the registry %v, want %v", paths, want)
	}
	// admits is the hub's API server answering the registry Application's sync of spoke's committed secret: a
	// dry-run create as Argo CD's application controller, which the cluster-secret guard admits or refuses.
	controller := argoCDUser(gitopsbridge.ApplicationControllerServiceAccount)
	admits := func(spoke string) error {
		t.Helper()
		secret := committed["fleet-registry/clusters/prod/"+spoke+".yaml"]
		_, err := impersonating(t, env, controlplane.Name("us-east-1", "hub"), controller).CoreV1().
			Secrets(secret.Namespace).Create(ctx, secret, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	}
	if err := admits("hub"); err != nil {
		t.Errorf("the hub's API server refuses the hub's own registration as committed: %v", err)
	}
	if err := admits("spoke-us1"); err == nil || !strings.Contains(err.Error(), gitopsbridge.ClusterSecretPolicyName) ||
		!strings.Contains(err.Error(), "one the stack registered, by name") {
		t.Errorf("spoke-us1's registration before the hub stack read the shard: %v, want the guard's refusal", err)
	}

	// The hub stack names the shard's stack: its next up admits the shard's spokes, an update of its guard only.
	setPath("hub", "gitops-fleet:shards[0].stack", "organization/gitops-fleet/shard-us", false)
	p := planOf(previewSteps(t, env, *stacks["hub"], "preview-admit"))
	if len(p["update"]) != 1 || len(p["create"]) > 0 || len(p["delete"]) > 0 || len(p["replace"]) > 0 {
		t.Errorf("naming the shard's stack plans %v on the hub, want one update (its guard)", p)
	}
	if _, err := stacks["hub"].Up(ctx, optup.ProgressStreams(progress(t, env, "up-admit"))); err != nil {
		t.Fatalf("up hub: %v", err)
	}
	for _, spoke := range []string{"spoke-us1", "spoke-us2"} {
		if err := admits(spoke); err != nil {
			t.Errorf("the hub's API server refuses %s's registration as the shard committed it: %v", spoke, err)
		}
	}
	settled("after the hub admitted the shard")
}
