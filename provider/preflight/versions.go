package preflight

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// clusterType is the EKS cluster's resource type.
const clusterType = "aws:eks/cluster:Cluster"

// checkVersions reads, per region and Kubernetes version the plan's clusters run (creates and updates), EKS's
// calendar entry (DescribeClusterVersions): a version EKS does not offer there or no longer supports fails; one in
// extended support, or within status.SupportWarningDays of it, warns with its price (EKS User Guide, "Understand the
// Kubernetes version lifecycle on EKS").
func checkVersions(ctx context.Context, api func(region string) (Regional, error), plan Plan, now time.Time, r *Report) {
	type key struct{ region, version string }
	var order []key
	names := map[key][]string{}
	for _, s := range plan {
		if s.Type != clusterType || s.Op == Delete {
			continue
		}
		k := key{s.Region, s.Input("version")}
		if k.version == "" {
			continue // EKS's own default version, the newest it offers
		}
		if _, ok := names[k]; !ok {
			order = append(order, k)
		}
		names[k] = append(names[k], s.Input("name"))
	}
	for _, k := range order {
		subject := fmt.Sprintf("Kubernetes %s (%v)", k.version, names[k])
		regional, err := api(k.region)
		var out *eks.DescribeClusterVersionsOutput
		if err == nil {
			out, err = regional.EKS.DescribeClusterVersions(ctx, &eks.DescribeClusterVersionsInput{ClusterVersions: []string{k.version}})
		}
		if err != nil {
			r.add(Finding{Check: CheckVersions, Level: Unknown, Region: k.region, Subject: subject,
				Message: fmt.Sprintf("EKS's calendar could not be read: %v", err)})
			continue
		}
		var support *status.Support
		for _, v := range out.ClusterVersions {
			if aws.ToString(v.ClusterVersion) == k.version {
				support = status.SupportOf(v, now)
			}
		}
		switch {
		case support == nil:
			r.add(Finding{Check: CheckVersions, Level: Fail, Region: k.region, Subject: subject,
				Message: "EKS does not offer this version here (DescribeClusterVersions lists it not)"})
		case support.Status == "UNSUPPORTED" || support.EndOfExtendedSupport != "" && support.EndOfExtendedSupport <= now.UTC().Format(time.DateOnly):
			r.add(Finding{Check: CheckVersions, Level: Fail, Region: k.region, Subject: subject,
				Message: fmt.Sprintf("past the end of extended support (%s): EKS creates no cluster of it", support.EndOfExtendedSupport)})
		case support.PriceTier == status.PriceExtended:
			r.add(Finding{Check: CheckVersions, Level: Warn, Region: k.region, Subject: subject,
				Message: fmt.Sprintf("in extended support since %s: each control plane costs six times the standard price until upgraded; support ends %s",
					support.EndOfStandardSupport, support.EndOfExtendedSupport)})
		case support.Flagged:
			r.add(Finding{Check: CheckVersions, Level: Warn, Region: k.region, Subject: subject,
				Message: fmt.Sprintf("standard support ends %s, in %d days; then the control plane costs six times as much",
					support.EndOfStandardSupport, support.DaysToEndOfStandardSupport)})
		default:
			r.pass(CheckVersions, fmt.Sprintf("%s: %s, %s", k.region, subject, support))
		}
	}
}
