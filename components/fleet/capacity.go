package fleet

import (
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// ManagedApplicationsLimit is the most Applications an EKS managed Argo CD (an Argo CD capability) runs: the quota
// of the Amazon EKS User Guide's "Argo CD considerations" (1,000 Applications per capability).
const ManagedApplicationsLimit = 1000

// HubCapacity is the Argo CD load the fleet plans for its hub, counted from its arguments before anything is
// registered (Fleet's hubCapacity output; the preview shows it as a message on the Fleet).
type HubCapacity struct {
	// Applications are the Argo CD Applications the hub will run, the sum of the counts below.
	Applications int `pulumi:"applications" json:"applications"`
	// AddonApplications are the add-ons' Applications: for each cluster of this stack, one per GitOps Bridge
	// ApplicationSet its cluster secret's enable_<addon> labels select (addons.ApplicationSets).
	AddonApplications int `pulumi:"addonApplications" json:"addonApplications"`
	// BootstrapApplications are the hub's bootstrap Applications, one per repository (add-ons, workloads).
	BootstrapApplications int `pulumi:"bootstrapApplications" json:"bootstrapApplications"`
	// WorkloadApplications are, with a workloads repository, one per spoke not decommissioned (the GitOps Bridge
	// control-plane template's workload ApplicationSet); the repository may hold more.
	WorkloadApplications int `pulumi:"workloadApplications" json:"workloadApplications"`
	// TenantApplications are the tenants' Applications: one per selected cluster not decommissioned for a tenant
	// with workloads, and with Git delivery one per selected cluster for its objects.
	TenantApplications int `pulumi:"tenantApplications" json:"tenantApplications"`
	// RegistryApplications are, with Git delivery, the registry Applications, one per environment.
	RegistryApplications int `pulumi:"registryApplications" json:"registryApplications"`
	// Clusters are the clusters the hub's Argo CD manages: this stack's and its shards'. A self-managed hub's
	// Applications are this stack's; a managed hub's (Limit) also its shards' spokes' read from their stacks'
	// shardFacts (shards[].stack), counted from the labels of the secrets they registered.
	Clusters int `pulumi:"clusters" json:"clusters"`
	// Limit is the most Applications the hub runs: 1,000 for a managed hub (ManagedApplicationsLimit), 0 (none)
	// for a self-managed one, which is sharded instead.
	Limit int `pulumi:"limit" json:"limit"`
	// ControllerReplicas are the application controller's replicas (argocd.controllerSharding.replicas, given or
	// ReplicasFor the counts); 0 on a managed hub.
	ControllerReplicas int `pulumi:"controllerReplicas" json:"controllerReplicas"`
	// ShardingAlgorithm is the algorithm that places clusters whose secrets name no replica; "" with one replica.
	ShardingAlgorithm string `pulumi:"shardingAlgorithm" json:"shardingAlgorithm"`
}

// countApplications is the load of the planned fleet with the Argo CD settings h (argocdSettings), without the
// controller's plan.
func (p *plan) countApplications(h gitopsbridge.Hub) HubCapacity {
	a := p.FleetArgs
	var c HubCapacity
	c.Clusters = len(a.Clusters)
	for _, s := range a.Shards {
		c.Clusters += len(s.Clusters)
	}
	c.BootstrapApplications = 1
	if a.Repositories.Workloads != nil {
		c.BootstrapApplications++
	}
	for _, cl := range p.clusters {
		enabled := cl.Addons
		if cl == p.hub {
			enabled = maps.Clone(enabled)
			gitopsbridge.StackAddonsOff(&h, enabled) // charts of the stack, no Applications
		}
		c.AddonApplications += len(addons.ApplicationSets(enabled))
		if a.Repositories.Workloads != nil && cl.Role == Spoke && !cl.Decommission {
			c.WorkloadApplications++
		}
		c.TenantApplications += cl.tenantApplications(a.Git != nil)
	}
	if a.Git != nil {
		c.RegistryApplications = max(1, len(h.RegistryEnvironments))
	}
	c.Applications = c.total()
	return c
}

// tenantApplications are the Argo CD Applications the tenants that select the cluster run on the hub: one for a
// tenant with workloads while the cluster is not decommissioned, and with Git delivery (git) one for its objects.
func (cl *clusterPlan) tenantApplications(git bool) int {
	n := 0
	for _, t := range cl.tenants {
		if t.Workloads != nil && !cl.Decommission {
			n++
		}
		if git {
			n++
		}
	}
	return n
}

// planController is h with its application controller planned for the load c: a managed hub's limit; on a
// self-managed one, the replicas given or ReplicasFor the load, and past one replica the algorithm (default
// consistent-hashing) and the counts of Applications and clusters the controller is sized from (ControllerValues).
// It returns the plan in c.
func planController(h gitopsbridge.Hub, c HubCapacity) (gitopsbridge.Hub, HubCapacity) {
	if h.Managed() {
		c.Limit = ManagedApplicationsLimit
		return h, c
	}
	s := gitopsbridge.ControllerSharding{}
	if h.ControllerSharding != nil {
		s = *h.ControllerSharding
	}
	if s.Replicas == 0 {
		s.Replicas = gitopsbridge.ReplicasFor(&s, c.Clusters, c.Applications)
	}
	c.ControllerReplicas = s.Replicas
	if s.Replicas < 2 {
		return h, c
	}
	if s.Algorithm == "" {
		s.Algorithm = gitopsbridge.ShardingConsistentHashing
	}
	if s.Applications == 0 {
		s.Applications = c.Applications
	}
	if s.Clusters == 0 {
		s.Clusters = c.Clusters
	}
	c.ShardingAlgorithm = s.Algorithm
	h.ControllerSharding = &s
	return h, c
}

// controllerReplicas are the replicas of the application controller of the fleet's hub when it is sharded (a hub
// stack's plan, or a shard's hub's, from its hubFacts); 0 otherwise.
func (p *plan) controllerReplicas() int {
	if p.Argocd == nil || p.Argocd.ControllerSharding == nil || p.Argocd.ControllerSharding.Replicas < 2 {
		return 0
	}
	return p.Argocd.ControllerSharding.Replicas
}

// shardOf is the controller replica cluster's secret names on a fleet whose hub's controller is sharded; nil
// otherwise.
func (p *plan) shardOf(cluster string) *int {
	replicas := p.controllerReplicas()
	if replicas == 0 {
		return nil
	}
	shard := gitopsbridge.ShardOf(cluster, replicas)
	return &shard
}

// withHubReplicas joins a shard's hub's facts into its plan: with the hub's controller sharded, its spokes'
// secrets name their replicas as the hub's own do (a shard's argocd carries nothing else but the hub's mode,
// withManagedHub).
func (p *plan) withHubReplicas(facts HubFacts) {
	if facts.ControllerReplicas < 2 {
		return
	}
	h := gitopsbridge.Hub{}
	if p.Argocd != nil {
		h = *p.Argocd
	}
	h.ControllerSharding = &gitopsbridge.ControllerSharding{Replicas: facts.ControllerReplicas}
	p.Argocd = &h
}

// total is the sum of the counts by kind: what Applications is.
func (c HubCapacity) total() int {
	return c.AddonApplications + c.BootstrapApplications + c.WorkloadApplications + c.TenantApplications +
		c.RegistryApplications
}

// checkLimit adds the problem of a managed hub past its limit (Limit), with the count and the ways out.
func (c HubCapacity) checkLimit(ps *problems.List) {
	if c.Limit > 0 && c.Applications > c.Limit {
		ps.Add("argocd.mode", "a managed hub runs at most %d Argo CD Applications (the EKS User Guide's Argo CD "+
			"quota), and this fleet's would run %s: split the clusters into fleets of their own, each with a "+
			"managed hub, or run Argo CD self-managed (argocd.mode selfManaged), whose application controller the "+
			"fleet shards", c.Limit, c.count())
	}
}

// withShardLoad adds to a managed hub's count (Limit set) the Applications of its shards' spokes, as Argo CD's
// ApplicationSets would generate them from the cluster secrets the shards' stacks registered (read, their
// shardFacts): one per add-on ApplicationSet a secret's enable_<addon> labels select, with a workloads repository
// one per spoke not decommissioned, and the Applications of the shard's tenants the shard counted for it. Past the
// limit with them, the hub is refused at argocd.mode before anything but the stack references is registered. A
// shard with no stack yet adds its clusters only. A self-managed hub's count stays its own stack's (Clusters): its
// controller's plan does not follow its shards' runs.
func (p *plan) withShardLoad(read []ShardSpoke) error {
	c := &p.capacity
	if c.Limit == 0 {
		return nil
	}
	for _, s := range read {
		secret, err := gitopsbridge.ParseClusterSecret(s.Manifest)
		if err != nil {
			return err
		}
		enabled := map[string]bool{}
		for k, v := range secret.Labels {
			if name, ok := strings.CutPrefix(k, addons.EnableLabel("")); ok && v == "true" {
				enabled[name] = true
			}
		}
		c.AddonApplications += len(addons.ApplicationSets(enabled))
		if p.Repositories.Workloads != nil && secret.Labels[gitopsbridge.DecommissionLabel] != "true" {
			c.WorkloadApplications++
		}
		c.TenantApplications += s.TenantApplications
	}
	c.Applications = c.total()
	var ps problems.List
	c.checkLimit(&ps)
	return ps.Err(TypeToken)
}

// String is the preview's message: the count, what it is made of, and the controller's plan or the limit.
func (c HubCapacity) String() string {
	s := "hub Argo CD: " + c.count()
	switch {
	case c.Limit > 0:
		s += fmt.Sprintf("; managed, limit %d", c.Limit)
	case c.ControllerReplicas > 1:
		s += fmt.Sprintf("; application controller sharded: %d replicas, each cluster secret naming its shard, %s for "+
			"any other", c.ControllerReplicas, c.ShardingAlgorithm)
	default:
		s += "; application controller: 1 replica"
	}
	return s
}

// count is "<n> Applications (<n> add-ons, ...) on <n> clusters".
func (c HubCapacity) count() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{c.AddonApplications, "add-ons"}, {c.BootstrapApplications, "bootstrap"}, {c.WorkloadApplications, "workloads"},
		{c.TenantApplications, "tenants"}, {c.RegistryApplications, "registry"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return fmt.Sprintf("%d Applications (%s) on %d clusters", c.Applications, strings.Join(parts, ", "), c.Clusters)
}

// HubCapacityOutput is an output of HubCapacity.
type HubCapacityOutput struct{ *pulumi.OutputState }

// ElementType is HubCapacity.
func (HubCapacityOutput) ElementType() reflect.Type { return reflect.TypeFor[HubCapacity]() }

func init() {
	pulumi.RegisterOutputType(HubCapacityOutput{})
}
