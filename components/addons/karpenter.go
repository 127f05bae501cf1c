package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// karpenterDocs is where Karpenter publishes its controller policy: the getting-started CloudFormation template
// of each release's documentation.
const karpenterDocs = "aws/karpenter-provider-aws website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml"

// karpenterPolicies are Karpenter's controller policies by version. v0.34 lets RunInstances use any launch
// template; v0.35 to v0.37 only those tagged for this cluster and a node pool (the same document but for the
// node role's reference); from v1.1 Karpenter tags what it creates with eks:eks-cluster-name and its policy
// requires that tag, so v1.x's document must never meet v0.3x, which never sends it. v1.0 published yet another
// document and is not offered; v1.14's document adds only actions and resources for later features (capacity
// reservations, placement groups, zonal shift, listing instance profiles) to v1.1's, so it covers v1.1 on.
// The metadata does not change with the range: the template's ApplicationSet renders settings.clusterName and
// settings.interruptionQueue, which the chart reads from v0.32 on, v1 included (v0.31 read settings.aws.*, a
// version no policy here covers).
var karpenterPolicies = []Policy{
	{Versions: ">=0.34.0 <0.35.0", Inline: func(c PolicyContext) iampolicy.Document { return karpenterV0Policy(c, false) },
		Source: karpenterDocs + " at v0.34.1 (KarpenterControllerPolicy)"},
	{Versions: ">=0.35.0 <1.0.0", Inline: func(c PolicyContext) iampolicy.Document { return karpenterV0Policy(c, true) },
		Source: karpenterDocs + " at v0.37.8 (KarpenterControllerPolicy)"},
	{Versions: ">=1.1.0 <2.0.0", Inline: karpenterPolicy,
		Source: karpenterDocs + " at v1.14.0 (the NodeLifecycle, IAMIntegration, EKSIntegration, Interruption, " +
			"ResourceDiscovery and ZonalShift controller policies)"},
}

// karpenterV0Policy is Karpenter v0.34's (scopedLaunchTemplates false) or v0.35-v0.37's controller policy,
// statement by statement: launches into resources tagged for this cluster and a node pool at creation,
// tagging only at creation or of its own instances, deletion only of its own, instance profiles only its own
// (by tag: v0.3x's document names no instance-profile ARN), PassRole only of the cluster's node role, and the
// interruption queue.
func karpenterV0Policy(c PolicyContext, scopedLaunchTemplates bool) iampolicy.Document {
	owned := "kubernetes.io/cluster/" + c.ClusterName
	ec2 := func(resources ...string) []string {
		out := make([]string, len(resources))
		for i, r := range resources {
			out[i] = c.arn("ec2", c.Region, "*", r)
		}
		return out
	}
	launched := ec2("fleet/*", "instance/*", "volume/*", "network-interface/*", "launch-template/*", "spot-instances-request/*")
	access := []string{c.arn("ec2", c.Region, "", "image/*"), c.arn("ec2", c.Region, "", "snapshot/*"),
		ec2("security-group/*")[0], ec2("subnet/*")[0]}
	launch := []iampolicy.Statement{
		iampolicy.Allow("AllowScopedEC2InstanceActions", []string{"ec2:RunInstances", "ec2:CreateFleet"},
			append(access, ec2("launch-template/*")...)),
	}
	if scopedLaunchTemplates {
		launch = []iampolicy.Statement{
			iampolicy.Allow("AllowScopedEC2InstanceAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"}, access),
			iampolicy.Allow("AllowScopedEC2LaunchTemplateAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"},
				ec2("launch-template/*")).
				When("StringEquals", "aws:ResourceTag/"+owned, "owned").
				When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*"),
		}
	}
	all := []string{"*"}
	return iampolicy.New(append(launch,
		iampolicy.Allow("AllowScopedEC2InstanceActionsWithTags", []string{"ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"},
			launched).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringLike", "aws:RequestTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedResourceCreationTagging", []string{"ec2:CreateTags"}, launched).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "ec2:CreateAction", []string{"RunInstances", "CreateFleet", "CreateLaunchTemplate"}).
			When("StringLike", "aws:RequestTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedResourceTagging", []string{"ec2:CreateTags"}, ec2("instance/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*").
			When("ForAllValues:StringEquals", "aws:TagKeys", []string{"karpenter.sh/nodeclaim", "Name"}),
		iampolicy.Allow("AllowScopedDeletion", []string{"ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"},
			ec2("instance/*", "launch-template/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowRegionalReadActions", []string{"ec2:DescribeAvailabilityZones", "ec2:DescribeImages",
			"ec2:DescribeInstances", "ec2:DescribeInstanceTypeOfferings", "ec2:DescribeInstanceTypes",
			"ec2:DescribeLaunchTemplates", "ec2:DescribeSecurityGroups", "ec2:DescribeSpotPriceHistory",
			"ec2:DescribeSubnets"}, all).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("AllowSSMReadActions", []string{"ssm:GetParameter"},
			[]string{c.arn("ssm", c.Region, "", "parameter/aws/service/*")}),
		iampolicy.Allow("AllowPricingReadActions", []string{"pricing:GetProducts"}, all),
		iampolicy.Allow("AllowInterruptionQueueActions", []string{"sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"},
			[]string{c.QueueArn}),
		iampolicy.Allow("AllowPassingInstanceRole", []string{"iam:PassRole"}, []string{c.NodeRoleArn}).
			When("StringEquals", "iam:PassedToService", "ec2.amazonaws.com"),
		iampolicy.Allow("AllowScopedInstanceProfileCreationActions", []string{"iam:CreateInstanceProfile"}, all).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		iampolicy.Allow("AllowScopedInstanceProfileTagActions", []string{"iam:TagInstanceProfile"}, all).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringEquals", "aws:ResourceTag/topology.kubernetes.io/region", c.Region).
			When("StringEquals", "aws:RequestTag/"+owned, "owned").
			When("StringEquals", "aws:RequestTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*").
			When("StringLike", "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		iampolicy.Allow("AllowScopedInstanceProfileActions", []string{"iam:AddRoleToInstanceProfile",
			"iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"}, all).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringEquals", "aws:ResourceTag/topology.kubernetes.io/region", c.Region).
			When("StringLike", "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*"),
		iampolicy.Allow("AllowInstanceProfileReadActions", []string{"iam:GetInstanceProfile"}, all),
		iampolicy.Allow("AllowAPIServerEndpointDiscovery", []string{"eks:DescribeCluster"},
			[]string{c.regional("eks", "cluster/"+c.ClusterName)}),
	)...)
}

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
		// ZonalShiftPolicy
		iampolicy.Allow("AllowZonalShiftStatusReadOnly", []string{"arc-zonal-shift:GetManagedResource"}, []string{"*"}).
			When("StringEquals", "arc-zonal-shift:ResourceIdentifier", cluster),
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
	)
}
