package awsx

import (
	"context"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumiprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
)

// VpcType is the token of the emulated component.
const VpcType = "awsx:ec2:Vpc"

// vpcArgs are the awsx:ec2:Vpc inputs the emulation reads.
type vpcArgs struct {
	CidrBlock                 *string           `pulumi:"cidrBlock"`
	NumberOfAvailabilityZones *int              `pulumi:"numberOfAvailabilityZones"`
	NatGateways               *natGateways      `pulumi:"natGateways"`
	Tags                      map[string]string `pulumi:"tags"`
	EnableDnsHostnames        *bool             `pulumi:"enableDnsHostnames"`
}

type natGateways struct {
	Strategy string `pulumi:"strategy"`
}

// vpc is the component and the outputs awsx documents.
type vpc struct {
	pulumi.ResourceState
	VpcId             pulumi.StringOutput       `pulumi:"vpcId"`
	Vpc               ec2.VpcOutput             `pulumi:"vpc"`
	PublicSubnetIds   pulumi.StringArrayOutput  `pulumi:"publicSubnetIds"`
	PrivateSubnetIds  pulumi.StringArrayOutput  `pulumi:"privateSubnetIds"`
	IsolatedSubnetIds pulumi.StringArrayOutput  `pulumi:"isolatedSubnetIds"`
	Subnets           ec2.SubnetArrayOutput     `pulumi:"subnets"`
	InternetGateway   ec2.InternetGatewayOutput `pulumi:"internetGateway"`
	NatGateways       ec2.NatGatewayArrayOutput `pulumi:"natGateways"`
	Eips              ec2.EipArrayOutput        `pulumi:"eips"`
	RouteTables       ec2.RouteTableArrayOutput `pulumi:"routeTables"`
}

// Construct builds awsx:ec2:Vpc through the Go SDK; other tokens are refused.
func Construct(ctx context.Context, req p.ConstructRequest) (p.ConstructResponse, error) {
	return p.ProgramConstruct(ctx, req, func(ctx *pulumi.Context, typ, name string, inputs pulumiprovider.ConstructInputs,
		opts pulumi.ResourceOption,
	) (*pulumiprovider.ConstructResult, error) {
		if typ != VpcType {
			return nil, fmt.Errorf("the awsx emulator builds only %s, not %s", VpcType, typ)
		}
		var args vpcArgs
		if err := inputs.CopyTo(&args); err != nil {
			return nil, err
		}
		comp := &vpc{}
		if err := ctx.RegisterComponentResource(typ, name, comp, opts); err != nil {
			return nil, err
		}
		if err := comp.build(ctx, name, args); err != nil {
			return nil, err
		}
		return pulumiprovider.NewConstructResult(comp)
	})
}

