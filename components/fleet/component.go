package fleet

import (
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Fleet is a whole multi-region fleet: a hub cluster running Argo CD and the spoke clusters it manages, each
// a FleetCluster registered through a GitOpsBridge.
//
// Give it the clusters (name, region, role "hub" or "spoke", add-ons) and the Git repositories Argo CD bootstraps
// from; stack config fits as it is. Before it registers anything it checks the whole fleet (one hub, unique names,
// non-overlapping VPC CIDRs, every cluster's own rules) and reports every problem at once. Its ClusterLedger
// allocates and keeps the VPC CIDRs and refuses a change that would replace a cluster; a cluster leaves in two runs
// (decommission, then removal) and is drained first by its ClusterDrain. Tenants, shards (spokes in stacks of their
// own) and Git delivery of the cluster secrets are optional. Guide: https://github.com/gitops-fleet/pulumi-fleet/blob/main/docs/fleet.md.
type Fleet struct {
	pulumi.ResourceState

	// Clusters are cluster name -> region, role, environment, Kubernetes version, VPC CIDR, ARN, endpoint,
	// and the name, namespace and labels of its Argo CD cluster secret.
	Clusters ClusterSummaryMapOutput `pulumi:"clusters"`
	// Kubeconfigs are cluster name -> kubeconfig (JSON, `aws eks get-token`; no token in it), a secret.
	Kubeconfigs pulumi.StringMapOutput `pulumi:"kubeconfigs"`
	// HubKubeconfig is the hub's kubeconfig, a secret.
	HubKubeconfig pulumi.StringOutput `pulumi:"hubKubeconfig"`
	// ArgocdManagementRoleArn is the IAM role Argo CD on the hub assumes spoke roles with; with argocd.mode
	// managed, the capability's role, which the spokes' access entries name.
	ArgocdManagementRoleArn pulumi.StringOutput `pulumi:"argocdManagementRoleArn"`
	// ArgocdServerUrl is the managed Argo CD's server URL (its UI and API); "" unless argocd.mode is managed.
	ArgocdServerUrl pulumi.StringOutput `pulumi:"argocdServerUrl"`
	// VpcCidrs are cluster name -> VPC CIDR, given or allocated from cidrPool (as the ClusterLedger keeps them).
	VpcCidrs pulumi.StringMapOutput `pulumi:"vpcCidrs"`
	// Tenants are tenant name -> the clusters it is onboarded onto, its namespaces, its Argo CD project and, with
	// Git delivery, its folder of the registry repository. Empty without tenants.
	Tenants TenantSummaryMapOutput `pulumi:"tenants"`
	// HubFacts are what a shard's Fleet reads of this fleet's hub through a stack reference (hub: {stack,
	// shard}): the management role, the hub's egress networks, this fleet's VPC CIDRs and its shards. Empty
	// fields without a hub in this stack.
	HubFacts HubFactsOutput `pulumi:"hubFacts"`
	// HubCapacity is the Argo CD load the fleet plans for its hub, counted from its arguments: its Applications (by
	// kind), its clusters, a managed hub's limit, and the application controller's replicas and sharding
	// algorithm. Empty in a shard (its hub is another stack's).
	HubCapacity HubCapacityOutput `pulumi:"hubCapacity"`
	// ShardFacts are what the hub stack's Fleet reads of this shard through a stack reference (its
	// shards[].stack): the shard's name and its spokes' registrations (name, environment, EKS cluster name,
	// endpoint, CA, spoke role). Empty outside a shard.
	ShardFacts ShardFactsOutput `pulumi:"shardFacts"`
}

// NewFleet validates the whole fleet, records it in its ClusterLedger (which allocates missing VPC CIDRs
// and refuses replacements), then builds the hub and every spoke. A validation error (*problems.Error) lists
// every problem at its field path and leaves nothing registered; a refused replacement leaves only the
// unchanged ledger. A shard (hub names the hub of another stack) first reads its hub's facts (readHub) and is
// checked against them (joinHub), leaving only the component and the stack reference on a problem.
func NewFleet(ctx *pulumi.Context, name string, args FleetArgs, opts ...pulumi.ResourceOption) (*Fleet, error) {
	p := resolve(args, ctx.Stack())
	if err := p.validate(); err != nil {
		return nil, err
	}
	comp := &Fleet{}
	if err := ctx.RegisterComponentResource(TypeToken, name, comp, opts...); err != nil {
		return nil, err
	}
	var shardHub *hub
	var hubKubeconfig pulumi.StringInput
	if p.Hub != nil {
		facts, kube, err := readHub(ctx, name, comp, *p.Hub)
		if err != nil {
			return nil, err
		}
		if err := p.joinHub(facts); err != nil {
			return nil, err
		}
		shardHub = &hub{roleArn: pulumi.String(facts.ManagementRoleArn), egress: pulumi.ToStringArray(facts.EgressCidrs),
			managed: facts.Mode == gitopsbridge.ModeManaged}
		hubKubeconfig = kube
	}
	for _, w := range revisionWarnings(p.FleetArgs) {
		_ = ctx.Log.Warn(w, &pulumi.LogArgs{Resource: comp})
	}
	spokes := deferSpokes(ctx, p.Clusters)
	defer spokes.abandon()
	if len(p.Shards) > 0 {
		read, err := readShards(ctx, name, comp, p.Shards, p.hubMode() == gitopsbridge.ModeManaged)
		if err != nil {
			return nil, err
		}
		p.joinShards(read, spokes)
		if err := p.withShardLoad(read); err != nil {
			return nil, err
		}
	}
	if p.Hub == nil {
		_ = ctx.Log.Info(p.capacity.String(), &pulumi.LogArgs{Resource: comp})
	}
	comp.HubCapacity = pulumi.ToOutput(p.capacity).(HubCapacityOutput)
	la := ledgerArgs(p.FleetArgs)
	// A Git-mode shard writes nothing into the hub, but for the run that hands its spokes' secrets over to Git,
	// which the ledger refuses when the hub cannot be reached.
	la.NoHubAccess = p.Hub != nil && p.Git != nil && hubKubeconfig == nil
	ans, err := record(ctx, name, comp, la, forcesDrains(p.Defaults))
	if err != nil {
		return nil, err
	}
	if p.Hub != nil && p.Git != nil && len(ans.handover) == 0 {
		hubKubeconfig = nil
	}
	b := &builder{ctx: ctx, comp: comp, p: p, cidrs: ans.cidrs, handover: ans.handover, drainProvider: ans.provider,
		providers: newProviders(ctx, comp, p.Git), shardHub: shardHub, hubKubeconfig: hubKubeconfig, spokes: spokes}
	if err := b.build(); err != nil {
		return nil, err
	}
	return comp, ctx.RegisterResourceOutputs(comp, pulumi.Map{
		"clusters":                comp.Clusters,
		"kubeconfigs":             comp.Kubeconfigs,
		"hubKubeconfig":           comp.HubKubeconfig,
		"argocdManagementRoleArn": comp.ArgocdManagementRoleArn,
		"argocdServerUrl":         comp.ArgocdServerUrl,
		"vpcCidrs":                comp.VpcCidrs,
		"tenants":                 comp.Tenants,
		"hubFacts":                comp.HubFacts,
		"hubCapacity":             comp.HubCapacity,
		"shardFacts":              comp.ShardFacts,
	})
}

// joinHub joins a shard's hub's facts into its plan: with a hub stack, its cidrPool defaults to its shard's pool;
// with a hub registry, its git is that registry (shardGit); with the hub's controller sharded, its spokes name their
// replicas (withHubReplicas). It reports the shard's problems against the facts (checkShard, shardGit), and the
// fleet's networks again in the shard's pool, before anything more is registered.
func (p *plan) joinHub(facts HubFacts) error {
	var ps problems.List
	if p.Hub.Stack != "" {
		checkShard(&ps, p.given, facts)
		if p.given.CidrPool == "" {
			for _, s := range facts.Shards {
				if s.Name == p.Hub.Shard {
					p.CidrPool = s.CidrPool
				}
			}
		}
	}
	p.Git = shardGit(&ps, p.FleetArgs, facts.Registry)
	if len(ps) == 0 && p.Hub.Stack != "" {
		validateNetworks(&ps, p.FleetArgs)
	}
	if facts.Mode == gitopsbridge.ModeManaged {
		p.withManagedHub()
	}
	p.withHubReplicas(facts)
	return ps.Err(TypeToken)
}

// builder registers the clusters of a validated fleet: the hub first, then the spokes.
type builder struct {
	ctx  *pulumi.Context
	comp *Fleet
	// p is the fleet's plan, checked (validate) and joined with what its stack references tell.
	p     *plan
	cidrs map[string]string
	// handover are the clusters whose secret moves from direct to Git delivery in this run (the ledger's answer).
	handover []string
	// drainProvider serves the clusters' ClusterDrains (the ledger's provider).
	drainProvider pulumi.ProviderResource
	providers     *providers
	spokes        *spokeFacts
	// shardHub is, in a shard, the hub of another stack the spokes join, and hubKubeconfig reaches it (nil when
	// not known).
	shardHub      *hub
	hubKubeconfig pulumi.StringInput
}

func (b *builder) build() error {
	summaries := ClusterSummaryMap{}
	kubeconfigs := pulumi.StringMap{}
	b.comp.ArgocdManagementRoleArn = pulumi.String("").ToStringOutput()
	b.comp.ArgocdServerUrl = pulumi.String("").ToStringOutput()
	b.comp.HubKubeconfig = pulumi.ToSecret(pulumi.String("")).(pulumi.StringOutput)
	spokesHub := b.shardHub
	var hubBuilt *built
	var spokes []built
	b.comp.HubFacts = pulumi.ToOutput(HubFacts{}).(HubFactsOutput)
	if b.hubKubeconfig != nil {
		if err := b.providers.setHub(b.hubKubeconfig.ToStringOutput()); err != nil {
			return err
		}
	}
	if hubSpec := b.p.hub; hubSpec != nil {
		hubCluster, bridge, children, err := b.cluster(hubSpec, nil)
		if err != nil {
			return err
		}
		hubBuilt = &built{hubSpec, hubCluster, bridge, children}
		spokesHub = hubOfSpokes(hubCluster, bridge, b.p.hubMode() == gitopsbridge.ModeManaged)
		b.comp.ArgocdManagementRoleArn = bridge.ManagementRoleArn
		b.comp.ArgocdServerUrl = bridge.ArgoCdServerUrl
		b.comp.HubFacts = hubFactsOf(spokesHub, b.cidrs, b.p.Shards, registryOf(b.p.Git), b.p.controllerReplicas())
		b.comp.HubKubeconfig = pulumi.ToSecret(hubCluster.Kubeconfig).(pulumi.StringOutput)
		summaries[hubSpec.Name] = b.summary(hubSpec.ClusterSpec, hubCluster, bridge)
		kubeconfigs[hubSpec.Name] = hubCluster.Kubeconfig
	}
	for _, c := range b.p.clusters {
		if c.Role != Spoke {
			continue
		}
		cl, bridge, children, err := b.cluster(c, spokesHub)
		if err != nil {
			return err
		}
		b.spokes.built(c.Name, bridge)
		spokes = append(spokes, built{c, cl, bridge, children})
		summaries[c.Name] = b.summary(c.ClusterSpec, cl, bridge)
		kubeconfigs[c.Name] = cl.Kubeconfig
	}
	b.comp.ShardFacts = pulumi.ToOutput(ShardFacts{Spokes: []ShardSpoke{}}).(ShardFactsOutput)
	if b.p.Hub != nil {
		b.comp.ShardFacts = shardFactsOf(b.p.Hub.Shard, spokes)
	}
	drains, err := b.drains(hubBuilt, spokes)
	if err != nil {
		return err
	}
	tenants, err := b.tenants(hubBuilt, spokes, drains)
	if err != nil {
		return err
	}
	b.comp.Tenants = pulumi.ToOutput(tenants).(TenantSummaryMapOutput)
	b.comp.Clusters = summaries.ToClusterSummaryMapOutput()
	b.comp.Kubeconfigs = pulumi.ToSecret(kubeconfigs.ToStringMapOutput()).(pulumi.StringMapOutput)
	b.comp.VpcCidrs = pulumi.ToStringMap(b.cidrs).ToStringMapOutput()
	return nil
}

// hubOfSpokes is what every spoke takes from the hub: Argo CD's management role, and the hub's NAT addresses as
// /32 networks, which may reach the spokes' public API endpoints; for a managed hub, the capability's role alone.
func hubOfSpokes(cl *fleetcluster.FleetCluster, bridge *gitopsbridge.GitOpsBridge, managed bool) *hub {
	if managed {
		return &hub{roleArn: bridge.ManagementRoleArn, egress: pulumi.StringArray{}, managed: true}
	}
	egress := cl.NatPublicIps.ApplyT(func(ips []string) []string {
		out := make([]string, len(ips))
		for i, ip := range ips {
			out[i] = ip + "/32"
		}
		return out
	}).(pulumi.StringArrayOutput)
	return &hub{roleArn: bridge.ManagementRoleArn, egress: egress}
}

// cluster builds one cluster and its registration: a hub when h is nil, else a spoke whose FleetCluster trusts
// the hub's role and lets the hub's networks reach its API server. It returns what the two registered, for the
// cluster's drain.
func (b *builder) cluster(c *clusterPlan, h *hub) (*fleetcluster.FleetCluster, *gitopsbridge.GitOpsBridge, *children, error) {
	awsProv, err := b.providers.aws(c.Region, c.AssumeRoleArn)
	if err != nil {
		return nil, nil, nil, err
	}
	recorded := &children{}
	cl, err := fleetcluster.NewFleetCluster(b.ctx, c.Name, clusterArgs(c, b.cidrs[c.Name], h),
		pulumi.Parent(b.comp), pulumi.Providers(awsProv), recorded.option())
	if err != nil {
		return nil, nil, nil, err
	}
	if c.Role == Hub {
		if err := b.providers.setHub(cl.Kubeconfig); err != nil {
			return nil, nil, nil, err
		}
	}
	args := b.p.bridgeArgs(c)
	args.Cluster = cl.Info()
	args.Handover = slices.Contains(b.handover, c.Name)
	if c.Role == Hub {
		args.Hub = b.spokes.withSpokes(args.Hub)
	}
	bridgeProviders := []pulumi.ProviderResource{awsProv}
	if b.providers.hub != nil { // nil only in a Git-mode shard, which writes nothing into the hub
		bridgeProviders = append(bridgeProviders, b.providers.hub)
	}
	if gh, err := b.providers.github(); err != nil {
		return nil, nil, nil, err
	} else if gh != nil {
		bridgeProviders = append(bridgeProviders, gh)
	}
	bridge, err := gitopsbridge.NewGitOpsBridge(b.ctx, c.Name, args, pulumi.Parent(b.comp),
		pulumi.Providers(bridgeProviders...), recorded.option())
	return cl, bridge, recorded, err
}
