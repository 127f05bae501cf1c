package fleetcluster

import (
	"maps"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// builder registers the children of one FleetCluster, in dependency order: network and roles, then the
// cluster, then node groups, managed add-ons and IRSA roles.
type builder struct {
	ctx  *pulumi.Context
	name string
	args FleetClusterArgs
	comp *FleetCluster
	// settings are args.AddonSettings with the defaults of the enabled add-ons.
	settings AddonSettings

	// aws is the provider every AWS child uses; partition and account are read through it.
	aws       pulumi.ProviderResource
	partition pulumi.StringOutput
	accountID pulumi.StringOutput
	region    pulumi.StringOutput
	// podIdentityAgent is the eks-pod-identity-agent add-on, which Pod Identity associations follow.
	podIdentityAgent pulumi.Resource
}

func newBuilder(ctx *pulumi.Context, name string, args FleetClusterArgs, comp *FleetCluster,
	opts []pulumi.ResourceOption,
) (*builder, error) {
	b := &builder{ctx: ctx, name: name, args: args, comp: comp,
		settings: withAddonDefaults(args.AddonSettings, args.ClusterName, args.Addons)}
	prov, err := regionalProvider(ctx, name, args.Region, comp, opts)
	if err != nil {
		return nil, err
	}
	b.aws = prov
	b.partition = aws.GetPartitionOutput(ctx, aws.GetPartitionOutputArgs{}, pulumi.Provider(prov)).Partition()
	b.accountID = aws.GetCallerIdentityOutput(ctx, aws.GetCallerIdentityOutputArgs{}, pulumi.Provider(prov)).AccountId()
	b.region = aws.GetRegionOutput(ctx, aws.GetRegionOutputArgs{}, pulumi.Provider(prov)).Name()
	return b, nil
}

// regionalProvider returns the aws provider given in opts (an explicit provider wins) or creates one for
// region, parented to the component.
func regionalProvider(ctx *pulumi.Context, name, region string, comp pulumi.Resource,
	opts []pulumi.ResourceOption,
) (pulumi.ProviderResource, error) {
	ro, err := pulumi.NewResourceOptions(opts...)
	if err != nil {
		return nil, err
	}
	if p, ok := ro.Provider.(*aws.Provider); ok {
		return p, nil
	}
	for _, p := range ro.Providers {
		if p, ok := p.(*aws.Provider); ok {
			return p, nil
		}
	}
	return aws.NewProvider(ctx, childName(name, "aws"), &aws.ProviderArgs{
		Region: pulumi.String(region),
	}, pulumi.Parent(comp))
}

// resource are the options of an AWS resource child.
func (b *builder) resource(extra ...pulumi.ResourceOption) []pulumi.ResourceOption {
	return append([]pulumi.ResourceOption{pulumi.Parent(b.comp), pulumi.Provider(b.aws)}, extra...)
}

// component are the options of a component child (awsx, eks): the aws provider reaches its children
// through the providers map.
func (b *builder) component(extra ...pulumi.ResourceOption) []pulumi.ResourceOption {
	return append([]pulumi.ResourceOption{pulumi.Parent(b.comp), pulumi.Providers(b.aws)}, extra...)
}

// tags are the user's tags plus a Name tag.
func (b *builder) tags(name string) pulumi.StringMap {
	t := pulumi.StringMap{}
	for k, v := range maps.All(b.args.Tags) {
		t[k] = pulumi.String(v)
	}
	t["Name"] = pulumi.String(name)
	return t
}

func (b *builder) build() error {
	net, err := b.network()
	if err != nil {
		return err
	}
	nodeRole, err := b.nodeRole()
	if err != nil {
		return err
	}
	spokeRoleArn, err := b.spokeRole()
	if err != nil {
		return err
	}
	cl, err := b.cluster(net, nodeRole, spokeRoleArn)
	if err != nil {
		return err
	}
	nodes, err := b.managedAddonsAndNodes(cl, net, nodeRole)
	if err != nil {
		return err
	}
	oidc, err := b.oidcProvider(cl)
	if err != nil {
		return err
	}
	addonKeys, err := b.addonIdentities(oidc, nodeRole, cl.EksCluster, nodes)
	if err != nil {
		return err
	}
	b.outputs(net, cl, oidc, nodeRole.Arn, spokeRoleArn, addonKeys)
	return nil
}
