package fleetcluster

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// AddonIdentity is what an add-on that calls AWS APIs needs: the service account its controller runs as
// and the permissions of its IRSA role. Namespaces and service accounts are the defaults of the GitOps
// Bridge add-on charts (eks-blueprints-addons), so Argo CD finds them in the metadata unchanged.
type AddonIdentity struct {
	// Namespace and ServiceAccount name the controller's Kubernetes service account.
	Namespace      string
	ServiceAccount string
	// ManagedPolicies are AWS managed policy names, attached as arn:<partition>:iam::aws:policy/<name>.
	ManagedPolicies []string
	// Policy builds the inline least-privilege policy, or is nil when managed policies suffice.
	Policy func(PolicyContext) iampolicy.Document
}

// PolicyContext carries the facts an add-on policy is scoped by.
type PolicyContext struct {
	Partition   string
	Region      string
	AccountID   string
	ClusterName string
	// NodeRoleArn is the role Karpenter may pass to the instances it launches.
	NodeRoleArn string
}

func (c PolicyContext) arn(service, region, account, resource string) string {
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s", c.Partition, service, region, account, resource)
}

// addonsWithoutAWS are GitOps Bridge add-ons that run without AWS permissions: enabling them only sets
// their `enable_<addon>` label.
var addonsWithoutAWS = []string{
	"argo_events", "argo_rollouts", "argo_workflows", "argocd", "cluster_proportional_autoscaler",
	"gatekeeper", "ingress_nginx", "keda", "kube_prometheus_stack", "kyverno", "metrics_server",
	"prometheus_adapter", "secrets_store_csi_driver", "vpa",
}

