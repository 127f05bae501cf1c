package rollout

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// TestAbort: only a sync of the revision still in progress (its operation set, its phase Running) on the clusters
// is told to terminate, by a patch conditional on the Application as read; one that finished before the patch
// landed (a conflict, then read again) is left as the controller wrote it.
func TestAbort(t *testing.T) {
	const rev, other = "1111111111111111111111111111111111111111", "0000000000000000000000000000000000000000"
	app := func(name, cluster, phase, at string, inProgress bool) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": name, "namespace": "argocd-addons", "resourceVersion": "7"},
			"spec":     map[string]any{"destination": map[string]any{"name": cluster}},
			"status": map[string]any{"operationState": map[string]any{"phase": phase,
				"operation": map[string]any{"sync": map[string]any{"revision": at}}}}}}
		if inProgress {
			u.Object["operation"] = map[string]any{"sync": map[string]any{"revision": at}}
		}
		return u
	}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{status.ApplicationsResource: "ApplicationList"},
		app("addon-spoke-lbc", "spoke", "Running", rev, true),
		app("addon-spoke-done", "spoke", "Failed", rev, false),
		app("addon-spoke-elsewhere", "spoke", "Running", other, true),
		app("addon-other-lbc", "other", "Running", rev, true),
		app("addon-spoke-finishing", "spoke", "Running", rev, true))
	apps := dyn.Resource(status.ApplicationsResource).Namespace("argocd-addons")
	// The controller finishes addon-spoke-finishing's operation between Abort's list and its patch.
	conflicts := 0
	dyn.PrependReactor("patch", "applications", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.(clienttesting.PatchAction).GetName() != "addon-spoke-finishing" {
			return false, nil, nil
		}
		conflicts++
		done := app("addon-spoke-finishing", "spoke", "Failed", rev, false)
		done.SetResourceVersion("8")
		if err := dyn.Tracker().Update(status.ApplicationsResource, done, "argocd-addons"); err != nil {
			t.Fatal(err)
		}
		return true, nil, apierrors.NewConflict(status.ApplicationsResource.GroupResource(), "addon-spoke-finishing", nil)
	})
	if err := (ArgoCD{Hub: dyn, Namespace: "argocd-addons"}).Abort(t.Context(), []string{"spoke"}, rev); err != nil {
		t.Fatal(err)
	}
	list, err := apps.List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range list.Items {
		got[u.GetName()] = status.ApplicationOf(u).Operation
	}
	want := map[string]string{"addon-spoke-lbc": "Terminating", "addon-spoke-done": "Failed",
		"addon-spoke-elsewhere": "Running", "addon-other-lbc": "Running", "addon-spoke-finishing": "Failed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("phases (-want +got):\n%s", diff)
	}
	if conflicts != 1 {
		t.Errorf("%d conflicts, want the one: the finished operation is read again and left alone", conflicts)
	}
}
