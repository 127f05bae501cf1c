package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// emrContainersControllerPolicies are the ACK EMR on EKS controller's: one document from v0.0.8 to v1.4.1.
var emrContainersControllerPolicies = []Policy{{Versions: ">=0.0.8 <=1.4.1", Inline: emrContainersControllerPolicy,
	Source: "aws-controllers-k8s/emrcontainers-controller config/iam/recommended-inline-policy at v1.0.7"}}

// prometheusServiceControllerPolicies are the ACK Managed Prometheus controller's: one document from v1.2.4 to
// v1.4.3.
var prometheusServiceControllerPolicies = []Policy{{Versions: ">=1.2.4 <=1.4.3", Inline: prometheusServiceControllerPolicy,
	Source: "aws-controllers-k8s/prometheusservice-controller config/iam/recommended-inline-policy at v1.2.8"}}

// emrContainersControllerPolicy is the ACK EMR on EKS controller's recommended inline policy
// (aws-controllers-k8s/emrcontainers-controller config/iam/recommended-inline-policy, as terraform-aws-eks-ack-addons
// a67416f carries it).
func emrContainersControllerPolicy(PolicyContext) iampolicy.Document {
	all := []string{"*"}
	return iampolicy.New(
		iampolicy.Allow("", []string{"iam:CreateServiceLinkedRole"}, all).
			When("StringLike", "iam:AWSServiceName", []string{"emr-containers.amazonaws.com"}),
		iampolicy.Allow("", []string{"emr-containers:CreateVirtualCluster", "emr-containers:ListVirtualClusters",
			"emr-containers:DescribeVirtualCluster", "emr-containers:DeleteVirtualCluster"}, all),
		iampolicy.Allow("", []string{"emr-containers:StartJobRun", "emr-containers:ListJobRuns",
			"emr-containers:DescribeJobRun", "emr-containers:CancelJobRun"}, all),
		iampolicy.Allow("", []string{"emr-containers:DescribeJobRun", "emr-containers:TagResource",
			"elasticmapreduce:CreatePersistentAppUI", "elasticmapreduce:DescribePersistentAppUI",
			"elasticmapreduce:GetPersistentAppUIPresignedURL"}, all),
		iampolicy.Allow("", []string{"s3:GetObject", "s3:ListBucket"}, all),
		iampolicy.Allow("", []string{"logs:Get*", "logs:DescribeLogGroups", "logs:DescribeLogStreams"}, all),
	)
}

// prometheusServiceControllerPolicy is the ACK Amazon Managed Service for Prometheus controller's recommended
// inline policy (aws-controllers-k8s/prometheusservice-controller config/iam/recommended-inline-policy).
func prometheusServiceControllerPolicy(PolicyContext) iampolicy.Document {
	return iampolicy.New(iampolicy.Allow("", []string{"aps:*", "logs:CreateLogDelivery", "logs:DescribeLogGroups",
		"logs:DescribeResourcePolicies", "logs:PutResourcePolicy"}, []string{"*"}))
}
