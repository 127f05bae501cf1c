package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// fluentBitPolicies are aws-for-fluent-bit's, as terraform-aws-eks-blueprints-addons writes it for the
// versions it installed since the policy last changed (charts 0.1.28 to 0.1.32, application 2.31.x).
var fluentBitPolicies = []Policy{{Versions: ">=2.31.11 <2.32.0", Inline: fluentBitPolicy,
	Source: "aws-ia/terraform-aws-eks-blueprints-addons main.tf (aws_for_fluentbit) at d78fb74, scoped to its own log group"}}

// fluentBitPolicy follows terraform-aws-eks-blueprints-addons' aws_for_fluentbit policy, scoped to the
// add-on's own log group and the groups below it (the template's logGroupTemplate writes workload logs to
// <group>/workload/<namespace>), never the control plane's /aws/eks/<cluster>/cluster.
func fluentBitPolicy(c PolicyContext) iampolicy.Document {
	group := c.regional("logs", "log-group:"+c.LogGroupName)
	below := c.regional("logs", "log-group:"+c.LogGroupName+"/*")
	return iampolicy.New(
		iampolicy.Allow("PutLogEvents", []string{"logs:PutLogEvents"}, []string{group + ":log-stream:*", below + ":log-stream:*"}),
		iampolicy.Allow("CreateCWLogs", []string{"logs:CreateLogGroup", "logs:CreateLogStream", "logs:DescribeLogGroups",
			"logs:DescribeLogStreams", "logs:PutRetentionPolicy"}, []string{group + ":*", below + ":*"}),
	)
}
