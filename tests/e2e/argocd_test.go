package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/argocdhub"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// startArgoCD runs Argo CD's own controllers (tests/argocdhub) on the hub cluster of region, in Argo CD's default
// namespace, reaching the network as the env's plugins do, until the test ends; the env's stand-in for Argo CD's
// finalizer stays off that hub meanwhile (Env.ArgoCDRuns). When the test fails, it logs the end of each process's log.
func startArgoCD(t *testing.T, env *offline.Env, region, cluster string) *argocdhub.Hub {
	t.Helper()
	name := controlplane.Name(region, cluster)
	admin, err := env.Clusters.Admin(name)
	if err != nil {
		t.Fatal(err)
	}
	netVars := map[string]string{}
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE"} {
		netVars[k] = env.Vars[k]
	}
	standIn := env.ArgoCDRuns(name)
	hub, err := argocdhub.Start(context.Background(), argocdhub.Config{Bin: filepath.Join(env.Root, "bin", "argocd"),
		Dir: filepath.Join(env.Dir, "argocd-"+cluster), Admin: admin, Namespace: gitopsbridge.DefaultNamespace,
		Region: region, Cluster: cluster, STS: env.STS, Env: netVars})
	if err != nil {
		standIn()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for name, log := range hub.Logs {
				data, _ := os.ReadFile(log)
				t.Logf("%s's log ends:\n%s", name, offline.Tail(string(data), 40))
			}
		}
		hub.Stop()
		standIn()
	})
	return hub
}
