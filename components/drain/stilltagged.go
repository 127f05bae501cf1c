package drain

import (
	"context"

	"github.com/pulumi/pulumi-go-provider/infer"
)

// StillTaggedToken is the function that lists what is still tagged to a cluster.
const StillTaggedToken = "fleet:index:getStillTagged"

// GetStillTagged lists what the add-on controllers made for a cluster that AWS still holds: the drain's query
// (Queries), without deleting or waiting. Fleet calls it for decommissioned clusters, for its summary.
type GetStillTagged struct{}

// Annotate gives GetStillTagged its schema description.
func (f *GetStillTagged) Annotate(a infer.Annotator) {
	a.Describe(f, "getStillTagged lists the AWS resources the add-on controllers made for a cluster that still "+
		"exist (load balancers, target groups and security groups of the AWS Load Balancer Controller, the EBS CSI "+
		"driver's volumes, Karpenter's instances and launch templates), through the Resource Groups Tagging API with "+
		"the plugin's ambient credentials. It is the query a ClusterDrain waits on; it deletes nothing.")
}

// GetStillTaggedArgs name the cluster.
type GetStillTaggedArgs struct {
	// ClusterName is the EKS cluster's name.
	ClusterName string `pulumi:"clusterName"`
	// Region is the cluster's AWS region.
	Region string `pulumi:"region"`
	// AssumeRoleArn is the role to ask AWS as. Default: the ambient credentials.
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
}

// GetStillTaggedResult is what is still tagged.
type GetStillTaggedResult struct {
	// Arns are the resources' ARNs, sorted.
	Arns []string `pulumi:"arns"`
}

// Invoke asks AWS.
func (GetStillTagged) Invoke(ctx context.Context, req infer.FunctionRequest[GetStillTaggedArgs],
) (infer.FunctionResponse[GetStillTaggedResult], error) {
	tagging, err := newTagging(ctx, req.Input.Region, req.Input.AssumeRoleArn)
	if err != nil {
		return infer.FunctionResponse[GetStillTaggedResult]{}, err
	}
	arns, err := tagging.Tagged(ctx, req.Input.ClusterName)
	if arns == nil {
		arns = []string{}
	}
	return infer.FunctionResponse[GetStillTaggedResult]{Output: GetStillTaggedResult{Arns: arns}}, err
}