// addonIdentities are the add-ons that need an IRSA role, keyed by GitOps Bridge name.
var addonIdentities = map[string]AddonIdentity{
	"aws_load_balancer_controller": {
		Namespace: "kube-system", ServiceAccount: "aws-load-balancer-controller-sa",
		Policy: loadBalancerControllerPolicy,
	},
	"external_dns": {
		Namespace: "external-dns", ServiceAccount: "external-dns-sa",
		Policy: func(c PolicyContext) iampolicy.Document {
			return iampolicy.New(
				iampolicy.Allow("ChangeRecords", []string{"route53:ChangeResourceRecordSets"},
					[]string{c.arn("route53", "", "", "hostedzone/*")}),
				iampolicy.Allow("ListZones", []string{"route53:ListHostedZones", "route53:ListResourceRecordSets",
					"route53:ListTagsForResource"}, []string{"*"}),
			)
		},
	},
	"cert_manager": {
		Namespace: "cert-manager", ServiceAccount: "cert-manager",
		Policy: func(c PolicyContext) iampolicy.Document {
			return iampolicy.New(
				iampolicy.Allow("GetChange", []string{"route53:GetChange"}, []string{c.arn("route53", "", "", "change/*")}),
				iampolicy.Allow("ChangeRecords", []string{"route53:ChangeResourceRecordSets", "route53:ListResourceRecordSets"},
					[]string{c.arn("route53", "", "", "hostedzone/*")}),
				iampolicy.Allow("FindZones", []string{"route53:ListHostedZonesByName"}, []string{"*"}),
			)
		},
	},
	"external_secrets": {
		Namespace: "external-secrets", ServiceAccount: "external-secrets-sa",
		Policy: func(c PolicyContext) iampolicy.Document {
			return iampolicy.New(
				iampolicy.Allow("ReadSecrets", []string{"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret",
					"secretsmanager:ListSecretVersionIds", "secretsmanager:GetResourcePolicy"},
					[]string{c.arn("secretsmanager", c.Region, c.AccountID, "secret:*")}),
				iampolicy.Allow("ReadParameters", []string{"ssm:GetParameter", "ssm:GetParameters", "ssm:GetParametersByPath"},
					[]string{c.arn("ssm", c.Region, c.AccountID, "parameter/*")}),
				iampolicy.Allow("ListSecrets", []string{"secretsmanager:ListSecrets"}, []string{"*"}).
					When("StringEquals", "aws:RequestedRegion", c.Region),
			)
		},
	},
	"karpenter": {
		Namespace: "karpenter", ServiceAccount: "karpenter",
		Policy: karpenterPolicy,
	},
	"aws_ebs_csi_driver": {
		Namespace: "kube-system", ServiceAccount: "ebs-csi-controller-sa",
		ManagedPolicies: []string{"service-role/AmazonEBSCSIDriverPolicy"},
	},
	"aws_efs_csi_driver": {
		Namespace: "kube-system", ServiceAccount: "efs-csi-controller-sa",
		ManagedPolicies: []string{"service-role/AmazonEFSCSIDriverPolicy"},
	},
	"aws_cloudwatch_metrics": {
		Namespace: "amazon-cloudwatch", ServiceAccount: "aws-cloudwatch-metrics",
		ManagedPolicies: []string{"CloudWatchAgentServerPolicy"},
	},
	"aws_for_fluentbit": {
		Namespace: "kube-system", ServiceAccount: "aws-for-fluent-bit-sa",
		Policy: func(c PolicyContext) iampolicy.Document {
			group := c.arn("logs", c.Region, c.AccountID, "log-group:/aws/eks/"+c.ClusterName+"/*")
			return iampolicy.New(iampolicy.Allow("WriteClusterLogs", []string{"logs:CreateLogGroup", "logs:CreateLogStream",
				"logs:DescribeLogStreams", "logs:PutLogEvents", "logs:PutRetentionPolicy"},
				[]string{group, group + ":log-stream:*"}))
		},
	},
	"velero": {
		Namespace: "velero", ServiceAccount: "velero-server",
		Policy: func(c PolicyContext) iampolicy.Document {
			// Backups go to S3 buckets named "<cluster>-velero-*" (the convention this policy is scoped to).
			buckets := c.arn("s3", "", "", c.ClusterName+"-velero-*")
			return iampolicy.New(
				iampolicy.Allow("Snapshots", []string{"ec2:DescribeVolumes", "ec2:DescribeSnapshots", "ec2:CreateTags",
					"ec2:CreateVolume", "ec2:CreateSnapshot", "ec2:DeleteSnapshot"}, []string{"*"}).
					When("StringEquals", "aws:RequestedRegion", c.Region),
				iampolicy.Allow("BackupObjects", []string{"s3:GetObject", "s3:DeleteObject", "s3:PutObject",
					"s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"}, []string{buckets + "/*"}),
				iampolicy.Allow("BackupBuckets", []string{"s3:ListBucket"}, []string{buckets}),
			)
		},
	},
}

// KnownAddons lists every add-on name FleetClusterArgs.Addons accepts, sorted.
func KnownAddons() []string {
	names := slices.Concat(addonsWithoutAWS, slices.Collect(maps.Keys(addonIdentities)))
	slices.Sort(names)
	return names
}

// IdentityOf returns the AWS identity an add-on needs, and false for add-ons that need none.
func IdentityOf(addon string) (AddonIdentity, bool) {
	id, ok := addonIdentities[addon]
	return id, ok
}

