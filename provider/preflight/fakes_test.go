package preflight

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/aws/aws-sdk-go-v2/service/servicequotas"
	sqtypes "github.com/aws/aws-sdk-go-v2/service/servicequotas/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
)

// fakeAWS is an account as the checks see it: who the deployer is, what it may do, the quotas and usage of each
// region, EKS's calendar and where EKS serves capabilities.
type fakeAWS struct {
	caller string
	roles  map[string]string // role name -> ARN (GetRole)
	// decide is IAM's decision on action for resource ("*" for every resource).
	decide     func(action, resource string) iamtypes.PolicyEvaluationDecisionType
	simulated  []string // "<source> <actions> on <resources>" per call
	quotas     map[string]float64
	applied    map[string]bool // quotas the account changed (GetServiceQuota answers); others: the default
	quotaErr   error
	vpcs, eips int
	nats       map[string]int // zone -> NAT gateways
	clusters   int
	versions   map[string]ekstypes.ClusterVersionInformation
	noCapsIn   map[string]bool
	capsErr    error
	region     string // the region a regional fake answers for
}

func (f *fakeAWS) GetCallerIdentity(context.Context, *sts.GetCallerIdentityInput, ...func(*sts.Options)) (*sts.GetCallerIdentityOutput, error) {
	return &sts.GetCallerIdentityOutput{Arn: aws.String(f.caller), Account: aws.String("111122223333")}, nil
}

func (f *fakeAWS) GetRole(_ context.Context, in *iam.GetRoleInput, _ ...func(*iam.Options)) (*iam.GetRoleOutput, error) {
	a, ok := f.roles[aws.ToString(in.RoleName)]
	if !ok {
		return nil, &smithy.GenericAPIError{Code: "NoSuchEntity", Message: "no role " + aws.ToString(in.RoleName)}
	}
	return &iam.GetRoleOutput{Role: &iamtypes.Role{Arn: aws.String(a)}}, nil
}

func (f *fakeAWS) SimulatePrincipalPolicy(_ context.Context, in *iam.SimulatePrincipalPolicyInput, _ ...func(*iam.Options)) (*iam.SimulatePrincipalPolicyOutput, error) {
	f.simulated = append(f.simulated, fmt.Sprintf("%s %s on %s", aws.ToString(in.PolicySourceArn),
		strings.Join(in.ActionNames, ","), strings.Join(in.ResourceArns, ",")))
	out := &iam.SimulatePrincipalPolicyOutput{}
	for _, a := range in.ActionNames {
		e := iamtypes.EvaluationResult{EvalActionName: aws.String(a), EvalResourceName: aws.String("*"), EvalDecision: f.decide(a, "*")}
		if len(in.ResourceArns) > 0 {
			e.EvalDecision = iamtypes.PolicyEvaluationDecisionTypeAllowed
			for _, r := range in.ResourceArns {
				d := f.decide(a, r)
				if d != iamtypes.PolicyEvaluationDecisionTypeAllowed {
					e.EvalDecision = d
				}
				e.ResourceSpecificResults = append(e.ResourceSpecificResults, iamtypes.ResourceSpecificResult{
					EvalResourceName: aws.String(r), EvalResourceDecision: d})
			}
		}
		out.EvaluationResults = append(out.EvaluationResults, e)
	}
	return out, nil
}

func (f *fakeAWS) GetServiceQuota(_ context.Context, in *servicequotas.GetServiceQuotaInput, _ ...func(*servicequotas.Options)) (*servicequotas.GetServiceQuotaOutput, error) {
	if f.quotaErr != nil {
		return nil, f.quotaErr
	}
	code := aws.ToString(in.QuotaCode)
	if !f.applied[code] {
		return nil, &sqtypes.NoSuchResourceException{Message: aws.String("no applied quota")}
	}
	return &servicequotas.GetServiceQuotaOutput{Quota: &sqtypes.ServiceQuota{Value: aws.Float64(f.quotas[code])}}, nil
}

