package e2e

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestShardsThroughGit runs the example's hub stack with Git delivery, then shard-us against it: the shard holds
// no provider of the hub and commits its spokes' cluster secrets to the hub's registry repository, which the
// test's Git host then serves (what GitHub does with a commit). Argo CD's own controllers run on the hub: the
// registry Application syncs the hub's own registration, and the hub's API server refuses the shard's (the
// refusal in the Application's status) until the hub stack names the shard's stack (shards[0].stack); its next
// up, an update of the guard only, lets Argo CD's next sync register exactly what the shard committed; every stack
// plans no change after each step.
func TestShardsThroughGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	stacks := shardStacks(env, "hub", "shard-us")
	setPath := func(stack, key, value string, secret bool) {
		t.Helper()
		if err := stacks[stack].Auto.SetConfigWithOptions(ctx, key, auto.ConfigValue{Value: value, Secret: secret},
			&auto.ConfigOptions{Path: true}); err != nil {
			t.Fatal(err)
		}
	}
	setPath("hub", "gitops-fleet:git.owner", "gitops-fleet", false)
	setPath("hub", "gitops-fleet:git.repository", "fleet-registry", false)
	for _, name := range []string{"hub", "shard-us"} {
		setPath(name, "github:token", "ghp_e2e0shard0token", true)
		stacks[name].Up("up-" + name)
	}
	settled := func(when string) { t.Helper(); settledAll(t, stacks, when) }
	settled("after the ups")

	if got := env.Hub().ClusterSecrets(); len(got) != 0 {
		t.Errorf("cluster secrets %v written into the hub: with git every registration comes from the registry", got)
	}
	var committed []string
	for _, f := range env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile") {
		if strings.HasPrefix(f.ID, "fleet-registry/") { // not the hub's delivery of the shard stacks
			committed = append(committed, f.ID)
		}
	}
	if slices.Sort(committed); !slices.Equal(committed, []string{"fleet-registry/clusters/prod/hub.yaml",
		"fleet-registry/clusters/prod/spoke-us1.yaml", "fleet-registry/clusters/prod/spoke-us2.yaml"}) {
		t.Fatalf("files in the registry %v, want the hub's and the shard's spokes'", committed)
	}
	env.Git().PublishGitHub("gitops-fleet", "fleet-registry", "main", "the hub's and shard-us's registrations", nil)

	started := time.Now()
	env.Hub().ArgoCD()
	registry := env.Hub().Dynamic().Resource(status.ApplicationsResource).
		Namespace(gitopsbridge.DefaultNamespace)
	status := func() string {
		app, err := registry.Get(ctx, gitopsbridge.RegistryApplicationName("prod"), metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status")
		phase, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "phase")
		msg, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "message")
		return sync + " | " + phase + " | " + msg
	}
	type view struct{ Secrets, Registry string }
	got, ok := waitFor(3*time.Minute, func() (view, bool) {
		v := view{strings.Join(env.Hub().ClusterSecrets(), ","), status()}
		return v, v.Secrets == "hub" && strings.Contains(v.Registry, gitopsbridge.ClusterSecretPolicyName) &&
			strings.Contains(v.Registry, "one the stack registered, by name")
	})
	if !ok {
		t.Fatalf("before the hub stack read the shard: the hub holds cluster secrets [%s], the registry Application is %q; "+
			"want the hub's own registration synced and the shard's refused by the guard", got.Secrets, got.Registry)
	}
	t.Logf("the registry synced the hub's registration and the guard refused the shard's %s after Argo CD started: %s",
		time.Since(started).Round(time.Second), got.Registry)

	// The hub stack names the shard's stack: its next up admits the shard's spokes, an update of its guard only.
	setPath("hub", "gitops-fleet:shards[0].stack", "organization/gitops-fleet/shard-us", false)
	p := stacks["hub"].Preview("preview-admit").Plan()
	if len(p["update"]) != 1 || len(p["create"]) > 0 || len(p["delete"]) > 0 || len(p["replace"]) > 0 {
		t.Errorf("naming the shard's stack plans %v on the hub, want one update (its guard)", p)
	}
	admitted := time.Now()
	stacks["hub"].Up("up-admit")
	// The registry Application retries the refused sync (gitopsbridge.RegistryRetry: 5 s, doubling up to 3 minutes).
	got, ok = waitFor(5*time.Minute, func() (view, bool) {
		v := view{strings.Join(env.Hub().ClusterSecrets(), ","), status()}
		return v, v.Secrets == "hub,spoke-us1,spoke-us2" && strings.HasPrefix(v.Registry, "Synced | Succeeded")
	})
	if !ok {
		t.Fatalf("after the hub stack named the shard: the hub holds cluster secrets [%s], the registry Application is %q; "+
			"want the shard's spokes registered by Argo CD's sync", got.Secrets, got.Registry)
	}
	t.Logf("Argo CD registered the shard's spokes %s after the hub's up began", time.Since(admitted).Round(time.Second))
	settled("after the hub admitted the shard")

	// Evil commits to the registry, each followed by the refresh a push webhook would ask for.
	hubKube := env.Hub().Typed()
	before := map[string]*corev1.Secret{}
	for _, name := range []string{"hub", "spoke-us1", "spoke-us2"} {
		secret, err := hubKube.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before[name] = secret
	}
	committedSecret := func(name string) map[string]any {
		for _, f := range env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile") {
			if f.ID == "fleet-registry/clusters/prod/"+name+".yaml" {
				state, err := f.Plain()
				if err != nil {
					t.Fatal(err)
				}
				var secret map[string]any
				if err := yaml.Unmarshal([]byte(state["content"].(string)), &secret); err != nil {
					t.Fatal(err)
				}
				return secret
			}
		}
		t.Fatalf("no registry file of %s", name)
		return nil
	}
	// spoke-us1 pointed at another server; spoke-us2's add-ons values repository swapped (an annotation only).
	foreign := committedSecret("spoke-us1")
	foreign["stringData"].(map[string]any)["server"] = "https://evil.example.com"
	swapped := committedSecret("spoke-us2")
	swapped["metadata"].(map[string]any)["annotations"].(map[string]any)["addons_repo_url"] = "https://github.com/evil/addons"
	edits := map[string]string{
		"clusters/prod/spoke-us1.yaml": toYAML(t, foreign),
		"clusters/prod/spoke-us2.yaml": toYAML(t, swapped),
	}
	commit := func(message string, files map[string]string) {
		t.Helper()
		env.Git().PublishGitHub("gitops-fleet", "fleet-registry", "main", message, files)
		if err := offline.RefreshApplication(ctx, registry, gitopsbridge.RegistryApplicationName("prod")); err != nil {
			t.Fatal(err)
		}
	}
	// terminate is `argocd app terminate-op` (Argo CD's server sets the operation's phase to Terminating): the
	// refused sync stops retrying, so the next commit is synced at once, not at the refused one's next backoff.
	terminate := func(t *testing.T) {
		t.Helper()
		if _, err := registry.Patch(ctx, gitopsbridge.RegistryApplicationName("prod"), types.MergePatchType,
			[]byte(`{"status":{"operationState":{"phase":"Terminating"}}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		if msg, ok := waitFor(time.Minute, func() (string, bool) {
			msg := status()
			return msg, !strings.Contains(msg, "| Running |") && !strings.Contains(msg, "| Terminating |")
		}); !ok {
			t.Fatalf("the registry Application's operation is still %q", msg)
		}
	}
	refusedAll := func(t *testing.T, want []string) {
		t.Helper()
		msg, ok := waitFor(2*time.Minute, func() (string, bool) {
			msg := status()
			for _, w := range want {
				if !strings.Contains(msg, w) {
					return msg, false
				}
			}
			return msg, true
		})
		if !ok {
			t.Errorf("the registry Application is %q; want each of %q", msg, want)
		}
		for name, was := range before {
			secret, err := hubKube.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Errorf("cluster secret %s: %v", name, err)
				continue
			}
			if !maps.EqualFunc(secret.Data, was.Data, bytes.Equal) || !maps.Equal(secret.Annotations, was.Annotations) ||
				!maps.Equal(secret.Labels, was.Labels) {
				t.Errorf("cluster secret %s changed", name)
			}
		}
	}

	t.Run("an Application in the registry is refused by Argo CD's project: nothing of the commit is applied", func(t *testing.T) {
		files := maps.Clone(edits)
		files["clusters/prod/takeover.yaml"] = evilApplication
		commit("registry: a takeover with edits", files)
		refusedAll(t, []string{"one or more synchronization tasks are not valid",
			"resource argoproj.io:Application is not permitted in project " + gitopsbridge.RegistryProject})
		if _, err := registry.Get(ctx, "takeover", metav1.GetOptions{}); err == nil {
			t.Error("the registry's Application takeover exists")
		}
	})

	t.Run("a foreign server and a swapped annotation are refused by the hub's guard", func(t *testing.T) {
		terminate(t)
		commit("registry: edits", edits)
		refusedAll(t, []string{"one or more synchronization tasks completed unsuccessfully",
			`secrets "spoke-us1" is forbidden: ValidatingAdmissionPolicy '` + gitopsbridge.ClusterSecretPolicyName,
			"data differ", "annotation addons_repo_url differ"})
	})

	t.Run("unregistering the hub in Git is refused by the hub's guard: its secret is not pruned", func(t *testing.T) {
		terminate(t)
		commit("registry: unregister the hub", map[string]string{"clusters/prod/hub.yaml": ""})
		refusedAll(t, []string{"one or more objects failed to apply", `secrets "hub" is forbidden`,
			"a registered cluster secret is deleted only by the deployer"})
	})

	// No terminate-op here: the refused sync's next retry takes the revert (gitopsbridge.RegistryRetry's refresh).
	t.Run("the next commit, Pulumi's registrations as they were, syncs: a refused commit does not block the registry", func(t *testing.T) {
		env := env.For(t)
		commit("registry: revert the edits", nil)
		if msg, ok := waitFor(3*time.Minute, func() (string, bool) {
			msg := status()
			return msg, strings.HasPrefix(msg, "Synced | Succeeded")
		}); !ok {
			t.Errorf("after the revert the registry Application is %q, want it synced", msg)
		}
		if got := strings.Join(env.Hub().ClusterSecrets(), ","); got != "hub,spoke-us1,spoke-us2" {
			t.Errorf("the hub holds cluster secrets [%s] after the revert", got)
		}
	})
}

// evilApplication is an Application a registry commit adds: Argo CD's namespace on the hub, from any repository.
const evilApplication = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: takeover
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/evil/takeover
    path: .
  destination:
    server: https://kubernetes.default.svc
    namespace: argocd
`

// toYAML is v as YAML.
func toYAML(t *testing.T, v any) string {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
