package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// lbcDocs is where the AWS Load Balancer Controller publishes its policy.
const lbcDocs = "kubernetes-sigs/aws-load-balancer-controller docs/install/iam_policy.json"

// loadBalancerControllerPolicies are the AWS Load Balancer Controller's published policies: v2.7.1's (the
// same file from v2.7.0 to v2.8.3; Helm chart 1.7.1) and v3.5.0's (the same file from v2.13.0 to v3.5.0). The
// file changed at v2.9.0, v2.10.0, v2.11.0, v2.12.0 and v2.13.0; versions in between are not offered.
var loadBalancerControllerPolicies = []Policy{
	{Versions: ">=2.7.0 <2.9.0", Inline: func(c PolicyContext) iampolicy.Document { return loadBalancerControllerPolicy(c, false) },
		Source: lbcDocs + " at v2.7.1"},
	{Versions: ">=2.13.0 <=3.5.0", Inline: func(c PolicyContext) iampolicy.Document { return loadBalancerControllerPolicy(c, true) },
		Source: lbcDocs + " at v3.5.0"},
}

// loadBalancerControllerPolicy is the AWS Load Balancer Controller's published policy, statement by statement,
// with the partition substituted: v2.13's on (current) or v2.7's, which lacks the actions added since (listener
// attributes, capacity reservations, IPAM pools, security groups by VPC, route tables, rule priorities). The controller tags its listeners and rules (on by default), opens the
// nodes' untagged security groups to its load balancers, and only creates, changes or deletes load balancers,
// target groups and security groups carrying its elbv2.k8s.aws/cluster tag.
func loadBalancerControllerPolicy(c PolicyContext, current bool) iampolicy.Document {
	const tag = "elbv2.k8s.aws/cluster"
	all := []string{"*"}
	sg := []string{c.arn("ec2", "*", "*", "security-group/*")}
	elb := func(resources ...string) []string {
		out := make([]string, len(resources))
		for i, r := range resources {
			out[i] = c.arn("elasticloadbalancing", "*", "*", r)
		}
		return out
	}
	ownedLBs := elb("targetgroup/*/*", "loadbalancer/net/*/*", "loadbalancer/app/*/*")
	allow := func(actions []string, resources []string) iampolicy.Statement {
		return iampolicy.Allow("", actions, resources)
	}
	since := func(actions ...string) []string {
		if current {
			return actions
		}
		return nil
	}
	return iampolicy.New(
		allow([]string{"iam:CreateServiceLinkedRole"}, all).
			When("StringEquals", "iam:AWSServiceName", "elasticloadbalancing.amazonaws.com"),
		allow(append([]string{
			"ec2:DescribeAccountAttributes", "ec2:DescribeAddresses", "ec2:DescribeAvailabilityZones",
			"ec2:DescribeInternetGateways", "ec2:DescribeVpcs", "ec2:DescribeVpcPeeringConnections",
			"ec2:DescribeSubnets", "ec2:DescribeSecurityGroups", "ec2:DescribeInstances",
			"ec2:DescribeNetworkInterfaces", "ec2:DescribeTags", "ec2:GetCoipPoolUsage", "ec2:DescribeCoipPools",
			"elasticloadbalancing:DescribeLoadBalancers", "elasticloadbalancing:DescribeLoadBalancerAttributes",
			"elasticloadbalancing:DescribeListeners", "elasticloadbalancing:DescribeListenerCertificates",
			"elasticloadbalancing:DescribeSSLPolicies", "elasticloadbalancing:DescribeRules",
			"elasticloadbalancing:DescribeTargetGroups", "elasticloadbalancing:DescribeTargetGroupAttributes",
			"elasticloadbalancing:DescribeTargetHealth", "elasticloadbalancing:DescribeTags",
			"elasticloadbalancing:DescribeTrustStores",
		}, since("ec2:GetSecurityGroupsForVpc", "ec2:DescribeIpamPools", "ec2:DescribeRouteTables",
			"elasticloadbalancing:DescribeListenerAttributes", "elasticloadbalancing:DescribeCapacityReservation")...), all),
		allow([]string{
			"cognito-idp:DescribeUserPoolClient", "acm:ListCertificates", "acm:DescribeCertificate",
			"iam:ListServerCertificates", "iam:GetServerCertificate", "waf-regional:GetWebACL",
			"waf-regional:GetWebACLForResource", "waf-regional:AssociateWebACL", "waf-regional:DisassociateWebACL",
			"wafv2:GetWebACL", "wafv2:GetWebACLForResource", "wafv2:AssociateWebACL", "wafv2:DisassociateWebACL",
			"shield:GetSubscriptionState", "shield:DescribeProtection", "shield:CreateProtection",
			"shield:DeleteProtection",
		}, all),
		allow([]string{"ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress"}, all),
		allow([]string{"ec2:CreateSecurityGroup"}, all),
		allow([]string{"ec2:CreateTags"}, sg).
			When("StringEquals", "ec2:CreateAction", "CreateSecurityGroup").
			When("Null", "aws:RequestTag/"+tag, "false"),
		allow([]string{"ec2:CreateTags", "ec2:DeleteTags"}, sg).
			When("Null", "aws:RequestTag/"+tag, "true").When("Null", "aws:ResourceTag/"+tag, "false"),
		allow([]string{"ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress", "ec2:DeleteSecurityGroup"}, all).
			When("Null", "aws:ResourceTag/"+tag, "false"),
		allow([]string{"elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:CreateTargetGroup"}, all).
			When("Null", "aws:RequestTag/"+tag, "false"),
		allow([]string{"elasticloadbalancing:CreateListener", "elasticloadbalancing:DeleteListener",
			"elasticloadbalancing:CreateRule", "elasticloadbalancing:DeleteRule"}, all),
		allow([]string{"elasticloadbalancing:AddTags", "elasticloadbalancing:RemoveTags"}, ownedLBs).
			When("Null", "aws:RequestTag/"+tag, "true").When("Null", "aws:ResourceTag/"+tag, "false"),
		allow([]string{"elasticloadbalancing:AddTags", "elasticloadbalancing:RemoveTags"},
			elb("listener/net/*/*/*", "listener/app/*/*/*", "listener-rule/net/*/*/*", "listener-rule/app/*/*/*")),
		allow(append([]string{
			"elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:SetIpAddressType",
			"elasticloadbalancing:SetSecurityGroups", "elasticloadbalancing:SetSubnets",
			"elasticloadbalancing:DeleteLoadBalancer", "elasticloadbalancing:ModifyTargetGroup",
			"elasticloadbalancing:ModifyTargetGroupAttributes", "elasticloadbalancing:DeleteTargetGroup",
		}, since("elasticloadbalancing:ModifyListenerAttributes", "elasticloadbalancing:ModifyCapacityReservation",
			"elasticloadbalancing:ModifyIpPools")...), all).
			When("Null", "aws:ResourceTag/"+tag, "false"),
		allow([]string{"elasticloadbalancing:AddTags"}, ownedLBs).
			When("StringEquals", "elasticloadbalancing:CreateAction", []string{"CreateTargetGroup", "CreateLoadBalancer"}).
			When("Null", "aws:RequestTag/"+tag, "false"),
		allow([]string{"elasticloadbalancing:RegisterTargets", "elasticloadbalancing:DeregisterTargets"},
			elb("targetgroup/*/*")),
		allow(append([]string{"elasticloadbalancing:SetWebAcl", "elasticloadbalancing:ModifyListener",
			"elasticloadbalancing:AddListenerCertificates", "elasticloadbalancing:RemoveListenerCertificates",
			"elasticloadbalancing:ModifyRule"}, since("elasticloadbalancing:SetRulePriorities")...), all),
	)
}
