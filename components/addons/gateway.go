package addons

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// gatewayAPIControllerPolicies are the AWS Gateway API Controller's recommended inline policies (VPC Lattice):
// v1.0.4's examples/recommended-inline-policy.json (the same from v1.0.3 to v1.1.6; Helm chart v1.0.4) and
// files/controller-installation/recommended-inline-policy.json at commit 9753815 (the same at v1.1.7 to v2.0.1),
// which adds tag:TagResources and tag:UntagResources. With PolicyContext.NarrowAccessLogs either is narrowed
// (gatewayAccessLogStatements).
var gatewayAPIControllerPolicies = []Policy{
	{Versions: ">=1.0.3 <1.1.7", Inline: func(c PolicyContext) iampolicy.Document { return gatewayAPIControllerPolicy(c, false) },
		Source: "aws/aws-application-networking-k8s examples/recommended-inline-policy.json at v1.0.4"},
	{Versions: ">=1.1.7 <2.0.2", Inline: func(c PolicyContext) iampolicy.Document { return gatewayAPIControllerPolicy(c, true) },
		Source: "aws/aws-application-networking-k8s files/controller-installation/recommended-inline-policy.json at 9753815"},
}

// gatewayAccessLogActions are upstream's actions that set up access logs to a destination of any kind: a bucket's
// policy and the account's CloudWatch Logs resource policy (which VPC Lattice's log delivery writes to admit
// itself), and a Firehose stream's tag.
var gatewayAccessLogActions = []string{"logs:PutResourcePolicy", "logs:DescribeResourcePolicies",
	"firehose:TagDeliveryStream", "s3:GetBucketPolicy", "s3:PutBucketPolicy"}

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
	statements := []iampolicy.Statement{iampolicy.Allow("", actions, []string{"*"})}
	if c.NarrowAccessLogs {
		statements = gatewayAccessLogStatements(c, actions)
	}
	return iampolicy.New(append(statements,
		slr("vpc-lattice.amazonaws.com", "AWSServiceRoleForVpcLattice"),
		slr("delivery.logs.amazonaws.com", "AWSServiceRoleForLogDelivery"))...)
}

// gatewayAccessLogStatements is the fleet's narrowed form of the Gateway API controller's statement of actions on
// every resource (upstream): the same actions but gatewayAccessLogActions, which it grants on c's
// AccessLogDestinations only, as CloudWatch Logs' guide to vended logs ("Logs sent to Amazon S3", "to CloudWatch
// Logs", "to Firehose") scopes them: s3:GetBucketPolicy and s3:PutBucketPolicy on each destination bucket,
// firehose:TagDeliveryStream on each destination stream, and, with a log group among them, logs:PutResourcePolicy
// and logs:DescribeResourcePolicies on every resource (CloudWatch Logs' resource policy is the account's, and the
// guide grants them on "*"). Without destinations the controller can set up no access log: an AccessLogPolicy
// then fails at VPC Lattice. vpc-lattice:* stays on every resource: the controller creates and deletes the
// account's service networks, services and target groups as Gateways and Routes come and go.
func gatewayAccessLogStatements(c PolicyContext, actions []string) []iampolicy.Statement {
	var kept, buckets, streams []string
	for _, a := range actions {
		if !slices.Contains(gatewayAccessLogActions, a) {
			kept = append(kept, a)
		}
	}
	logGroups := false
	for _, d := range c.AccessLogDestinations {
		kind, resource, _ := AccessLogDestinationOf(d)
		switch kind {
		case "s3":
			buckets = append(buckets, resource)
		case "firehose":
			streams = append(streams, resource)
		case "logs":
			logGroups = true
		}
	}
	out := []iampolicy.Statement{iampolicy.Allow("", kept, []string{"*"})}
	if len(buckets) > 0 {
		out = append(out, iampolicy.Allow("AccessLogBuckets", []string{"s3:GetBucketPolicy", "s3:PutBucketPolicy"}, buckets))
	}
	if len(streams) > 0 {
		out = append(out, iampolicy.Allow("AccessLogStreams", []string{"firehose:TagDeliveryStream"}, streams))
	}
	if logGroups {
		out = append(out, iampolicy.Allow("AccessLogGroups", []string{"logs:PutResourcePolicy", "logs:DescribeResourcePolicies"}, []string{"*"}))
	}
	return out
}

// accessLogDestinationPattern is an ARN of a destination VPC Lattice delivers access logs to: an S3 bucket
// (arn:<partition>:s3:::<bucket>, optionally /<prefix>), a CloudWatch Logs log group
// (arn:<partition>:logs:<region>:<account>:log-group:<name>, optionally :*) or a Firehose delivery stream
// (arn:<partition>:firehose:<region>:<account>:deliverystream/<name>) (CreateAccessLogSubscription's
// destinationArn).
var accessLogDestinationPattern = regexp.MustCompile(`^arn:(aws[a-z-]*):(?:` +
	`(s3):::([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:/.*)?` + `|` +
	`(logs):[a-z0-9-]+:\d{12}:log-group:[.\-_/#A-Za-z0-9]{1,512}(?::\*)?` + `|` +
	`(firehose):[a-z0-9-]+:\d{12}:deliverystream/[a-zA-Z0-9_.-]{1,64})$`)

// AccessLogDestinationOf is the kind of an access log destination ARN ("s3", "logs" or "firehose") and the
// resource its policy statement names: the bucket's ARN without the prefix, the stream's ARN, or the log group's;
// ok is false for any other string.
func AccessLogDestinationOf(arn string) (kind, resource string, ok bool) {
	m := accessLogDestinationPattern.FindStringSubmatch(arn)
	switch {
	case m == nil:
		return "", "", false
	case m[2] == "s3":
		return "s3", "arn:" + m[1] + ":s3:::" + m[3], true
	case m[4] == "logs":
		return "logs", strings.TrimSuffix(arn, ":*"), true
	}
	return "firehose", arn, true
}
