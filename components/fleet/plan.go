package fleet

import (
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

// plan is a Fleet's input resolved once (resolve), before anything is checked or registered: the arguments with the
// fleet's defaults (withDefaults) and the hub's Argo CD settings (argocdSettings), each cluster with the tenants
// that select it, and the hub's capacity with its application controller's plan. validate checks a plan as a whole
// and applies no default again; NewFleet builds from the plan it checked. What a stack reference tells later is
// joined into the plan in place: a shard's hub facts (joinHub, withHubReplicas), a hub's shards' spokes
// (joinShards).
type plan struct {
	// FleetArgs are the arguments with every fleet default; Argocd is the hub's planned settings (nil in a shard).
	FleetArgs
	// given are the arguments as the program gave them, to tell a setting from a default (a shard's cidrPool, a
	// hub's registryEnvironments).
	given FleetArgs
	// stack is the Pulumi stack: the default environment.
	stack string
	// clusters are the clusters with their tenants, in the order of FleetArgs.Clusters.
	clusters []*clusterPlan
	// hub is the hub among clusters; nil without one (a shard, or a fleet the validation refuses).
	hub *clusterPlan
	// capacity is the hub's planned load (hubCapacity); empty in a shard, whose hub is another stack's.
	capacity HubCapacity
}

// clusterPlan is one cluster of a plan: its spec with the fleet's defaults, and what tenants read of it.
type clusterPlan struct {
	ClusterSpec
	// selector is what a tenant's selector reads of the cluster (tenantCluster).
	selector tenant.Cluster
	// tenants are the tenants that select the cluster, in the order of FleetArgs.Tenants.
	tenants []tenant.TenantSpec
}

// resolve is args resolved once in stack: the fleet's defaults, tenant selection, and for a fleet with its hub in
// this stack the hub's Argo CD settings with the controller planned for the load it counts.
func resolve(args FleetArgs, stack string) *plan {
	p := &plan{FleetArgs: withDefaults(args, stack), given: args, stack: stack}
	p.clusters = make([]*clusterPlan, len(p.Clusters))
	for i, c := range p.Clusters {
		cp := &clusterPlan{ClusterSpec: c, selector: tenantCluster(c)}
		for _, t := range p.Tenants {
			if t.Selects(cp.selector) {
				cp.tenants = append(cp.tenants, t)
			}
		}
		p.clusters[i] = cp
		if c.Role == Hub && p.hub == nil {
			p.hub = cp
		}
	}
	if p.Hub == nil {
		h := p.argocdSettings()
		h, p.capacity = planController(h, p.countApplications(h))
		p.Argocd = &h
	}
	return p
}

// selects tells whether tenant t selects the cluster.
func (c *clusterPlan) selects(t string) bool {
	for _, s := range c.tenants {
		if s.Name == t {
			return true
		}
	}
	return false
}
