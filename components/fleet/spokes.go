package fleet

import (
	"fmt"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// spokeFacts are the spokes' clusterInfo, deferred: the hub is built first (every spoke trusts its management
// role), yet its admission guard lists the spokes a Git sync may register (hub.registeredSpokes), so each spoke's
// facts are promised to the hub and resolved once the spoke's FleetCluster exists.
type spokeFacts struct {
	infos   []clusterinfo.ClusterInfoInput
	resolve map[string]func(pulumi.Output)
}

func deferSpokes(ctx *pulumi.Context, a FleetArgs) *spokeFacts {
	f := &spokeFacts{resolve: map[string]func(pulumi.Output){}}
	for _, c := range a.Clusters {
		if c.Role != Spoke {
			continue
		}
		out, resolve := pulumi.DeferredOutput[clusterinfo.ClusterInfo](ctx.Context())
		f.infos = append(f.infos, clusterinfo.ClusterInfoOutput{OutputState: out.OutputState})
		f.resolve[c.Name] = resolve
	}
	return f
}

// withSpokes is the hub's settings with the fleet's spokes after the registered spokes given in argocd.
func (f *spokeFacts) withSpokes(h *gitopsbridge.Hub) *gitopsbridge.Hub {
	out := gitopsbridge.Hub{}
	if h != nil {
		out = *h
	}
	out.RegisteredSpokes = append(slices.Clone(out.RegisteredSpokes), f.infos...)
	return &out
}

// built resolves a spoke's facts with what its registration is made of: its FleetCluster's name, endpoint, CA and
// spoke role. Only these, so that a change elsewhere in the spoke (an add-on toggled: new metadata, unknown during
// preview) does not leave the hub's guard unknown in the plan.
func (f *spokeFacts) built(name string, cl *fleetcluster.FleetCluster) {
	f.resolve[name](clusterinfo.ClusterInfoArgs{
		ClusterName: cl.ClusterName, Server: cl.Endpoint, CertificateAuthorityData: cl.CertificateAuthorityData,
		SpokeRoleArn: cl.SpokeRoleArn,
	}.ToClusterInfoOutput())
	delete(f.resolve, name)
}

// abandon fails the facts of the spokes that were not built (the program failed before them), so that nothing
// waits on them for ever.
func (f *spokeFacts) abandon() {
	for name, resolve := range f.resolve {
		resolve(pulumi.String(name).ToStringOutput().ApplyT(func(n string) (clusterinfo.ClusterInfo, error) {
			return clusterinfo.ClusterInfo{}, fmt.Errorf("spoke %s was not built", n)
		}))
	}
	clear(f.resolve)
}
