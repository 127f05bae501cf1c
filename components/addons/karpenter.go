package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// KarpenterPolicySource is the document karpenterPolicy follows.
const KarpenterPolicySource = "aws/karpenter-provider-aws website/content/en/v1.14/getting-started/" +
	"getting-started-with-karpenter/cloudformation.yaml (Karpenter v1.14): the NodeLifecycle, IAMIntegration, " +
	"EKSIntegration, Interruption, ResourceDiscovery and ZonalShift controller policies"

// karpenterPolicy is Karpenter v1.14's controller policy, statement by statement, in one document: launches
// only from launch templates and into resources tagged for this cluster and a node pool, tagging only at
// creation or of its own instances, deletion only of its own, instance profiles only its own, PassRole only
// of the cluster's node role, and the interruption queue.
func karpenterPolicy(c PolicyContext) iampolicy.Document {
	owned := "kubernetes.io/cluster/" + c.ClusterName
	ec2 := func(resources ...string) []string {
		out := make([]string, len(resources))
		for i, r := range resources {
			out[i] = c.arn("ec2", c.Region, "*", r)
		}
		return out
	}
	launched := ec2("fleet/*", "instance/*", "volume/*", "network-interface/*", "launch-template/*", "spot-instances-request/*")
	profiles := []string{c.arn("iam", "", c.AccountID, "instance-profile/*")}
	cluster := c.regional("eks", "cluster/"+c.ClusterName)
	return iampolicy.New(
		// NodeLifecyclePolicy
		iampolicy.Allow("AllowScopedEC2InstanceAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"},
			[]string{c.arn("ec2", c.Region, "", "image/*"), c.arn("ec2", c.Region, "", "snapshot/*"),
				ec2("security-group/*")[0], ec2("subnet/*")[0], ec2("capacity-reservation/*")[0], ec2("placement-group/*")[0]}),
		iampolicy.Allow("AllowScopedEC2LaunchTemplateAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"},
			ec2("launch-template/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedEC2InstanceActionsWithTags", []string{"ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"},
			launched).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/eks:eks-cluster-name", c.ClusterName).
			When("StringLike", "aws:RequestTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedResourceCreationTagging", []string{"ec2:CreateTags"}, launched).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/eks:eks-cluster-name", c.ClusterName).
			When("StringEquals", "ec2:CreateAction", []string{"RunInstances", "CreateFleet", "CreateLaunchTemplate"}).
			When("StringLike", "aws:RequestTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedResourceTagging", []string{"ec2:CreateTags"}, ec2("instance/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*").
			When("StringEqualsIfExists", "aws:RequestTag/eks:eks-cluster-name", c.ClusterName).
			When("ForAllValues:StringEquals", "aws:TagKeys", []string{"eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"}),
		iampolicy.Allow("AllowScopedDeletion", []string{"ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"},
			ec2("instance/*", "launch-template/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*"),
		// IAMIntegrationPolicy
		iampolicy.Allow("AllowPassingInstanceRole", []string{"iam:PassRole"}, []string{c.NodeRoleArn}).
			When("StringEquals", "iam:PassedToService", []string{"ec2.amazonaws.com", "ec2.amazonaws.com.cn"}),
		iampolicy.Allow("AllowScopedInstanceProfileCreationActions", []string{"iam:CreateInstanceProfile"}, profiles).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/eks:eks-cluster-name", c.ClusterName).
			When("StringEquals", "aws:RequestTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		iampolicy.Allow("AllowScopedInstanceProfileTagActions", []string{"iam:TagInstanceProfile"}, profiles).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringEquals", "aws:ResourceTag/topology.kubernetes.io/region", c.Region).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/eks:eks-cluster-name", c.ClusterName).
			When("StringEquals", "aws:RequestTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*").
			When("StringLike", "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		iampolicy.Allow("AllowScopedInstanceProfileActions", []string{"iam:AddRoleToInstanceProfile",
			"iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"}, profiles).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringEquals", "aws:ResourceTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		// EKSIntegrationPolicy
		iampolicy.Allow("AllowAPIServerEndpointDiscovery", []string{"eks:DescribeCluster"}, []string{cluster}),
		// InterruptionPolicy
		iampolicy.Allow("AllowInterruptionQueueActions", []string{"sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"},
			[]string{c.QueueArn}),
		// ResourceDiscoveryPolicy
		iampolicy.Allow("AllowRegionalReadActions", []string{"ec2:DescribeCapacityReservations", "ec2:DescribeImages",
			"ec2:DescribeInstances", "ec2:DescribeInstanceStatus", "ec2:DescribeInstanceTypeOfferings",
			"ec2:DescribeInstanceTypes", "ec2:DescribeLaunchTemplates", "ec2:DescribePlacementGroups",
			"ec2:DescribeSecurityGroups", "ec2:DescribeSpotPriceHistory", "ec2:DescribeSubnets"}, []string{"*"}).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("AllowSSMReadActions", []string{"ssm:GetParameter"},
			[]string{c.arn("ssm", c.Region, "", "parameter/aws/service/*")}),
		iampolicy.Allow("AllowPricingReadActions", []string{"pricing:GetProducts"}, []string{"*"}),
		iampolicy.Allow("AllowUnscopedInstanceProfileListAction", []string{"iam:ListInstanceProfiles"}, []string{"*"}),
		iampolicy.Allow("AllowInstanceProfileReadActions", []string{"iam:GetInstanceProfile"}, profiles),
		// ZonalShiftPolicy
		iampolicy.Allow("AllowZonalShiftStatusReadOnly", []string{"arc-zonal-shift:GetManagedResource"}, []string{"*"}).
			When("StringEquals", "arc-zonal-shift:ResourceIdentifier", cluster),
	)
}
