package preflight

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/servicequotas"
	sqtypes "github.com/aws/aws-sdk-go-v2/service/servicequotas/types"
)

// QuotasAPI is the part of Service Quotas preflight calls (the AWS SDK's *servicequotas.Client).
type QuotasAPI interface {
	GetServiceQuota(context.Context, *servicequotas.GetServiceQuotaInput, ...func(*servicequotas.Options)) (*servicequotas.GetServiceQuotaOutput, error)
	GetAWSDefaultServiceQuota(context.Context, *servicequotas.GetAWSDefaultServiceQuotaInput, ...func(*servicequotas.Options)) (*servicequotas.GetAWSDefaultServiceQuotaOutput, error)
}

// EC2API is the part of EC2 preflight calls to count what a region holds (the AWS SDK's *ec2.Client).
type EC2API interface {
	ec2.DescribeVpcsAPIClient
	ec2.DescribeNatGatewaysAPIClient
	ec2.DescribeSubnetsAPIClient
	DescribeAddresses(context.Context, *ec2.DescribeAddressesInput, ...func(*ec2.Options)) (*ec2.DescribeAddressesOutput, error)
}

// Quota is a service quota a fleet meets first: each cluster of the fleet's defaults makes a VPC with one NAT gateway
// and its Elastic IP (natGatewayStrategy Single), and an EKS cluster.
type Quota struct {
	// Name is the quota's name in Service Quotas; ServiceCode and QuotaCode ask for it (GetServiceQuota).
	Name, ServiceCode, QuotaCode string
	// Type is the resource type whose creates count against it.
	Type string
	// PerZone: the quota is per Availability Zone. The plan does not know its resources' zones (their subnets are
	// unknown at preview), so they are counted in the zone that holds the most already, as each VPC of the fleet's
	// defaults puts its one NAT gateway in its first zone.
	PerZone bool
	// used counts what the region holds now, per zone for a PerZone quota (one count, "", otherwise).
	used func(ctx context.Context, api Regional) (map[string]int, error)
}

// Quotas are the quotas preflight checks, with their codes in Service Quotas and the calls that count their usage
// (Amazon VPC quotas, the EC2 and EKS service quotas pages).
var Quotas = []Quota{
	{Name: "VPCs per Region", ServiceCode: "vpc", QuotaCode: "L-F678F1CE", Type: "aws:ec2/vpc:Vpc", used: vpcs},
	{Name: "EC2-VPC Elastic IPs", ServiceCode: "ec2", QuotaCode: "L-0263D0A3", Type: "aws:ec2/eip:Eip", used: addresses},
	{Name: "NAT gateways per Availability Zone", ServiceCode: "vpc", QuotaCode: "L-FE5A380F",
		Type: "aws:ec2/natGateway:NatGateway", PerZone: true, used: natGateways},
	{Name: "Clusters", ServiceCode: "eks", QuotaCode: "L-1194D53C", Type: "aws:eks/cluster:Cluster", used: clusters},
}

// checkQuotas compares, in each region of the plan, each quota with what the region holds and the plan creates: past
// the quota fails, at it warns (the next cluster will not fit).
func checkQuotas(ctx context.Context, api func(region string) (Regional, error), plan Plan, r *Report) {
	for _, region := range plan.Regions() {
		regional, err := api(region)
		for _, q := range Quotas {
			planned := plan.Count(Create, q.Type, region)
			if planned == 0 {
				continue
			}
			subject := fmt.Sprintf("%s (%s %s)", q.Name, q.ServiceCode, q.QuotaCode)
			if err != nil {
				r.add(Finding{Check: CheckQuotas, Level: Unknown, Region: region, Subject: subject, Message: err.Error()})
				continue
			}
			limit, err := quotaValue(ctx, regional.Quotas, q)
			if err != nil {
				r.add(Finding{Check: CheckQuotas, Level: Unknown, Region: region, Subject: subject,
					Message: fmt.Sprintf("the quota could not be read: %v", err)})
				continue
			}
			used, err := q.used(ctx, regional)
			if err != nil {
				r.add(Finding{Check: CheckQuotas, Level: Unknown, Region: region, Subject: subject,
					Message: fmt.Sprintf("its usage could not be counted: %v", err)})
				continue
			}
			zone, most := "", 0
			for z, n := range used {
				if n > most || n == most && z < zone {
					zone, most = z, n
				}
			}
			where := ""
			if q.PerZone && zone != "" {
				where = " in " + zone
			}
			total := most + planned
			msg := fmt.Sprintf("%d used%s + %d planned = %d of %d", most, where, planned, total, limit)
			switch {
			case total > limit:
				r.add(Finding{Check: CheckQuotas, Level: Fail, Region: region, Subject: subject,
					Message: msg + ": request an increase in Service Quotas before `pulumi up`"})
			case total == limit:
				r.add(Finding{Check: CheckQuotas, Level: Warn, Region: region, Subject: subject,
					Message: msg + ": the plan fits, the next cluster will not"})
			default:
				r.pass(CheckQuotas, fmt.Sprintf("%s: %s, %s", region, subject, msg))
			}
		}
	}
}

