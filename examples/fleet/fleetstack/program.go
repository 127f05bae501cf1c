package fleetstack

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// Run is the Pulumi program: it loads and checks the stack config, then builds the hub and the spokes.
//
// Stack outputs: clusters (name -> region, role, environment, endpoint, clusterSecret labels, secret name and
// namespace), argocdManagementRoleArn and hubKubeconfig (secret).
func Run(ctx *pulumi.Context) error {
	cfg, err := Load(ctx)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	return build(ctx, cfg)
}

func build(ctx *pulumi.Context, cfg Config) error {
	hubIndex := -1
	for i, cl := range cfg.Clusters {
		if cl.Role == Hub {
			hubIndex = i
		}
	}
	summary := pulumi.Map{}
	var hub *fleet.FleetCluster
	var hubBridge *fleet.GitOpsBridge
	if hubIndex >= 0 {
		cl := cfg.Clusters[hubIndex]
		c, err := fleet.NewFleetCluster(ctx, cl.Name, clusterArgs(cl, nil))
		if err != nil {
			return err
		}
		b, err := fleet.NewGitOpsBridge(ctx, cl.Name, bridgeArgs(cfg, c, &fleet.HubArgs{}, nil))
		if err != nil {
			return err
		}
		hub, hubBridge = c, b
		summary[cl.Name] = clusterSummary(cl, c, b)
		ctx.Export("argocdManagementRoleArn", b.ManagementRoleArn)
		ctx.Export("hubKubeconfig", pulumi.ToSecret(c.Kubeconfig))
	}
	for _, cl := range cfg.Clusters {
		if cl.Role != Spoke {
			continue
		}
		c, err := fleet.NewFleetCluster(ctx, cl.Name, clusterArgs(cl, &fleet.GitOpsAccessArgs{HubRoleArn: hubBridge.ManagementRoleArn}))
		if err != nil {
			return err
		}
		b, err := fleet.NewGitOpsBridge(ctx, cl.Name, bridgeArgs(cfg, c, nil, &fleet.SpokeArgs{HubKubeconfig: hub.Kubeconfig}))
		if err != nil {
			return err
		}
		summary[cl.Name] = clusterSummary(cl, c, b)
	}
	ctx.Export("clusters", summary)
	return nil
}

func clusterArgs(cl Cluster, access fleet.GitOpsAccessPtrInput) *fleet.FleetClusterArgs {
	args := &fleet.FleetClusterArgs{
		Region:       cl.Region,
		ClusterName:  pulumi.StringRef(cl.Name),
		Environment:  pulumi.StringRef(cl.Environment),
		VpcCidr:      pulumi.StringRef(cl.VpcCidr),
		Addons:       pulumi.ToBoolMap(cl.Addons),
		GitopsAccess: access,
	}
	if len(cl.PublicAccessCidrs) > 0 {
		args.PublicAccessCidrs = pulumi.ToStringArray(cl.PublicAccessCidrs)
	}
	if cl.Version != "" {
		args.Version = pulumi.StringRef(cl.Version)
	}
	if cl.AddonSettings != nil {
		// The SDK registers AddonSettingsOutput for its plain type, so the config value becomes an input as it is.
		args.AddonSettings = pulumi.ToOutput(*cl.AddonSettings).(fleet.AddonSettingsOutput).ToAddonSettingsPtrOutput()
	}
	var groups fleet.NodeGroupArray
	for _, ng := range cl.NodeGroups {
		groups = append(groups, fleet.NodeGroupArgs{
			Name:          pulumi.String(ng.Name),
			InstanceTypes: pulumi.ToStringArray(ng.InstanceTypes),
			MinSize:       pulumi.Int(ng.MinSize),
			MaxSize:       pulumi.Int(ng.MaxSize),
			DesiredSize:   pulumi.Int(ng.DesiredSize),
		})
	}
	if len(groups) > 0 {
		args.NodeGroups = groups
	}
	return args
}

func bridgeArgs(cfg Config, c *fleet.FleetCluster, hub fleet.HubPtrInput, spoke fleet.SpokePtrInput) *fleet.GitOpsBridgeArgs {
	args := &fleet.GitOpsBridgeArgs{
		Cluster:       c.ClusterInfo,
		Hub:           hub,
		Spoke:         spoke,
		AddonsRepo:    repo(cfg.Repositories.Addons),
		WorkloadsRepo: repo(cfg.Repositories.Workloads),
	}
	if g := cfg.Git; g != nil {
		git := &fleet.GitDeliveryArgs{
			Owner:       pulumi.String(g.Owner),
			Repository:  pulumi.String(g.Repository),
			PullRequest: pulumi.BoolPtr(g.PullRequest),
		}
		if g.Branch != "" {
			git.Branch = pulumi.StringPtr(g.Branch)
		}
		args.Git = git
	}
	return args
}

func repo(r *Repo) fleet.RepoPtrInput {
	if r == nil {
		return nil
	}
	args := &fleet.RepoArgs{Url: pulumi.String(r.URL), Path: pulumi.String(r.Path)}
	if r.Revision != "" {
		args.Revision = pulumi.StringPtr(r.Revision)
	}
	if r.BasePath != "" {
		args.BasePath = pulumi.StringPtr(r.BasePath)
	}
	return args
}

func clusterSummary(cl Cluster, c *fleet.FleetCluster, b *fleet.GitOpsBridge) pulumi.Map {
	return pulumi.Map{
		"region":          pulumi.String(cl.Region),
		"role":            pulumi.String(cl.Role),
		"environment":     pulumi.String(cl.Environment),
		"endpoint":        c.Endpoint,
		"labels":          b.Labels,
		"secretName":      b.SecretName,
		"secretNamespace": b.SecretNamespace,
	}
}
