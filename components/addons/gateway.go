package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// gatewayAPIControllerPolicy is the AWS Gateway API Controller's recommended inline policy (VPC Lattice,
// aws/aws-application-networking-k8s files/controller-installation/recommended-inline-policy.json, commit
// 9753815), with the partition substituted.
func gatewayAPIControllerPolicy(c PolicyContext) iampolicy.Document {
	slr := func(service, role string) iampolicy.Statement {
		return iampolicy.Allow("", []string{"iam:CreateServiceLinkedRole"},
			[]string{c.arn("iam", "", "*", "role/aws-service-role/"+service+"/"+role)}).
			When("StringLike", "iam:AWSServiceName", service)
	}
	return iampolicy.New(
		iampolicy.Allow("", []string{"vpc-lattice:*", "ec2:DescribeVpcs", "ec2:DescribeSubnets", "ec2:DescribeTags",
			"ec2:DescribeSecurityGroups", "logs:CreateLogDelivery", "logs:GetLogDelivery", "logs:DescribeLogGroups",
			"logs:PutResourcePolicy", "logs:DescribeResourcePolicies", "logs:UpdateLogDelivery", "logs:DeleteLogDelivery",
			"logs:ListLogDeliveries", "tag:GetResources", "firehose:TagDeliveryStream", "s3:GetBucketPolicy",
			"s3:PutBucketPolicy", "tag:TagResources", "tag:UntagResources"}, []string{"*"}),
		slr("vpc-lattice.amazonaws.com", "AWSServiceRoleForVpcLattice"),
		slr("delivery.logs.amazonaws.com", "AWSServiceRoleForLogDelivery"),
	)
}
