package status

import (
	"testing"

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
