package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// The delivery example's manifests repository (examples/fleet/Pulumi.delivery.yaml) and its Kargo project.
const (
	manifestsOwner, manifestsRepo = "gitops-fleet", "pulumi-fleet"
	deliveryProject               = "fleet"
)

// pulumiStacks are PKO's Stacks.
var pulumiStacks = schema.GroupVersionResource{Group: "pulumi.com", Version: "v1", Resource: "stacks"}

// stagesThroughArgoCD checks the delivery stack's stage Applications on Argo CD's own controllers, which run on the
// management hub: the manifests repository is served as the emulated GitHub holds it (main with Pulumi's templates,
// each stage's branch created from main, as github:index/branch:Branch says), each stage's Application syncs its
// Stack into the stage's namespace, which Argo CD reports Progressing through the fleet's Lua health check until
// PKO (not run here) marks it Ready; a promotion (what Kargo's steps push to stage/dev) moves dev's Stack to the
// promoted commit, and a promotion that changes the workspace's image is refused by the Stack guard, the refusal in
// the Application's status.
func stagesThroughArgoCD(t *testing.T, env *fleettest.Env, dyn dynamic.Interface) {
	env = env.For(t)
	ctx := context.Background()
	templates := map[string]string{} // path on main -> content
	for _, r := range env.Cloud().Records("github", fileType) {
		state := env.Cloud().Plain(r)
		if r.Scope == manifestsOwner && state["repository"] == manifestsRepo && state["branch"] == "main" {
			templates[state["file"].(string)] = state["content"].(string)
		}
	}
	apps := dyn.Resource(status.ApplicationsResource).Namespace(gitopsbridge.DefaultNamespace)
	type stageView struct{ App, Stack string }
	view := func(stage string) stageView {
		app, err := apps.Get(ctx, delivery.ApplicationName(deliveryProject, stage), metav1.GetOptions{})
		if err != nil {
			return stageView{App: err.Error()}
		}
		sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status")
		health, _, _ := unstructured.NestedString(app.Object, "status", "health", "status")
		msg, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "message")
		ns, _, _ := unstructured.NestedString(app.Object, "spec", "destination", "namespace")
		v := stageView{App: sync + " | " + health + " | " + msg}
		if list, err := dyn.Resource(pulumiStacks).Namespace(ns).List(ctx, metav1.ListOptions{}); err == nil {
			for _, s := range list.Items {
				commit, _, _ := unstructured.NestedString(s.Object, "spec", "commit")
				v.Stack += s.GetName() + "@" + commit + " "
			}
		}
		return v
	}
	committed := func(stage string) string {
		var stack map[string]any
		if err := yaml.Unmarshal([]byte(templates["deploy/stacks/"+stage+"/stack.yaml"]), &stack); err != nil {
			t.Fatal(err)
		}
		commit, _, _ := unstructured.NestedString(stack, "spec", "commit")
		return commit
	}

	t.Run("each stage's Application syncs its Stack from its branch, Progressing until PKO's Ready", func(t *testing.T) {
		for _, stage := range []string{"dev", "qa", "prod"} {
			got, ok := waitFor(3*time.Minute, func() (stageView, bool) {
				v := view(stage)
				return v, strings.HasPrefix(v.App, "Synced | Progressing | successfully synced") &&
					strings.Contains(v.Stack, "@"+committed(stage)+" ")
			})
			if !ok {
				t.Errorf("stage %s: Application %q, Stacks %q; want Synced and Progressing, the Stack at the stage's commit %s",
					stage, got.App, got.Stack, committed(stage))
			}
		}
	})

	// promote pushes to stage/dev what Kargo's promotion steps render (delivery.PromotionSteps): dev's folder of
	// main, its stack.yaml with spec.commit set (and spec.branch emptied), edited further by edit; then asks for the
	// refresh the promotion's argocd-update step stands for.
	promote := func(t *testing.T, commit string, edit func(spec map[string]any)) {
		t.Helper()
		files := map[string]string{}
		for path, content := range templates {
			if !strings.HasPrefix(path, "deploy/stacks/dev/") {
				continue
			}
			if path == "deploy/stacks/dev/stack.yaml" {
				var stack map[string]any
				if err := yaml.Unmarshal([]byte(content), &stack); err != nil {
					t.Fatal(err)
				}
				spec := stack["spec"].(map[string]any)
				spec["commit"], spec["branch"] = commit, ""
				if edit != nil {
					edit(spec)
				}
				content = toYAML(t, stack)
			}
			files[path] = content
		}
		env.For(t).Git().PublishGitHub(manifestsOwner, manifestsRepo, "stage/dev", "Promote dev to "+commit, files)
		if err := offline.RefreshApplication(ctx, apps, delivery.ApplicationName(deliveryProject, "dev")); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("a promotion moves dev's Stack to the promoted commit; qa's and prod's stay", func(t *testing.T) {
		promoted := strings.Repeat("d", 40)
		promote(t, promoted, nil)
		got, ok := waitFor(2*time.Minute, func() (stageView, bool) {
			v := view("dev")
			return v, strings.HasPrefix(v.App, "Synced |") && strings.Contains(v.Stack, "@"+promoted+" ")
		})
		if !ok {
			t.Errorf("after the promotion dev's Application is %q, its Stacks %q; want the Stack at %s", got.App, got.Stack, promoted)
		}
		for _, stage := range []string{"qa", "prod"} {
			if v := view(stage); !strings.Contains(v.Stack, "@"+committed(stage)+" ") {
				t.Errorf("stage %s's Stacks are %q after dev's promotion, want them at %s", stage, v.Stack, committed(stage))
			}
		}
	})

	t.Run("PKO's Ready condition makes dev's Application Healthy through the fleet's health check", func(t *testing.T) {
		app, err := apps.Get(ctx, delivery.ApplicationName(deliveryProject, "dev"), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ns, _, _ := unstructured.NestedString(app.Object, "spec", "destination", "namespace")
		list, err := dyn.Resource(pulumiStacks).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) == 0 {
			t.Fatalf("dev's Stacks: %v (%d)", err, len(list.Items))
		}
		for _, s := range list.Items {
			ready := map[string]any{"type": "Ready", "status": "True", "reason": "ProcessingCompleted",
				"message": "the stack is up to date", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}
			if err := unstructured.SetNestedSlice(s.Object, []any{ready}, "status", "conditions"); err != nil {
				t.Fatal(err)
			}
			if _, err := dyn.Resource(pulumiStacks).Namespace(ns).UpdateStatus(ctx, &s, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("as PKO, the Stack's status: %v", err)
			}
		}
		got, ok := waitFor(2*time.Minute, func() (stageView, bool) {
			v := view("dev")
			return v, strings.HasPrefix(v.App, "Synced | Healthy")
		})
		if !ok {
			t.Errorf("dev's Application is %q with its Stack Ready, want Synced and Healthy", got.App)
		}
	})

	t.Run("a promotion that changes the workspace's image is refused by the Stack guard: dev's Stack stays", func(t *testing.T) {
		before := view("dev").Stack
		promote(t, strings.Repeat("e", 40), func(spec map[string]any) {
			spec["workspaceTemplate"] = map[string]any{"spec": map[string]any{"image": "evil/pulumi:latest"}}
		})
		got, ok := waitFor(2*time.Minute, func() (stageView, bool) {
			v := view("dev")
			return v, strings.Contains(v.App, "ValidatingAdmissionPolicy") &&
				strings.Contains(v.App, "spec.workspaceTemplate.spec.image differ")
		})
		if !ok {
			t.Errorf("dev's Application is %q after an evil promotion, want the Stack guard's refusal", got.App)
		}
		if got.Stack != before {
			t.Errorf("dev's Stacks went from %q to %q", before, got.Stack)
		}
		// The refused sync retries with a growing backoff, and Argo CD deletes no Application whose operation still
		// runs: the platform team ends it, as `argocd app terminate-op` does (the operation's phase set to
		// Terminating), and Argo CD terminates it.
		name := delivery.ApplicationName(deliveryProject, "dev")
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			app, err := apps.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if err := unstructured.SetNestedField(app.Object, "Terminating", "status", "operationState", "phase"); err != nil {
				return err
			}
			_, err = apps.Update(ctx, app, metav1.UpdateOptions{})
			return err
		}); err != nil {
			t.Fatalf("terminating dev's operation: %v", err)
		}
		phase, ok := waitFor(time.Minute, func() (string, bool) {
			app, err := apps.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err.Error(), false
			}
			phase, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "phase")
			return phase, phase != "Running" && phase != "Terminating"
		})
		if !ok {
			t.Errorf("dev's operation is still %s a minute after its termination was asked", phase)
		}
	})
}

// publishManifests serves the manifests repository as the emulated GitHub holds it after the delivery stack's up:
// main with Pulumi's templates, and each stage's branch created from it (github:index/branch:Branch).
func publishManifests(env *fleettest.Env, stages ...string) {
	env.Git().PublishGitHub(manifestsOwner, manifestsRepo, "main", "Deliver the fleet stacks by GitOps", nil)
	for _, stage := range stages {
		env.Git().BranchGitHub(manifestsOwner, manifestsRepo, "main", "stage/"+stage)
	}
}
