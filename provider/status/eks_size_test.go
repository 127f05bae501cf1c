package status

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// slowEKS answers DescribeCluster, DescribeClusterVersions (counted) and ListInsights after latency (an AWS API call's round trip), counting the calls in
// flight; a cluster named "gone-*" does not exist.
type slowEKS struct {
	latency           time.Duration
	inFlight, maxSeen atomic.Int32
	versionCalls      atomic.Int32
}

func (s *slowEKS) call(ctx context.Context) error {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		seen := s.maxSeen.Load()
		if n <= seen || s.maxSeen.CompareAndSwap(seen, n) {
			break
		}
	}
	select {
	case <-time.After(s.latency):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slowEKS) DescribeCluster(ctx context.Context, in *eks.DescribeClusterInput, _ ...func(*eks.Options)) (*eks.DescribeClusterOutput, error) {
	if err := s.call(ctx); err != nil {
		return nil, err
	}
	if name := aws.ToString(in.Name); len(name) > 5 && name[:5] == "gone-" {
		return nil, errors.New("ResourceNotFoundException: no cluster " + name)
	}
	return &eks.DescribeClusterOutput{Cluster: &types.Cluster{Status: types.ClusterStatusActive, Version: aws.String("1.33"),
		PlatformVersion: aws.String("eks.5")}}, nil
}

func (s *slowEKS) ListInsights(ctx context.Context, _ *eks.ListInsightsInput, _ ...func(*eks.Options)) (*eks.ListInsightsOutput, error) {
	return &eks.ListInsightsOutput{}, s.call(ctx)
}

func (s *slowEKS) DescribeClusterVersions(ctx context.Context, in *eks.DescribeClusterVersionsInput, _ ...func(*eks.Options)) (*eks.DescribeClusterVersionsOutput, error) {
	s.versionCalls.Add(1)
	return &eks.DescribeClusterVersionsOutput{}, s.call(ctx)
}

func (s *slowEKS) ListCapabilities(context.Context, *eks.ListCapabilitiesInput, ...func(*eks.Options)) (*eks.ListCapabilitiesOutput, error) {
	return &eks.ListCapabilitiesOutput{}, nil
}

func (s *slowEKS) DescribeCapability(context.Context, *eks.DescribeCapabilityInput, ...func(*eks.Options)) (*eks.DescribeCapabilityOutput, error) {
	return nil, errors.New("none")
}

// fleetOf is n clusters spread over three regions, every tenth one absent from EKS.
func fleetOf(n int) []Cluster {
	regions := []string{"us-east-1", "us-east-2", "us-west-2"}
	out := make([]Cluster, n)
	for i := range out {
		out[i] = Cluster{Name: fmt.Sprintf("spoke-%03d", i), Region: regions[i%3], Role: "spoke"}
		if i%10 == 9 {
			out[i].Name = fmt.Sprintf("gone-%03d", i)
		}
	}
	return out
}

// TestWithEKSAtSize: 60 clusters are read several at a time, never more than EKSConcurrency; each keeps its place,
// the ones EKS does not know are reported in the clusters' order, and the calendar is asked once per region.
func TestWithEKSAtSize(t *testing.T) {
	api := &slowEKS{latency: 5 * time.Millisecond}
	clusters := fleetOf(60)
	got, unreachable := WithEKS(context.Background(), clusters, false, func(string) (EKSAPI, error) { return api, nil })
	if seen := api.maxSeen.Load(); seen < 2 || seen > EKSConcurrency {
		t.Errorf("%d calls at once at most, want 2 to %d", seen, EKSConcurrency)
	}
	for i, c := range got {
		if c.Name != clusters[i].Name || (c.EKS == nil) != (i%10 == 9) {
			t.Errorf("cluster %d: %s, EKS %+v", i, c.Name, c.EKS)
		}
	}
	if len(unreachable) != 6 || unreachable[0] != "eks gone-009 (us-east-1): ResourceNotFoundException: no cluster gone-009" ||
		unreachable[5][:12] != "eks gone-059" {
		t.Errorf("unreachable: %q", unreachable)
	}
	if n := api.versionCalls.Load(); n != 3 {
		t.Errorf("EKS's calendar asked %d times for one version in 3 regions, want once a region", n)
	}
}

// BenchmarkWithEKSAtSize: fleet status's EKS reads of 200 clusters, each call taking 50 ms (an AWS API round trip
// from another region): with 16 reads at a time, about 13 rounds of two calls, where one after another would take
// 20 s. make bench-status writes it to bench/results/status.txt.
func BenchmarkWithEKSAtSize(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			api := &slowEKS{latency: 50 * time.Millisecond}
			clusters := fleetOf(n)
			for b.Loop() {
				WithEKS(context.Background(), clusters, false, func(string) (EKSAPI, error) { return api, nil })
			}
			b.ReportMetric(float64(api.maxSeen.Load()), "max-in-flight")
		})
	}
}

// noCalendar is slowEKS for a caller EKS refuses DescribeClusterVersions.
type noCalendar struct{ *slowEKS }

func (noCalendar) DescribeClusterVersions(context.Context, *eks.DescribeClusterVersionsInput, ...func(*eks.Options)) (*eks.DescribeClusterVersionsOutput, error) {
	return nil, errors.New("AccessDeniedException: not authorized to perform eks:DescribeClusterVersions")
}

// TestWithEKSWithoutCalendar: a calendar EKS refuses leaves each cluster's support unknown and the rest read, and
// says so per cluster.
func TestWithEKSWithoutCalendar(t *testing.T) {
	api := noCalendar{&slowEKS{}}
	got, unreachable := WithEKS(context.Background(), fleetOf(3), false, func(string) (EKSAPI, error) { return api, nil })
	for _, c := range got {
		if c.EKS == nil || c.EKS.Status != "ACTIVE" || c.EKS.Support != nil {
			t.Errorf("%s: EKS %+v; want what EKS said, support unknown", c.Name, c.EKS)
		}
	}
	if len(unreachable) != 3 || !strings.Contains(unreachable[0], "cluster versions (support unknown): AccessDeniedException") {
		t.Errorf("unreachable %q; want each cluster's calendar named", unreachable)
	}
}