// quotaValue is the account's value of q: the applied quota, or AWS's default where the account never changed it
// (GetServiceQuota answers NoSuchResourceException then).
func quotaValue(ctx context.Context, api QuotasAPI, q Quota) (int, error) {
	out, err := api.GetServiceQuota(ctx, &servicequotas.GetServiceQuotaInput{ServiceCode: aws.String(q.ServiceCode),
		QuotaCode: aws.String(q.QuotaCode)})
	var missing *sqtypes.NoSuchResourceException
	if errors.As(err, &missing) {
		def, err := api.GetAWSDefaultServiceQuota(ctx, &servicequotas.GetAWSDefaultServiceQuotaInput{
			ServiceCode: aws.String(q.ServiceCode), QuotaCode: aws.String(q.QuotaCode)})
		if err != nil {
			return 0, err
		}
		return int(aws.ToFloat64(def.Quota.Value)), nil
	}
	if err != nil {
		return 0, err
	}
	return int(aws.ToFloat64(out.Quota.Value)), nil
}

func vpcs(ctx context.Context, api Regional) (map[string]int, error) {
	n := 0
	pages := ec2.NewDescribeVpcsPaginator(api.EC2, &ec2.DescribeVpcsInput{})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		n += len(page.Vpcs)
	}
	return map[string]int{"": n}, nil
}

func addresses(ctx context.Context, api Regional) (map[string]int, error) {
	out, err := api.EC2.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{Filters: []ec2types.Filter{
		{Name: aws.String("domain"), Values: []string{"vpc"}}}})
	if err != nil {
		return nil, err
	}
	return map[string]int{"": len(out.Addresses)}, nil
}

// natGateways counts the NAT gateways that exist or are being made (pending, available) per Availability Zone of
// their subnets.
func natGateways(ctx context.Context, api Regional) (map[string]int, error) {
	var subnets []string
	pages := ec2.NewDescribeNatGatewaysPaginator(api.EC2, &ec2.DescribeNatGatewaysInput{Filter: []ec2types.Filter{
		{Name: aws.String("state"), Values: []string{"pending", "available"}}}})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, g := range page.NatGateways {
			subnets = append(subnets, aws.ToString(g.SubnetId))
		}
	}
	out := map[string]int{}
	if len(subnets) == 0 {
		return out, nil
	}
	zones := map[string]string{}
	ids := slices.Compact(slices.Sorted(slices.Values(subnets)))
	sp := ec2.NewDescribeSubnetsPaginator(api.EC2, &ec2.DescribeSubnetsInput{SubnetIds: ids})
	for sp.HasMorePages() {
		page, err := sp.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.Subnets {
			zones[aws.ToString(s.SubnetId)] = aws.ToString(s.AvailabilityZone)
		}
	}
	for _, s := range subnets {
		out[zones[s]]++
	}
	return out, nil
}

func clusters(ctx context.Context, api Regional) (map[string]int, error) {
	n := 0
	pages := eks.NewListClustersPaginator(api.EKS, &eks.ListClustersInput{})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		n += len(page.Clusters)
	}
	return map[string]int{"": n}, nil
}