func (v *vpc) build(ctx *pulumi.Context, name string, args vpcArgs) error {
	cidr, zones, strategy := "10.0.0.0/16", 3, "OnePerAz"
	if args.CidrBlock != nil {
		cidr = *args.CidrBlock
	}
	if args.NumberOfAvailabilityZones != nil {
		zones = *args.NumberOfAvailabilityZones
	}
	if args.NatGateways != nil && args.NatGateways.Strategy != "" {
		strategy = args.NatGateways.Strategy
	}
	pairs, err := layout(cidr, zones)
	if err != nil {
		return err
	}
	az, err := aws.GetAvailabilityZones(ctx, &aws.GetAvailabilityZonesArgs{}, pulumi.Parent(v))
	if err != nil {
		return err
	}
	if len(az.Names) < zones {
		return fmt.Errorf("numberOfAvailabilityZones %d: the region has %d", zones, len(az.Names))
	}
	child := []pulumi.ResourceOption{pulumi.Parent(v)}
	tags := func(n string) pulumi.StringMap {
		t := pulumi.StringMap{"Name": pulumi.String(n)}
		for k, val := range args.Tags {
			t[k] = pulumi.String(val)
		}
		return t
	}
	vp, err := ec2.NewVpc(ctx, name, &ec2.VpcArgs{
		CidrBlock: pulumi.String(cidr), EnableDnsHostnames: pulumi.Bool(true), EnableDnsSupport: pulumi.Bool(true),
		Tags: tags(name),
	}, child...)
	if err != nil {
		return err
	}
	igw, err := ec2.NewInternetGateway(ctx, name, &ec2.InternetGatewayArgs{VpcId: vp.ID(), Tags: tags(name)}, child...)
	if err != nil {
		return err
	}
	var public, private pulumi.StringArray
	var subnets ec2.SubnetArray
	var nats ec2.NatGatewayArray
	var eips ec2.EipArray
	var tables ec2.RouteTableArray
	var lastNat *ec2.NatGateway
	for i, pair := range pairs {
		zone := az.Names[i]
		for _, s := range []struct {
			kind string
			cidr string
		}{{"public", pair.public.String()}, {"private", pair.private.String()}} {
			sn := fmt.Sprintf("%s-%s-%d", name, s.kind, i+1)
			subnet, err := ec2.NewSubnet(ctx, sn, &ec2.SubnetArgs{
				VpcId: vp.ID(), CidrBlock: pulumi.String(s.cidr), AvailabilityZone: pulumi.String(zone),
				MapPublicIpOnLaunch: pulumi.Bool(s.kind == "public"), Tags: tags(sn),
			}, child...)
			if err != nil {
				return err
			}
			rt, err := ec2.NewRouteTable(ctx, sn, &ec2.RouteTableArgs{VpcId: vp.ID(), Tags: tags(sn)}, child...)
			if err != nil {
				return err
			}
			if _, err := ec2.NewRouteTableAssociation(ctx, sn, &ec2.RouteTableAssociationArgs{
				SubnetId: subnet.ID(), RouteTableId: rt.ID(),
			}, child...); err != nil {
				return err
			}
			subnets, tables = append(subnets, subnet), append(tables, rt)
			if s.kind == "public" {
				public = append(public, subnet.ID())
				if _, err := ec2.NewRoute(ctx, sn+"-igw", &ec2.RouteArgs{
					RouteTableId: rt.ID(), DestinationCidrBlock: pulumi.String("0.0.0.0/0"), GatewayId: igw.ID(),
				}, child...); err != nil {
					return err
				}
				if strategy == "OnePerAz" || (strings.EqualFold(strategy, "Single") && i == 0) {
					eip, err := ec2.NewEip(ctx, fmt.Sprintf("%s-%d", name, i+1), &ec2.EipArgs{Domain: pulumi.String("vpc")}, child...)
					if err != nil {
						return err
					}
					nat, err := ec2.NewNatGateway(ctx, fmt.Sprintf("%s-%d", name, i+1), &ec2.NatGatewayArgs{
						SubnetId: subnet.ID(), AllocationId: eip.AllocationId, Tags: tags(sn),
					}, child...)
					if err != nil {
						return err
					}
					eips, nats, lastNat = append(eips, eip), append(nats, nat), nat
				}
				continue
			}
			private = append(private, subnet.ID())
			if lastNat != nil {
				if _, err := ec2.NewRoute(ctx, sn+"-nat", &ec2.RouteArgs{
					RouteTableId: rt.ID(), DestinationCidrBlock: pulumi.String("0.0.0.0/0"), NatGatewayId: lastNat.ID(),
				}, child...); err != nil {
					return err
				}
			}
		}
	}
	v.VpcId = vp.ID().ToStringOutput()
	v.Vpc = vp.ToVpcOutput()
	v.PublicSubnetIds = public.ToStringArrayOutput()
	v.PrivateSubnetIds = private.ToStringArrayOutput()
	v.IsolatedSubnetIds = pulumi.StringArray{}.ToStringArrayOutput()
	v.Subnets = subnets.ToSubnetArrayOutput()
	v.InternetGateway = igw.ToInternetGatewayOutput()
	v.NatGateways = nats.ToNatGatewayArrayOutput()
	v.Eips = eips.ToEipArrayOutput()
	v.RouteTables = tables.ToRouteTableArrayOutput()
	return ctx.RegisterResourceOutputs(v, pulumi.Map{
		"vpcId": v.VpcId, "publicSubnetIds": v.PublicSubnetIds, "privateSubnetIds": v.PrivateSubnetIds,
	})
}