func (f *fakeAWS) GetAWSDefaultServiceQuota(_ context.Context, in *servicequotas.GetAWSDefaultServiceQuotaInput, _ ...func(*servicequotas.Options)) (*servicequotas.GetAWSDefaultServiceQuotaOutput, error) {
	return &servicequotas.GetAWSDefaultServiceQuotaOutput{Quota: &sqtypes.ServiceQuota{
		Value: aws.Float64(f.quotas[aws.ToString(in.QuotaCode)])}}, nil
}

func (f *fakeAWS) DescribeVpcs(context.Context, *ec2.DescribeVpcsInput, ...func(*ec2.Options)) (*ec2.DescribeVpcsOutput, error) {
	return &ec2.DescribeVpcsOutput{Vpcs: make([]ec2types.Vpc, f.vpcs)}, nil
}

func (f *fakeAWS) DescribeAddresses(context.Context, *ec2.DescribeAddressesInput, ...func(*ec2.Options)) (*ec2.DescribeAddressesOutput, error) {
	return &ec2.DescribeAddressesOutput{Addresses: make([]ec2types.Address, f.eips)}, nil
}

func (f *fakeAWS) DescribeNatGateways(context.Context, *ec2.DescribeNatGatewaysInput, ...func(*ec2.Options)) (*ec2.DescribeNatGatewaysOutput, error) {
	out := &ec2.DescribeNatGatewaysOutput{}
	for zone, n := range f.nats {
		for range n {
			out.NatGateways = append(out.NatGateways, ec2types.NatGateway{SubnetId: aws.String("subnet-" + zone)})
		}
	}
	return out, nil
}

func (f *fakeAWS) DescribeSubnets(_ context.Context, in *ec2.DescribeSubnetsInput, _ ...func(*ec2.Options)) (*ec2.DescribeSubnetsOutput, error) {
	out := &ec2.DescribeSubnetsOutput{}
	for _, id := range in.SubnetIds {
		out.Subnets = append(out.Subnets, ec2types.Subnet{SubnetId: aws.String(id),
			AvailabilityZone: aws.String(strings.TrimPrefix(id, "subnet-"))})
	}
	return out, nil
}

func (f *fakeAWS) ListClusters(context.Context, *eks.ListClustersInput, ...func(*eks.Options)) (*eks.ListClustersOutput, error) {
	return &eks.ListClustersOutput{Clusters: make([]string, f.clusters)}, nil
}

func (f *fakeAWS) DescribeClusterVersions(_ context.Context, in *eks.DescribeClusterVersionsInput, _ ...func(*eks.Options)) (*eks.DescribeClusterVersionsOutput, error) {
	out := &eks.DescribeClusterVersionsOutput{}
	for _, v := range in.ClusterVersions {
		if info, ok := f.versions[v]; ok {
			out.ClusterVersions = append(out.ClusterVersions, info)
		}
	}
	return out, nil
}

func (f *fakeAWS) ListCapabilities(_ context.Context, in *eks.ListCapabilitiesInput, _ ...func(*eks.Options)) (*eks.ListCapabilitiesOutput, error) {
	if f.capsErr != nil {
		return nil, f.capsErr
	}
	if f.noCapsIn[f.region] {
		return nil, &smithy.GenericAPIError{Code: "UnknownOperationException", Message: "unknown operation"}
	}
	return nil, &ekstypes.ResourceNotFoundException{Message: aws.String("No cluster found for name: " + aws.ToString(in.ClusterName))}
}

// api is the account f as Run is given it; each region's APIs are f answering for that region.
func (f *fakeAWS) api() AWS {
	return AWS{STS: f, IAM: f, Region: func(region string) (Regional, error) {
		r := *f
		r.region = region
		return Regional{Quotas: f, EC2: f, EKS: &r}, nil
	}}
}
