package rollout

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

func TestJudge(t *testing.T) {
	const rev, before = "1111111111111111111111111111111111111111", "0000000000000000000000000000000000000000"
	// since is when the wave began (its up); Argo CD's operations start in whole seconds.
	since := time.Date(2026, 11, 28, 10, 0, 0, 500, time.UTC)
	app := func(name, sync, health, message string, revisions ...string) status.Application {
		return status.Application{Namespace: "argocd-addons", Name: name, Cluster: "spoke", Sync: sync, Health: health,
			Message: message, Revisions: revisions}
	}
	cases := map[string]struct {
		apps []status.Application
		want Health
	}{
		"every add-on at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev, "3.12.0"),
			app("addon-spoke-karpenter", "Synced", "Healthy", "", rev, "1.0.0")}, Health{State: Healthy}},
		"one still at the revision before": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev),
			app("addon-spoke-karpenter", "Synced", "Healthy", "", before)},
			Health{State: Pending, Application: "addon-spoke-karpenter", Message: "Synced/Healthy, compared at " + before}},
		"a refused sync at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "OutOfSync", "Missing", "admission policy refused", rev)},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "admission policy refused"}},
		"degraded at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Degraded", "", rev)},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "health Degraded"}},
		"a failure of the revision before is not this one's": {[]status.Application{
			app("addon-spoke-metrics-server", "OutOfSync", "Missing", "refused", before)},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "OutOfSync/Missing, compared at " + before + ": refused"}},
		"a refused sync of the revision before, not yet retried at this one": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-spoke-metrics-server", Cluster: "spoke", Sync: "OutOfSync",
				Health: "Missing", Message: "refused", Revisions: []string{rev}, OperationRevisions: []string{before}}},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "OutOfSync/Missing, last synced " + before + ": refused"}},
		"a refused sync of this revision": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-spoke-metrics-server", Cluster: "spoke", Sync: "OutOfSync",
				Health: "Missing", Message: "refused", Revisions: []string{rev}, OperationRevisions: []string{rev, "3.12.0"},
				OperationStartedAt: since.Truncate(time.Second)}},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "refused"}},
		"a sync of this revision that a rollback terminated before the wave began": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-spoke-metrics-server", Cluster: "spoke", Sync: "OutOfSync",
				Health: "Healthy", Message: "Operation terminated (retried 1 times).", Revisions: []string{rev},
				OperationRevisions: []string{rev}, Operation: "Failed", OperationStartedAt: since.Add(-time.Minute)}},
			Health{State: Pending, Application: "addon-spoke-metrics-server",
				Message: "OutOfSync/Healthy, last synced " + rev + ": Operation terminated (retried 1 times)."}},
		"progressing": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Progressing", "", rev)},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "Synced/Progressing"}},
		"no Application yet": {nil, Health{State: Pending, Message: "no add-on Application of the cluster in argocd-addons"}},
		"another cluster's or namespace's": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-other-x", Cluster: "other", Sync: "OutOfSync", Health: "Degraded", Revisions: []string{rev}},
			{Namespace: "argocd-workloads", Name: "addon-spoke-x", Cluster: "spoke", Sync: "OutOfSync", Health: "Degraded", Revisions: []string{rev}},
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev)}, Health{State: Healthy}},
	}
	for name, tc := range cases {
		if got := judge(tc.apps, "argocd-addons", "spoke", rev, since); got != tc.want {
			t.Errorf("%s: %+v, want %+v", name, got, tc.want)
		}
	}
}

// TestResync: the Applications of the clusters whose last sync of the revision failed before the wave began (a
// rollback terminated it) get the operation Argo CD's automated sync would start, with their sync policy; one whose
// failure is the wave's own, one with an operation set already, one at another revision and another cluster's do not.
func TestResync(t *testing.T) {
	const rev, other = "1111111111111111111111111111111111111111", "0000000000000000000000000000000000000000"
	since := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	app := func(name, cluster, at, startedAt string, extra map[string]any) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": name, "namespace": "argocd-addons"},
			"spec": map[string]any{"destination": map[string]any{"name": cluster},
				"syncPolicy": map[string]any{"automated": map[string]any{"prune": true}, "syncOptions": []any{"CreateNamespace=true"}}},
			"status": map[string]any{"sync": map[string]any{"status": "OutOfSync", "revision": at},
				"operationState": map[string]any{"phase": "Failed", "message": "Operation terminated", "startedAt": startedAt,
					"operation": map[string]any{"sync": map[string]any{"revision": rev}}}}}}
		for k, v := range extra {
			u.Object[k] = v
		}
		return u
	}
	before, after := since.Add(-time.Minute).Format(time.RFC3339), since.Add(time.Second).Format(time.RFC3339)
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{status.ApplicationsResource: "ApplicationList"},
		app("addon-spoke-lbc", "spoke", rev, before, nil),
		app("addon-spoke-fresh-failure", "spoke", rev, after, nil),
		app("addon-spoke-busy", "spoke", rev, before, map[string]any{"operation": map[string]any{"sync": map[string]any{}}}),
		app("addon-spoke-elsewhere", "spoke", other, before, nil),
		app("addon-other-lbc", "other", rev, before, nil))
	gate := ArgoCD{Hub: dyn, Namespace: "argocd-addons"}
	if err := gate.Resync(t.Context(), []string{"spoke"}, rev, since); err != nil {
		t.Fatal(err)
	}
	list, err := dyn.Resource(status.ApplicationsResource).Namespace("argocd-addons").List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, u := range list.Items {
		if op, ok := u.Object["operation"]; ok {
			got[u.GetName()] = op
		}
	}
	want := map[string]any{
		"addon-spoke-lbc": map[string]any{"initiatedBy": map[string]any{"username": "fleet-rollout"},
			"retry": map[string]any{"limit": int64(5)},
			"sync":  map[string]any{"revision": rev, "prune": true, "syncOptions": []any{"CreateNamespace=true"}}},
		"addon-spoke-busy": map[string]any{"sync": map[string]any{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
}
