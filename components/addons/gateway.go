package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// gatewayAPIControllerPolicies are the AWS Gateway API Controller's recommended inline policies (VPC Lattice):
// v1.0.4's examples/recommended-inline-policy.json (the same from v1.0.3 to v1.1.6; Helm chart v1.0.4) and
// files/controller-installation/recommended-inline-policy.json at commit 9753815 (the same at v1.1.7 to v2.0.1),
// which adds tag:TagResources and tag:UntagResources.
var gatewayAPIControllerPolicies = []Policy{
	{Versions: ">=1.0.3 <1.1.7", Inline: func(c PolicyContext) iampolicy.Document { return gatewayAPIControllerPolicy(c, false) },
		Source: "aws/aws-application-networking-k8s examples/recommended-inline-policy.json at v1.0.4"},
	{Versions: ">=1.1.7 <2.0.2", Inline: func(c PolicyContext) iampolicy.Document { return gatewayAPIControllerPolicy(c, true) },
		Source: "aws/aws-application-networking-k8s files/controller-installation/recommended-inline-policy.json at 9753815"},
}

// gatewayAPIControllerPolicy is one of those documents, with the partition substituted; tagging tells whether
// it is the later one, which may tag and untag resources through the Resource Groups Tagging API.
func gatewayAPIControllerPolicy(c PolicyContext, tagging bool) iampolicy.Document {
	actions := []string{"vpc-lattice:*", "ec2:DescribeVpcs", "ec2:DescribeSubnets", "ec2:DescribeTags",
		"ec2:DescribeSecurityGroups", "logs:CreateLogDelivery", "logs:GetLogDelivery", "logs:DescribeLogGroups",
		"logs:PutResourcePolicy", "logs:DescribeResourcePolicies", "logs:UpdateLogDelivery", "logs:DeleteLogDelivery",
		"logs:ListLogDeliveries", "tag:GetResources", "firehose:TagDeliveryStream", "s3:GetBucketPolicy",
		"s3:PutBucketPolicy"}
	if tagging {
		actions = append(actions, "tag:TagResources", "tag:UntagResources")
	}
	slr := func(service, role string) iampolicy.Statement {
		return iampolicy.Allow("", []string{"iam:CreateServiceLinkedRole"},
			[]string{c.arn("iam", "", "*", "role/aws-service-role/"+service+"/"+role)}).
			When("StringLike", "iam:AWSServiceName", service)
	}
	return iampolicy.New(
		iampolicy.Allow("", actions, []string{"*"}),
		slr("vpc-lattice.amazonaws.com", "AWSServiceRoleForVpcLattice"),
		slr("delivery.logs.amazonaws.com", "AWSServiceRoleForLogDelivery"),
	)
}
