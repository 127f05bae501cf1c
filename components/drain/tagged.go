package drain

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi"
	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi/types"
)

// Query is one question to the Resource Groups Tagging API: resources of these types carrying all these tags
// (a tag with no values: the key alone).
type Query struct {
	// Controller is who tags them, for the log and the error.
	Controller string
	Types      []string
	Tags       map[string][]string
}

// Queries are the questions for a cluster, one per controller, after the tags each one puts on what it creates:
//   - the AWS Load Balancer Controller: load balancers, target groups and security groups tagged
//     elbv2.k8s.aws/cluster=<cluster>;
//   - the EBS CSI driver: volumes tagged ebs.csi.aws.com/cluster=true and KubernetesCluster=<cluster>;
//   - Karpenter: instances and launch templates tagged kubernetes.io/cluster/<cluster>=owned and
//     karpenter.sh/nodepool (any value): the node groups' instances, which EKS tags owned too, carry no node pool.
func Queries(cluster string) []Query {
	return []Query{
		{Controller: "aws-load-balancer-controller",
			Types: []string{"elasticloadbalancing:loadbalancer", "elasticloadbalancing:targetgroup", "ec2:security-group"},
			Tags:  map[string][]string{"elbv2.k8s.aws/cluster": {cluster}}},
		{Controller: "aws-ebs-csi-driver", Types: []string{"ec2:volume"},
			Tags: map[string][]string{"ebs.csi.aws.com/cluster": {"true"}, "KubernetesCluster": {cluster}}},
		{Controller: "karpenter", Types: []string{"ec2:instance", "ec2:launch-template"},
			Tags: map[string][]string{"kubernetes.io/cluster/" + cluster: {"owned"}, "karpenter.sh/nodepool": nil}},
	}
}

// Tagging finds leftovers through the Resource Groups Tagging API of the cluster's region.
type Tagging struct {
	Client resourcegroupstaggingapi.GetResourcesAPIClient
}

// Tagged returns the ARNs every query finds, sorted and without repeats.
func (t Tagging) Tagged(ctx context.Context, cluster string) ([]string, error) {
	var arns []string
	for _, q := range Queries(cluster) {
		in := &resourcegroupstaggingapi.GetResourcesInput{ResourceTypeFilters: q.Types}
		for _, k := range slices.Sorted(maps.Keys(q.Tags)) {
			in.TagFilters = append(in.TagFilters, types.TagFilter{Key: &k, Values: q.Tags[k]})
		}
		pages := resourcegroupstaggingapi.NewGetResourcesPaginator(t.Client, in)
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, err
			}
			for _, r := range page.ResourceTagMappingList {
				if r.ResourceARN != nil {
					arns = append(arns, *r.ResourceARN)
				}
			}
		}
	}
	slices.Sort(arns)
	return slices.Compact(arns), nil
}
