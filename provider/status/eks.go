package status

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// EKS is what the EKS API says of a cluster now.
type EKS struct {
	// Status is the cluster's (ACTIVE, UPDATING, ...); Version and PlatformVersion its Kubernetes and EKS platform
	// versions ("1.33", "eks.5").
	Status          string `json:"status"`
	Version         string `json:"version"`
	PlatformVersion string `json:"platformVersion"`
	// Insights are its upgrade readiness insights that do not pass (ListInsights, category UPGRADE_READINESS,
	// status WARNING, ERROR or UNKNOWN): what stands before its next Kubernetes version.
	Insights []Insight `json:"insights,omitempty"`
	// Capabilities are, on a hub with a managed Argo CD, its EKS capabilities (ListCapabilities, then each one's
	// DescribeCapability) as "name (type): status", then each health issue as "; code: message".
	Capabilities []string `json:"capabilities,omitempty"`
	// Support is where the cluster's Kubernetes version stands in EKS's support calendar, and so its control
	// plane's price; nil when EKS does not say (DescribeClusterVersions).
	Support *Support `json:"support,omitempty"`
}

// Insight is one EKS insight of a cluster.
type Insight struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// String is "ACTIVE 1.33 eks.5", then how many upgrade insights do not pass.
func (e *EKS) String() string {
	if e == nil {
		return Unknown
	}
	s := fmt.Sprintf("%s %s %s", e.Status, e.Version, e.PlatformVersion)
	if n := len(e.Insights); n > 0 {
		s += fmt.Sprintf(", %d upgrade insight(s)", n)
	}
	if e.Support != nil && e.Support.Flagged {
		s += ", " + e.Support.String()
	}
	return s
}

// EKSAPI is the part of the EKS API fleet status calls (the AWS SDK's *eks.Client).
type EKSAPI interface {
	DescribeCluster(context.Context, *eks.DescribeClusterInput, ...func(*eks.Options)) (*eks.DescribeClusterOutput, error)
	ListInsights(context.Context, *eks.ListInsightsInput, ...func(*eks.Options)) (*eks.ListInsightsOutput, error)
	ListCapabilities(context.Context, *eks.ListCapabilitiesInput, ...func(*eks.Options)) (*eks.ListCapabilitiesOutput, error)
	DescribeCapability(context.Context, *eks.DescribeCapabilityInput, ...func(*eks.Options)) (*eks.DescribeCapabilityOutput, error)
	DescribeClusterVersions(context.Context, *eks.DescribeClusterVersionsInput, ...func(*eks.Options)) (*eks.DescribeClusterVersionsOutput, error)
}

// now is the clock Support counts days with.
var now = time.Now

// WithEKS are clusters with what EKS says of each (client gives the API of a region); managedHub: the hub's Argo
// CD is an EKS capability, listed too. A cluster EKS could not be asked of keeps EKS nil, and why is returned, one
// entry per cluster in their order ("eks spoke-a (us-east-2): ..."); one whose version's calendar could not be read
// keeps the rest, with Support nil, and is reported the same way. Clusters are read EKSConcurrency at a time;
// client is called from as many goroutines.
func WithEKS(ctx context.Context, clusters []Cluster, managedHub bool, client func(region string) (EKSAPI, error)) ([]Cluster, []string) {
	out := slices.Clone(clusters)
	errs := make([]error, len(clusters))
	var wg sync.WaitGroup
	slots := make(chan struct{}, EKSConcurrency)
	calendar := &calendars{asked: map[[2]string]func() (*eks.DescribeClusterVersionsOutput, error){}}
	for i, c := range clusters {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			out[i].EKS, errs[i] = describe(ctx, c, managedHub && c.Role == "hub", client, calendar)
		})
	}
	wg.Wait()
	var unreachable []string
	for i, err := range errs {
		if err != nil {
			unreachable = append(unreachable, fmt.Sprintf("eks %s (%s): %v", clusters[i].Name, clusters[i].Region, err))
		}
	}
	return out, unreachable
}

