package status

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// TestSettled: Argo CD has finished with an Application when it is Synced and its resources are neither progressing
// nor missing, or when its status says why not; an OutOfSync Application without a reason is yet to be synced.
func TestSettled(t *testing.T) {
	for _, tc := range []struct {
		app  Application
		want bool
	}{
		{Application{}, false},
		{Application{Sync: "Unknown"}, false},
		{Application{Sync: "Unknown", Message: "ComparisonError: repository not found"}, true},
		{Application{Sync: "Synced", Health: "Progressing"}, false},
		{Application{Sync: "Synced", Health: "Missing"}, false},
		{Application{Sync: "Synced", Health: "Healthy"}, true},
		{Application{Sync: "Synced", Health: "Degraded"}, true},
		{Application{Sync: "OutOfSync", Health: "Missing"}, false},
		{Application{Sync: "OutOfSync", Health: "Missing", Message: "one or more objects failed to apply"}, true},
	} {
		if got := tc.app.Settled(); got != tc.want {
			t.Errorf("%+v: Settled() = %v, want %v", tc.app, got, tc.want)
		}
	}
}

// TestInClusterServer: the hub's own address is the one GitOpsBridge writes into the hub's cluster secret.
func TestInClusterServer(t *testing.T) {
	if inClusterServer != gitopsbridge.InClusterServer {
		t.Errorf("%q, GitOpsBridge's %q", inClusterServer, gitopsbridge.InClusterServer)
	}
}

// TestWhy: an Application's reason is its last sync's message only once that sync failed (Failed, Error, or an
// attempt failed and a retry is scheduled), never a running attempt's or a successful sync's; else its first
// condition. The operation states are those Argo CD v3.5's controller writes (controller/appcontroller.go).
func TestWhy(t *testing.T) {
	const refused = `one or more objects failed to apply, reason: metrics-server is held back`
	condition := []any{map[string]any{"type": "ComparisonError", "message": "repository not found"}}
	for _, tc := range []struct {
		name       string
		operation  map[string]any
		conditions []any
		want       string
	}{
		{"no operation, no condition", nil, nil, ""},
		{"no operation, a condition", nil, condition, "ComparisonError: repository not found"},
		{"failed", map[string]any{"phase": "Failed", "message": refused, "finishedAt": "2026-11-28T06:04:31Z"}, nil, refused},
		{"error", map[string]any{"phase": "Error", "message": "failed to load application project"}, nil,
			"failed to load application project"},
		{"failed, a retry scheduled", map[string]any{"phase": "Running", "finishedAt": "2026-11-28T06:04:31Z",
			"message": refused + ". Retrying attempt #1 at 6:04AM."}, nil, refused + ". Retrying attempt #1 at 6:04AM."},
		{"a retry running", map[string]any{"phase": "Running", "message": "Retrying operation. Attempt #1"}, nil, ""},
		{"a retry running, a condition", map[string]any{"phase": "Running", "message": "Retrying operation. Attempt #1"},
			condition, "ComparisonError: repository not found"},
		{"a first attempt running", map[string]any{"phase": "Running", "message": "waiting for healthy state"}, nil, ""},
		{"terminating", map[string]any{"phase": "Terminating", "message": "operation is terminating"}, nil, ""},
		{"succeeded", map[string]any{"phase": "Succeeded", "message": "successfully synced (all tasks run)",
			"finishedAt": "2026-11-28T06:04:31Z"}, nil, ""},
	} {
		status := map[string]any{}
		if tc.operation != nil {
			status["operationState"] = tc.operation
		}
		if tc.conditions != nil {
			status["conditions"] = tc.conditions
		}
		if got := why(unstructured.Unstructured{Object: map[string]any{"status": status}}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestApplicationsRevisions: Applications reads the revisions Argo CD compares an Application at (one per source of
// a multi-source one, or the one of a single source) and those its last sync operation is for, which a rollout's
// gate tells a failure of its commit from an earlier one's by.
func TestApplicationsRevisions(t *testing.T) {
	app := func(name string, status map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": name, "namespace": "argocd-addons"},
			"spec":     map[string]any{"destination": map[string]any{"name": "spoke"}}, "status": status}}
	}
	multi := app("addon-spoke-metrics-server", map[string]any{
		"sync": map[string]any{"status": "OutOfSync", "revisions": []any{"c1", "3.12.0"}},
		"operationState": map[string]any{"phase": "Running", "finishedAt": "2026-11-28T10:15:00Z", "message": "refused",
			"operation": map[string]any{"sync": map[string]any{"revisions": []any{"c1", "3.12.0"}}}}})
	single := app("addon-spoke-other", map[string]any{"sync": map[string]any{"status": "Synced", "revision": "c0"},
		"health": map[string]any{"status": "Healthy"}})
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{ApplicationsResource: "ApplicationList"}, multi, single)
	apps, err := Applications(t.Context(), dyn)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2][]string{}
	for _, a := range apps {
		got[a.Name] = [2][]string{a.Revisions, a.OperationRevisions}
	}
	want := map[string][2][]string{
		"addon-spoke-metrics-server": {{"c1", "3.12.0"}, {"c1", "3.12.0"}},
		"addon-spoke-other":          {{"c0"}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("revisions (-want +got):\n%s", diff)
	}
}