// enabledAddonsWithIdentity lists the enabled add-ons that need an IRSA role, sorted for stable resource order.
func enabledAddonsWithIdentity(addons map[string]bool) []string {
	var names []string
	for name, on := range addons {
		if _, ok := addonIdentities[name]; ok && on {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// loadBalancerControllerPolicy follows the AWS Load Balancer Controller's published IAM policy: reads are
// open, and everything that creates, changes or deletes is tied to the controller's
// `elbv2.k8s.aws/cluster` tag.
func loadBalancerControllerPolicy(c PolicyContext) iampolicy.Document {
	const clusterTag = "elbv2.k8s.aws/cluster"
	sg := c.arn("ec2", "*", "*", "security-group/*")
	elb := []string{
		c.arn("elasticloadbalancing", "*", "*", "targetgroup/*/*"),
		c.arn("elasticloadbalancing", "*", "*", "loadbalancer/net/*/*"),
		c.arn("elasticloadbalancing", "*", "*", "loadbalancer/app/*/*"),
	}
	return iampolicy.New(
		iampolicy.Allow("ServiceLinkedRole", []string{"iam:CreateServiceLinkedRole"}, []string{"*"}).
			When("StringEquals", "iam:AWSServiceName", "elasticloadbalancing.amazonaws.com"),
		iampolicy.Allow("Describe", []string{
			"ec2:DescribeAccountAttributes", "ec2:DescribeAddresses", "ec2:DescribeAvailabilityZones",
			"ec2:DescribeInternetGateways", "ec2:DescribeVpcs", "ec2:DescribeVpcPeeringConnections",
			"ec2:DescribeSubnets", "ec2:DescribeSecurityGroups", "ec2:DescribeInstances",
			"ec2:DescribeNetworkInterfaces", "ec2:DescribeTags", "ec2:GetCoipPoolUsage", "ec2:DescribeCoipPools",
			"ec2:GetSecurityGroupsForVpc", "ec2:DescribeIpamPools", "ec2:DescribeRouteTables",
			"elasticloadbalancing:Describe*", "acm:ListCertificates", "acm:DescribeCertificate",
			"iam:ListServerCertificates", "iam:GetServerCertificate", "cognito-idp:DescribeUserPoolClient",
			"wafv2:GetWebACL", "wafv2:GetWebACLForResource", "wafv2:AssociateWebACL", "wafv2:DisassociateWebACL",
			"shield:GetSubscriptionState", "shield:DescribeProtection", "shield:CreateProtection",
			"shield:DeleteProtection",
		}, []string{"*"}),
		iampolicy.Allow("CreateSecurityGroup", []string{"ec2:CreateSecurityGroup"}, []string{"*"}),
		iampolicy.Allow("TagNewSecurityGroup", []string{"ec2:CreateTags"}, []string{sg}).
			When("StringEquals", "ec2:CreateAction", "CreateSecurityGroup").
			When("Null", "aws:RequestTag/"+clusterTag, "false"),
		iampolicy.Allow("ManageOwnSecurityGroups", []string{"ec2:CreateTags", "ec2:DeleteTags",
			"ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress", "ec2:DeleteSecurityGroup"},
			[]string{sg}).
			When("Null", "aws:ResourceTag/"+clusterTag, "false"),
		iampolicy.Allow("CreateLoadBalancers", []string{"elasticloadbalancing:CreateLoadBalancer",
			"elasticloadbalancing:CreateTargetGroup"}, []string{"*"}).
			When("Null", "aws:RequestTag/"+clusterTag, "false"),
		iampolicy.Allow("TagLoadBalancers", []string{"elasticloadbalancing:AddTags"}, elb).
			When("StringEquals", "elasticloadbalancing:CreateAction",
				[]string{"CreateTargetGroup", "CreateLoadBalancer"}).
			When("Null", "aws:RequestTag/"+clusterTag, "false"),
		iampolicy.Allow("ManageOwnLoadBalancers", []string{
			"elasticloadbalancing:AddTags", "elasticloadbalancing:RemoveTags",
			"elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:SetIpAddressType",
			"elasticloadbalancing:SetSecurityGroups", "elasticloadbalancing:SetSubnets",
			"elasticloadbalancing:DeleteLoadBalancer", "elasticloadbalancing:ModifyTargetGroup",
			"elasticloadbalancing:ModifyTargetGroupAttributes", "elasticloadbalancing:DeleteTargetGroup",
			"elasticloadbalancing:RegisterTargets", "elasticloadbalancing:DeregisterTargets",
		}, elb).
			When("Null", "aws:ResourceTag/"+clusterTag, "false"),
		iampolicy.Allow("ManageListeners", []string{
			"elasticloadbalancing:CreateListener", "elasticloadbalancing:DeleteListener",
			"elasticloadbalancing:CreateRule", "elasticloadbalancing:DeleteRule",
			"elasticloadbalancing:ModifyListener", "elasticloadbalancing:ModifyRule",
			"elasticloadbalancing:AddListenerCertificates", "elasticloadbalancing:RemoveListenerCertificates",
			"elasticloadbalancing:SetWebAcl",
		}, []string{"*"}),
	)
}

// karpenterPolicy follows Karpenter's controller policy (IRSA form, without the interruption queue):
// instances, fleets and launch templates may only be created and deleted with this cluster's
// `kubernetes.io/cluster/<name>: owned` tag, and only the cluster's node role may be passed to them.
func karpenterPolicy(c PolicyContext) iampolicy.Document {
	owned := "aws:RequestTag/kubernetes.io/cluster/" + c.ClusterName
	ec2 := func(resource string) string { return c.arn("ec2", c.Region, "*", resource) }
	tagged := []string{ec2("fleet/*"), ec2("instance/*"), ec2("volume/*"), ec2("network-interface/*"),
		ec2("launch-template/*"), ec2("spot-instances-request/*")}
	return iampolicy.New(
		iampolicy.Allow("LaunchFromSharedResources", []string{"ec2:RunInstances", "ec2:CreateFleet"},
			[]string{c.arn("ec2", c.Region, "", "image/*"), c.arn("ec2", c.Region, "", "snapshot/*"),
				ec2("security-group/*"), ec2("subnet/*"), ec2("capacity-reservation/*")}),
		iampolicy.Allow("LaunchOwnedResources", []string{"ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"},
			tagged).
			When("StringEquals", owned, "owned").
			When("StringLike", "aws:RequestTag/karpenter.sh/nodepool", "*"),
		iampolicy.Allow("TagOnCreate", []string{"ec2:CreateTags"}, tagged).
			When("StringEquals", owned, "owned").
			When("StringEquals", "ec2:CreateAction", []string{"RunInstances", "CreateFleet", "CreateLaunchTemplate"}),
		iampolicy.Allow("DeleteOwned", []string{"ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"},
			[]string{ec2("instance/*"), ec2("launch-template/*")}).
			When("StringEquals", "aws:ResourceTag/kubernetes.io/cluster/"+c.ClusterName, "owned"),
		iampolicy.Allow("RegionalReads", []string{"ec2:DescribeAvailabilityZones", "ec2:DescribeImages",
			"ec2:DescribeInstances", "ec2:DescribeInstanceTypeOfferings", "ec2:DescribeInstanceTypes",
			"ec2:DescribeLaunchTemplates", "ec2:DescribeSecurityGroups", "ec2:DescribeSpotPriceHistory",
			"ec2:DescribeSubnets", "ec2:DescribeCapacityReservations"}, []string{"*"}).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("ReadAMIParameters", []string{"ssm:GetParameter"},
			[]string{c.arn("ssm", c.Region, "", "parameter/aws/service/*")}),
		iampolicy.Allow("ReadPricing", []string{"pricing:GetProducts"}, []string{"*"}),
		iampolicy.Allow("PassNodeRole", []string{"iam:PassRole"}, []string{c.NodeRoleArn}).
			When("StringEquals", "iam:PassedToService", "ec2.amazonaws.com"),
		iampolicy.Allow("ManageInstanceProfiles", []string{"iam:CreateInstanceProfile", "iam:TagInstanceProfile",
			"iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile",
			"iam:GetInstanceProfile"}, []string{c.arn("iam", "", c.AccountID, "instance-profile/*")}),
		iampolicy.Allow("DiscoverEndpoint", []string{"eks:DescribeCluster"},
			[]string{c.arn("eks", c.Region, c.AccountID, "cluster/"+c.ClusterName)}),
	)
}
