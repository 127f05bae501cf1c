package awsnames

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

var (
	// ClusterNamePattern is EKS CreateCluster's cluster name: [0-9A-Za-z][A-Za-z0-9\-_]*, at most MaxClusterName.
	ClusterNamePattern = regexp.MustCompile(`^[0-9A-Za-z][A-Za-z0-9_-]*$`)
	// RegionPattern is an AWS region name: a two-letter area, one or more words, a number ("us-east-1",
	// "us-gov-west-1").
	RegionPattern = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d{1,2}$`)
	// RoleARNPattern is an IAM role's ARN; names take letters, digits and +=,.@_- (IAM CreateRole), paths are
	// "/" or "/.../".
	RoleARNPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)*:iam::\d{12}:role/([\w+=,.@-]+/)*[\w+=,.@-]{1,64}$`)
	// AccessPolicyARNPattern is an EKS access policy's ARN (EKS ListAccessPolicies; the policies are AWS's, in no
	// account).
	AccessPolicyARNPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)*:eks::aws:cluster-access-policy/[A-Za-z0-9]+$`)
)

// AccessPolicyARNForm is AccessPolicyARNPattern as errors show it.
const AccessPolicyARNForm = "arn:<partition>:eks::aws:cluster-access-policy/<PolicyName>"

// RoleARNForm is RoleARNPattern as errors show it.
const RoleARNForm = "arn:<partition>:iam::<12-digit account>:role/<path><name>"

// AWS tagging's limits, for every resource that takes tags.
const (
	MaxClusterName = 100 // EKS CreateCluster API
	MaxTags        = 50  // tags per resource
	MaxTagKey      = 128 // characters
	MaxTagValue    = 256 // characters
)

// Tags adds a problem at field for each rule of AWS tagging tags break: at most MaxTags, keys of 1 to
// MaxTagKey characters not starting with "aws:" (reserved for AWS), values of at most MaxTagValue characters.
func Tags(ps *problems.List, field string, tags map[string]string) {
	if len(tags) > MaxTags {
		ps.Add(field, "has %d tags; AWS allows at most %d per resource", len(tags), MaxTags)
	}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		switch {
		case k == "" || len(k) > MaxTagKey:
			ps.Add(problems.Key(field, k), "key must be 1-%d characters (AWS tagging)", MaxTagKey)
		case strings.HasPrefix(strings.ToLower(k), "aws:"):
			ps.Add(problems.Key(field, k), "keys starting with aws: are reserved for AWS")
		}
		if len(tags[k]) > MaxTagValue {
			ps.Add(problems.Key(field, k), "value is %d characters; AWS allows at most %d", len(tags[k]), MaxTagValue)
		}
	}
}

// PartitionOf is the AWS partition of a region: aws-us-gov for us-gov-*, aws-cn for cn-*, else aws.
func PartitionOf(region string) string {
	switch {
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	}
	return "aws"
}

// ClusterARN is the ARN of an EKS cluster: arn:<partition>:eks:<region>:<account>:cluster/<name>.
func ClusterARN(region, account, name string) string {
	return "arn:" + PartitionOf(region) + ":eks:" + region + ":" + account + ":cluster/" + name
}
