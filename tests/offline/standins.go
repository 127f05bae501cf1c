package offline

import (
	"context"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

// runStandIns runs, every interval until ctx ends, on every running control plane, what the controllers that do
// not run here would do for the fleet's destroy to end: Argo CD's (releaseApplications) and Kargo's
// (releaseKargoNamespaces). What they do at admission time runs in the control planes' proxy (kargoProjectCreated).
// Argo CD's stand-in stays off a control plane where Argo CD itself runs (argocd true for its name).
func runStandIns(ctx context.Context, clusters controlplane.Clusters, interval time.Duration, argocd func(name string) bool) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, name := range clusters.Names() {
			if clusters.Running(name) {
				if !argocd(name) {
					releaseApplications(ctx, clusters, name)
				}
				releaseKargoNamespaces(ctx, clusters, name)
			}
		}
	}
}