// EKSConcurrency is how many clusters WithEKS reads at once: each read is a few calls of an AWS API's latency, so a
// fleet of 200 is read in about 200/16 rounds rather than 200, well within EKS's API rate limits (DescribeCluster
// and ListInsights are throttled per account and region, at tens of requests a second).
const EKSConcurrency = 16

// describe is what EKS says of c (its EKS cluster is named as the fleet names it, after the cluster): the cluster,
// its version's support (calendar), its upgrade insights that do not pass, and with capabilities the cluster's
// capabilities and their health.
func describe(ctx context.Context, c Cluster, capabilities bool, client func(string) (EKSAPI, error), calendar *calendars) (*EKS, error) {
	api, err := client(c.Region)
	if err != nil {
		return nil, err
	}
	name := aws.String(c.Name)
	d, err := api.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: name})
	if err != nil {
		return nil, err
	}
	e := &EKS{Status: string(d.Cluster.Status), Version: aws.ToString(d.Cluster.Version),
		PlatformVersion: aws.ToString(d.Cluster.PlatformVersion)}
	// A calendar EKS does not answer (a deployer without eks:DescribeClusterVersions) leaves Support unknown and is
	// reported, after everything else is read.
	versions, calendarErr := calendar.of(ctx, api, c.Region, e.Version)
	if calendarErr == nil {
		for _, v := range versions.ClusterVersions {
			if aws.ToString(v.ClusterVersion) == e.Version {
				e.Support = SupportOf(v, now())
			}
		}
	}
	filter := &types.InsightsFilter{Categories: []types.Category{types.CategoryUpgradeReadiness},
		Statuses: []types.InsightStatusValue{types.InsightStatusValueWarning, types.InsightStatusValueError,
			types.InsightStatusValueUnknown}}
	pages := eks.NewListInsightsPaginator(api, &eks.ListInsightsInput{ClusterName: name, Filter: filter})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("insights: %w", err)
		}
		for _, in := range page.Insights {
			i := Insight{Name: aws.ToString(in.Name)}
			if in.InsightStatus != nil {
				i.Status, i.Reason = string(in.InsightStatus.Status), aws.ToString(in.InsightStatus.Reason)
			}
			e.Insights = append(e.Insights, i)
		}
	}
	if capabilities {
		list, err := api.ListCapabilities(ctx, &eks.ListCapabilitiesInput{ClusterName: name})
		if err != nil {
			return nil, fmt.Errorf("capabilities: %w", err)
		}
		for _, s := range list.Capabilities {
			d, err := api.DescribeCapability(ctx, &eks.DescribeCapabilityInput{ClusterName: name, CapabilityName: s.CapabilityName})
			if err != nil {
				return nil, fmt.Errorf("capability %s: %w", aws.ToString(s.CapabilityName), err)
			}
			line := fmt.Sprintf("%s (%s): %s", aws.ToString(s.CapabilityName), strings.ToLower(string(s.Type)),
				d.Capability.Status)
			if d.Capability.Health != nil {
				for _, issue := range d.Capability.Health.Issues {
					line += fmt.Sprintf("; %s: %s", issue.Code, aws.ToString(issue.Message))
				}
			}
			e.Capabilities = append(e.Capabilities, line)
		}
	}
	if calendarErr != nil {
		return e, fmt.Errorf("cluster versions (support unknown): %w", calendarErr)
	}
	return e, nil
}

// calendars asks EKS of each Kubernetes version once per region (DescribeClusterVersions), however many clusters
// run it.
type calendars struct {
	mu    sync.Mutex
	asked map[[2]string]func() (*eks.DescribeClusterVersionsOutput, error)
}

// of is the calendar entry of version in region, asked through api the first time.
func (c *calendars) of(ctx context.Context, api EKSAPI, region, version string) (*eks.DescribeClusterVersionsOutput, error) {
	c.mu.Lock()
	ask, ok := c.asked[[2]string{region, version}]
	if !ok {
		ask = sync.OnceValues(func() (*eks.DescribeClusterVersionsOutput, error) {
			return api.DescribeClusterVersions(ctx, &eks.DescribeClusterVersionsInput{ClusterVersions: []string{version}})
		})
		c.asked[[2]string{region, version}] = ask
	}
	c.mu.Unlock()
	return ask()
}
