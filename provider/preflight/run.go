package preflight

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// EKSAPI is the part of EKS preflight calls (the AWS SDK's *eks.Client).
type EKSAPI interface {
	eks.ListClustersAPIClient
	DescribeClusterVersions(context.Context, *eks.DescribeClusterVersionsInput, ...func(*eks.Options)) (*eks.DescribeClusterVersionsOutput, error)
	ListCapabilities(context.Context, *eks.ListCapabilitiesInput, ...func(*eks.Options)) (*eks.ListCapabilitiesOutput, error)
}

// Regional are the APIs of one region.
type Regional struct {
	Quotas QuotasAPI
	EC2    EC2API
	EKS    EKSAPI
}

// AWS is the account, as the deployer reaches it.
type AWS struct {
	STS STSAPI
	IAM IAMAPI
	// Region is the APIs of a region; Run calls it once per region.
	Region func(region string) (Regional, error)
	// Now is the clock the support calendar is read with; nil: time.Now.
	Now func() time.Time
}

// Run checks plan against the account: who the deployer is, then every check, each finding reported. Only an
// unknown deployer (sts:GetCallerIdentity failing: no credentials) is an error.
func Run(ctx context.Context, plan Plan, api AWS) (Report, error) {
	r := Report{Steps: len(plan), Regions: plan.Regions(), Findings: []Finding{}, Passed: []string{}}
	regions := map[string]func() (Regional, error){}
	regional := func(region string) (Regional, error) { // each region's APIs made once, for every check
		if _, ok := regions[region]; !ok {
			regions[region] = sync.OnceValues(func() (Regional, error) { return api.Region(region) })
		}
		return regions[region]()
	}
	who, err := api.STS.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return r, fmt.Errorf("who the deployer is (sts:GetCallerIdentity): %w", err)
	}
	r.Deployer, r.Account = aws.ToString(who.Arn), aws.ToString(who.Account)
	partition := "aws"
	if a, err := awsarn.Parse(r.Deployer); err == nil {
		partition = a.Partition
	}
	source, root, err := principal(ctx, api.IAM, r.Deployer)
	switch {
	case root:
		r.add(Finding{Check: CheckPermissions, Level: Warn, Subject: r.Deployer,
			Message: "the account's root user may do everything; AWS advises a role or user for daily work (IAM User Guide, root user best practices)"})
	case err != nil:
		r.add(Finding{Check: CheckPermissions, Level: Unknown, Subject: r.Deployer, Message: err.Error()})
	default:
		checkPermissions(ctx, api.IAM, source, partition, r.Account, plan, &r)
	}
	checkQuotas(ctx, regional, plan, &r)
	now := time.Now
	if api.Now != nil {
		now = api.Now
	}
	checkVersions(ctx, regional, plan, now(), &r)
	checkCapabilities(ctx, regional, plan, &r)
	r.sort()
	return r, nil
}
