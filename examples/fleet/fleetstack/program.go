package fleetstack

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// Run is the Pulumi program: it loads the stack config and hands it to a Fleet, which checks the whole fleet
// before registering anything and builds the hub, then the spokes.
//
// Stack outputs: clusters (name -> region, role, environment, Kubernetes version, VPC CIDR, ARN, endpoint,
// cluster secret name, namespace and labels), vpcCidrs, argocdManagementRoleArn, argocdServerUrl (a managed hub's),
// hubKubeconfig (secret), tenants, hubFacts (what a shard reads of the hub), hubCapacity (the hub's Argo CD
// Applications and its controller's plan) and shardFacts (what the hub reads of a
// shard); after a `fleet rollout`, rollout (its record: revision, wave, state, the failed cluster and message); with gitops-fleet:delivery also deliveryStages, deliveryApplications,
// deliveryManifestUrls, deliveryStageBranches, deliveryStageKinds, deliveryStageSources and deliveryStageStacks.
func Run(ctx *pulumi.Context) error {
	cfg, err := Load(ctx)
	if err != nil {
		return err
	}
	args, err := cfg.Args()
	if err != nil {
		return err
	}
	f, err := fleet.NewFleet(ctx, "fleet", args)
	if err != nil {
		return err
	}
	ctx.Export("clusters", f.Clusters)
	ctx.Export("vpcCidrs", f.VpcCidrs)
	ctx.Export("argocdManagementRoleArn", f.ArgocdManagementRoleArn)
	ctx.Export("argocdServerUrl", f.ArgocdServerUrl)
	ctx.Export("hubKubeconfig", f.HubKubeconfig)
	ctx.Export("tenants", f.Tenants)
	ctx.Export("hubFacts", f.HubFacts)
	ctx.Export("hubCapacity", f.HubCapacity)
	ctx.Export("shardFacts", f.ShardFacts)
	if cfg.Rollout != nil {
		ctx.Export("rollout", pulumi.Any(cfg.Rollout))
	}
	if cfg.Delivery == nil {
		return nil
	}
	d, err := deliver(ctx, *cfg.Delivery, f, cfg.managedHub())
	if err != nil {
		return err
	}
	ctx.Export("deliveryStages", d.Stages)
	ctx.Export("deliveryApplications", d.ApplicationNames)
	ctx.Export("deliveryManifestUrls", d.ManifestUrls)
	ctx.Export("deliveryStageBranches", d.StageBranches)
	ctx.Export("deliveryStageKinds", d.StageKinds)
	ctx.Export("deliveryStageSources", d.StageSources)
	ctx.Export("deliveryStageStacks", d.StageStacks)
	return nil
}

// Args are the Fleet inputs of the config, which is in the SDK's types already.
func (c Config) Args() (*fleet.FleetArgs, error) {
	args := &fleet.FleetArgs{
		Clusters:     pulumi.ToOutput(c.Clusters).(fleet.ClusterSpecArrayOutput),
		Repositories: pulumi.ToOutput(c.Repositories).(fleet.RepositoriesOutput),
	}
	if c.CidrPool != "" {
		args.CidrPool = &c.CidrPool
	}
	if c.AllowRemoval {
		args.AllowRemoval = &c.AllowRemoval
	}
	if len(c.Tenants) > 0 {
		args.Tenants = pulumi.ToOutput(c.Tenants).(fleet.TenantSpecArrayOutput)
	}
	if c.Hub != nil {
		args.Hub = pulumi.ToOutput(*c.Hub).(fleet.HubRefOutput).ToHubRefPtrOutput()
	}
	if len(c.Shards) > 0 {
		args.Shards = pulumi.ToOutput(c.Shards).(fleet.ShardArrayOutput)
	}
	if c.Defaults != nil {
		args.Defaults = pulumi.ToOutput(*c.Defaults).(fleet.ClusterDefaultsOutput).ToClusterDefaultsPtrOutput()
	}
	if c.Git != nil {
		args.Git = pulumi.ToOutput(*c.Git).(fleet.GitDeliveryOutput).ToGitDeliveryPtrOutput()
	}
	if c.Argocd != nil {
		args.Argocd = pulumi.ToOutput(*c.Argocd).(fleet.HubOutput).ToHubPtrOutput()
	}
	return args, nil
}
