package addons

import (
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// karpenterDocs is where Karpenter publishes its controller policy: the getting-started CloudFormation template
// of each release's documentation.
const karpenterDocs = "aws/karpenter-provider-aws website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml"

// karpenterPolicies are Karpenter's controller policies by version. v0.34 lets RunInstances use any launch
// template; v0.35 to v0.37 only those tagged for this cluster and a node pool (the same document but for the
// node role's reference); from v1.1 Karpenter tags what it creates with eks:eks-cluster-name and its policy
// requires that tag, so v1.x's documents must never meet v0.3x, which never sends it. v1.0 published yet another
// document and is not offered. From v1.1 each range is the document of the release that first published it
// (karpenterV1), so a version gets no action or resource a later feature added.
// The metadata does not change with the range: the template's ApplicationSet renders settings.clusterName and
// settings.interruptionQueue, which the chart reads from v0.32 on, v1 included (v0.31 read settings.aws.*, a
// version no policy here covers).
var karpenterPolicies = []Policy{
	{Versions: ">=0.34.0 <0.35.0", Inline: func(c PolicyContext) iampolicy.Document { return karpenterV0Policy(c, false) },
		Source: karpenterDocs + " at v0.34.1 (KarpenterControllerPolicy)"},
	{Versions: ">=0.35.0 <1.0.0", Inline: func(c PolicyContext) iampolicy.Document { return karpenterV0Policy(c, true) },
		Source: karpenterDocs + " at v0.37.8 (KarpenterControllerPolicy)"},
	karpenterV1(">=1.1.0 <1.3.0", "v1.1.0", karpenterFeatures{}),
	karpenterV1(">=1.3.0 <1.7.0", "v1.3.0", karpenterFeatures{capacityReservations: true, reservationTagging: true}),
	karpenterV1(">=1.7.0 <1.9.0", "v1.7.0", karpenterFeatures{capacityReservations: true, reservationTagging: true,
		listInstanceProfiles: true}),
	karpenterV1(">=1.9.0 <1.11.0", "v1.9.0", karpenterFeatures{capacityReservations: true, listInstanceProfiles: true,
		split: true}),
	karpenterV1(">=1.11.0 <1.12.0", "v1.11.0", karpenterFeatures{capacityReservations: true, listInstanceProfiles: true,
		split: true, placementGroups: true}),
	karpenterV1(">=1.12.0 <2.0.0", "v1.14.0", karpenterFeatures{capacityReservations: true, listInstanceProfiles: true,
		split: true, placementGroups: true, zonalShift: true}),
}

// karpenterFeatures are what Karpenter's v1.x controller policy gained release by release (the getting-started
// template at each minor's release tag, website/content/en/preview, which the release then copies to docs/).
type karpenterFeatures struct {
	// capacityReservations (v1.3, on-demand capacity reservations): launches into capacity-reservation/* and
	// ec2:DescribeCapacityReservations.
	capacityReservations bool
	// reservationTagging (v1.3 to v1.8): capacity-reservation/* among the resources launched with tags too, which
	// v1.9 dropped again.
	reservationTagging bool
	// listInstanceProfiles (v1.7, a mutable EC2NodeClass role): iam:ListInstanceProfiles.
	listInstanceProfiles bool
	// split (v1.9): the one KarpenterControllerPolicy split into NodeLifecycle, IAMIntegration, EKSIntegration,
	// Interruption and ResourceDiscovery policies, which orders the statements differently.
	split bool
	// placementGroups (v1.11): launches into placement-group/* and ec2:DescribePlacementGroups.
	placementGroups bool
	// zonalShift (v1.12, as upstream patched its v1.12 documents to v1.13's; v1.13 and v1.14 are the same): the
	// ZonalShift policy (arc-zonal-shift:GetManagedResource of this cluster) and ec2:DescribeInstanceStatus.
	zonalShift bool
}

// karpenterRelease is where a v1.x release's template is at its own tag: the docs/ copy there still holds the
// previous release until the release commit copies preview/ over it.
const karpenterRelease = "aws/karpenter-provider-aws website/content/en/preview/getting-started/getting-started-with-karpenter/cloudformation.yaml"

// karpenterV1 is the controller policy of versions, from the template of release ref with features.
func karpenterV1(versions, ref string, f karpenterFeatures) Policy {
	policies := "KarpenterControllerPolicy"
	if f.split {
		policies = "the NodeLifecycle, IAMIntegration, EKSIntegration, Interruption, "
		if f.zonalShift {
			policies += "ZonalShift, "
		}
		policies += "ResourceDiscovery controller policies"
	}
	return Policy{Versions: versions, Inline: func(c PolicyContext) iampolicy.Document { return karpenterPolicy(c, f) },
		Source: karpenterRelease + " at " + ref + " (" + policies + ")"}
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

// karpenterPolicy is Karpenter v1.x's controller policy with features f, statement by statement, in one document,
// in the template's order: launches only from launch templates and into resources tagged for this cluster and a
// node pool, tagging only at creation or of its own instances, deletion only of its own, instance profiles only
// its own, PassRole only of the cluster's node role, and the interruption queue.
func karpenterPolicy(c PolicyContext, f karpenterFeatures) iampolicy.Document {
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
	access := []string{c.arn("ec2", c.Region, "", "image/*"), c.arn("ec2", c.Region, "", "snapshot/*"),
		ec2("security-group/*")[0], ec2("subnet/*")[0]}
	withTags := launched
	reads := []string{"ec2:DescribeImages", "ec2:DescribeInstances", "ec2:DescribeInstanceTypeOfferings",
		"ec2:DescribeInstanceTypes", "ec2:DescribeLaunchTemplates", "ec2:DescribeSecurityGroups",
		"ec2:DescribeSpotPriceHistory", "ec2:DescribeSubnets"}
	if f.capacityReservations {
		access = append(access, ec2("capacity-reservation/*")...)
		reads = append(reads, "ec2:DescribeCapacityReservations")
	}
	if f.reservationTagging {
		withTags = append(slices.Clone(launched), ec2("capacity-reservation/*")...)
	}
	if f.placementGroups {
		access = append(access, ec2("placement-group/*")...)
		reads = append(reads, "ec2:DescribePlacementGroups")
	}
	if f.zonalShift {
		reads = append(reads, "ec2:DescribeInstanceStatus")
	}
	slices.SortFunc(reads, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) // upstream's order

	nodeLifecycle := []iampolicy.Statement{
		iampolicy.Allow("AllowScopedEC2InstanceAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"}, access),
		iampolicy.Allow("AllowScopedEC2LaunchTemplateAccessActions", []string{"ec2:RunInstances", "ec2:CreateFleet"},
			ec2("launch-template/*")).
			When("StringEquals", "aws:ResourceTag/"+owned, "owned").
			When("StringLike", "aws:ResourceTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("AllowScopedEC2InstanceActionsWithTags", []string{"ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"},
			withTags).
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
	}
	iamIntegration := []iampolicy.Statement{
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
	}
	eksIntegration := iampolicy.Allow("AllowAPIServerEndpointDiscovery", []string{"eks:DescribeCluster"}, []string{cluster})
	interruption := iampolicy.Allow("AllowInterruptionQueueActions", []string{"sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"},
		[]string{c.QueueArn})
	regionalReads := []iampolicy.Statement{
		iampolicy.Allow("AllowRegionalReadActions", reads, []string{"*"}).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("AllowSSMReadActions", []string{"ssm:GetParameter"},
			[]string{c.arn("ssm", c.Region, "", "parameter/aws/service/*")}),
		iampolicy.Allow("AllowPricingReadActions", []string{"pricing:GetProducts"}, []string{"*"}),
	}
	profileRead := iampolicy.Allow("AllowInstanceProfileReadActions", []string{"iam:GetInstanceProfile"}, profiles)
	var profileList []iampolicy.Statement
	if f.listInstanceProfiles {
		profileList = append(profileList,
			iampolicy.Allow("AllowUnscopedInstanceProfileListAction", []string{"iam:ListInstanceProfiles"}, []string{"*"}))
	}

	if !f.split { // the one KarpenterControllerPolicy, in its order
		return iampolicy.New(slices.Concat(nodeLifecycle, regionalReads, []iampolicy.Statement{interruption}, iamIntegration,
			[]iampolicy.Statement{profileRead}, profileList, []iampolicy.Statement{eksIntegration})...)
	}
	all := slices.Concat(nodeLifecycle, iamIntegration, []iampolicy.Statement{eksIntegration, interruption})
	if f.zonalShift {
		all = append(all, iampolicy.Allow("AllowZonalShiftStatusReadOnly", []string{"arc-zonal-shift:GetManagedResource"}, []string{"*"}).
			When("StringEquals", "arc-zonal-shift:ResourceIdentifier", cluster))
	}
	return iampolicy.New(slices.Concat(all, regionalReads, profileList, []iampolicy.Statement{profileRead})...)
}
