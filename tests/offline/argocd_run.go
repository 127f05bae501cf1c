package offline

import (
	"context"
	"maps"
	"path/filepath"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/argocdhub"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

// StartArgoCD runs Argo CD's own controllers (tests/argocdhub, from `make argocd`) on the control plane of the hub
// cluster of region, in Argo CD's default namespace, reaching the network as the Env's plugins do; meanwhile the
// Env's stand-in for Argo CD's finalizer stays off that hub (ArgoCDRuns). stop ends both.
func (e *Env) StartArgoCD(ctx context.Context, region, cluster string) (hub *argocdhub.Hub, stop func(), err error) {
	name := controlplane.Name(region, cluster)
	admin, err := e.Clusters.Admin(name)
	if err != nil {
		return nil, nil, err
	}
	netVars := map[string]string{}
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE"} {
		netVars[k] = e.Vars[k]
	}
	maps.Copy(netVars, e.mark)
	standIn := e.ArgoCDRuns(name)
	hub, err = argocdhub.Start(ctx, argocdhub.Config{Bin: filepath.Join(e.Root, "bin", "argocd"),
		Dir: filepath.Join(e.Dir, "argocd-"+cluster), Admin: admin, Namespace: gitopsbridge.DefaultNamespace,
		Region: region, Cluster: cluster, STS: e.STS, Env: netVars})
	if err != nil {
		standIn()
		return nil, nil, err
	}
	return hub, func() { hub.Stop(); standIn() }, nil
}
