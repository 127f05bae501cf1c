package e2e

import (
	"context"
	"os"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/argocdhub"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// startArgoCD runs Argo CD's own controllers on the hub cluster of region until the test ends (Env.StartArgoCD).
// When the test fails, it logs the end of each process's log.
func startArgoCD(t *testing.T, env *offline.Env, region, cluster string) *argocdhub.Hub {
	t.Helper()
	hub, stop, err := env.StartArgoCD(context.Background(), region, cluster)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for name, log := range hub.Logs {
				data, _ := os.ReadFile(log)
				t.Logf("%s's log ends:\n%s", name, offline.Tail(string(data), 40))
			}
		}
		stop()
	})
	return hub
}
