package drain

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi"
	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi/types"
	"github.com/google/go-cmp/cmp"
)

// account is a fake Resource Groups Tagging API over tagged resources, answering GetResources by its documented
// rules: a resource matches when its type is among ResourceTypeFilters and it carries every TagFilter's key with
// one of its values (any value when none are given); one resource per page, to exercise pagination.
type account struct {
	resources map[string]map[string]string // ARN -> tags
	calls     int
}

func (a *account) GetResources(_ context.Context, in *resourcegroupstaggingapi.GetResourcesInput,
	_ ...func(*resourcegroupstaggingapi.Options),
) (*resourcegroupstaggingapi.GetResourcesOutput, error) {
	a.calls++
	var matches []string
	for arn, tags := range a.resources {
		parts := strings.SplitN(arn, ":", 6) // arn:partition:service:region:account:resource
		typ := parts[2] + ":" + strings.SplitN(strings.SplitN(parts[5], "/", 2)[0], ":", 2)[0]
		if !slices.Contains(in.ResourceTypeFilters, typ) {
			continue
		}
		ok := true
		for _, f := range in.TagFilters {
			v, has := tags[*f.Key]
			ok = ok && has && (len(f.Values) == 0 || slices.Contains(f.Values, v))
		}
		if ok {
			matches = append(matches, arn)
		}
	}
	slices.Sort(matches)
	start := 0
	if in.PaginationToken != nil {
		for i, m := range matches {
			if m == *in.PaginationToken {
				start = i
			}
		}
	}
	out := &resourcegroupstaggingapi.GetResourcesOutput{}
	if start < len(matches) {
		out.ResourceTagMappingList = []types.ResourceTagMapping{{ResourceARN: &matches[start]}}
		if start+1 < len(matches) {
			out.PaginationToken = &matches[start+1]
		}
	}
	return out, nil
}

func TestTaggedFindsWhatTheControllersMade(t *testing.T) {
	const ec2 = "arn:aws:ec2:us-east-2:123456789012:"
	const elb = "arn:aws:elasticloadbalancing:us-east-2:123456789012:"
	a := &account{resources: map[string]map[string]string{
		elb + "loadbalancer/app/k8s-shop-web/1": {"elbv2.k8s.aws/cluster": "spoke-b"},
		elb + "targetgroup/k8s-shop-web/2":      {"elbv2.k8s.aws/cluster": "spoke-b"},
		ec2 + "security-group/sg-lb":            {"elbv2.k8s.aws/cluster": "spoke-b"},
		elb + "loadbalancer/app/k8s-other/3":    {"elbv2.k8s.aws/cluster": "spoke-c"},
		ec2 + "volume/vol-pvc":                  {"ebs.csi.aws.com/cluster": "true", "KubernetesCluster": "spoke-b"},
		ec2 + "volume/vol-root":                 {"kubernetes.io/cluster/spoke-b": "owned"},
		ec2 + "instance/i-karpenter":            {"kubernetes.io/cluster/spoke-b": "owned", "karpenter.sh/nodepool": "default"},
		ec2 + "launch-template/lt-karpenter":    {"kubernetes.io/cluster/spoke-b": "owned", "karpenter.sh/nodepool": "default"},
		ec2 + "instance/i-nodegroup":            {"kubernetes.io/cluster/spoke-b": "owned", "eks:nodegroup-name": "system"},
		ec2 + "subnet/subnet-pulumi":            {"kubernetes.io/cluster/spoke-b": "shared"},
	}}
	got, err := Tagging{Client: a}.Tagged(context.Background(), "spoke-b")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ec2 + "instance/i-karpenter", ec2 + "launch-template/lt-karpenter", ec2 + "security-group/sg-lb",
		ec2 + "volume/vol-pvc", elb + "loadbalancer/app/k8s-shop-web/1", elb + "targetgroup/k8s-shop-web/2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leftovers (-want +got): the controllers' resources of this cluster, not another cluster's, not the "+
			"node groups' instances or root volumes, not the VPC's subnets:\n%s", diff)
	}
	if a.calls < len(want) {
		t.Errorf("%d calls for %d one-per-page results: pagination not followed", a.calls, len(want))
	}
}
