package fleetcluster

import (
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	awsxec2 "github.com/pulumi/pulumi-awsx/sdk/v2/go/awsx/ec2"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// network is where the cluster runs.
type network struct {
	vpcID          pulumi.StringOutput
	privateSubnets pulumi.StringArrayOutput
	publicSubnets  pulumi.StringArrayOutput
	// natIPs are the NAT gateways' public addresses (none for an existing VPC).
	natIPs pulumi.StringArrayOutput
}

// SubnetTags are the tags that let the AWS Load Balancer Controller and EKS find a cluster's subnets:
// kubernetes.io/role/elb on public subnets (internet-facing load balancers), kubernetes.io/role/internal-elb
// on private ones, and kubernetes.io/cluster/<cluster>: shared on both (EKS subnet requirements).
func SubnetTags(clusterName string, public bool) map[string]string {
	role := "kubernetes.io/role/internal-elb"
	if public {
		role = "kubernetes.io/role/elb"
	}
	return map[string]string{role: "1", "kubernetes.io/cluster/" + clusterName: "shared"}
}

// network builds an awsx VPC, or passes the existing VPC and subnets through.
func (b *builder) network() (network, error) {
	a := b.args
	if a.VpcId != nil {
		public := pulumi.StringArray{}.ToStringArrayOutput()
		if a.PublicSubnetIds != nil {
			public = a.PublicSubnetIds.ToStringArrayOutput()
		}
		return network{
			vpcID:          a.VpcId.ToStringOutput(),
			privateSubnets: a.PrivateSubnetIds.ToStringArrayOutput(),
			publicSubnets:  public,
			natIPs:         pulumi.StringArray{}.ToStringArrayOutput(),
		}, nil
	}
	cidr, zones := a.VpcCidr, a.AvailabilityZoneCount
	strategy := awsxec2.SubnetAllocationStrategyAuto
	vpc, err := awsxec2.NewVpc(b.ctx, childName(b.name, "vpc"), &awsxec2.VpcArgs{
		CidrBlock:                 &cidr,
		NumberOfAvailabilityZones: &zones,
		NatGateways:               &awsxec2.NatGatewayConfigurationArgs{Strategy: awsxec2.NatGatewayStrategy(a.NatGatewayStrategy)},
		SubnetStrategy:            &strategy,
		SubnetSpecs: []awsxec2.SubnetSpecArgs{
			{Type: awsxec2.SubnetTypePublic, Tags: pulumi.ToStringMap(SubnetTags(a.ClusterName, true))},
			{Type: awsxec2.SubnetTypePrivate, Tags: pulumi.ToStringMap(SubnetTags(a.ClusterName, false))},
		},
		EnableDnsHostnames: pulumi.Bool(true),
		EnableDnsSupport:   pulumi.Bool(true),
		Tags:               b.tags(a.ClusterName),
	}, b.component()...)
	if err != nil {
		return network{}, err
	}
	natIPs := vpc.Eips.ApplyT(func(eips []*ec2.Eip) pulumi.StringArrayOutput {
		ips := pulumi.StringArray{}
		for _, e := range eips {
			ips = append(ips, e.PublicIp)
		}
		return ips.ToStringArrayOutput()
	}).(pulumi.StringArrayOutput)
	return network{vpcID: vpc.VpcId, privateSubnets: vpc.PrivateSubnetIds, publicSubnets: vpc.PublicSubnetIds,
		natIPs: natIPs}, nil
}
