package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// clusterAutoscalerPolicies are cluster-autoscaler's: its AWS README's "Full Cluster Autoscaler Features
// Policy (Recommended)", the same from 1.26.0 to 1.29.x (Helm chart 9.35.0 installs 1.29.0).
var clusterAutoscalerPolicies = []Policy{{Versions: ">=1.26.0 <1.30.0", Inline: clusterAutoscalerPolicy,
	Source: "kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/README.md at cluster-autoscaler-1.29.0, " +
		"scaling only this cluster's groups"}}

// clusterAutoscalerPolicy follows cluster-autoscaler's AWS README: reads everywhere, and scaling only of
// Auto Scaling groups tagged k8s.io/cluster-autoscaler/<cluster>: owned, the tag EKS puts on every managed
// node group's group (the README's statement, with that condition added).
func clusterAutoscalerPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("Describe", []string{"autoscaling:DescribeAutoScalingGroups", "autoscaling:DescribeAutoScalingInstances",
			"autoscaling:DescribeLaunchConfigurations", "autoscaling:DescribeScalingActivities", "autoscaling:DescribeTags",
			"ec2:DescribeInstanceTypes", "ec2:DescribeLaunchTemplateVersions"}, []string{"*"}),
		iampolicy.Allow("ScaleOwnGroups", []string{"autoscaling:SetDesiredCapacity",
			"autoscaling:TerminateInstanceInAutoScalingGroup", "ec2:DescribeImages",
			"ec2:GetInstanceTypesFromInstanceRequirements", "eks:DescribeNodegroup"}, []string{"*"}).
			When("StringEquals", "aws:ResourceTag/k8s.io/cluster-autoscaler/"+c.ClusterName, "owned"),
	)
}

// nodeTerminationHandlerPolicies are aws-node-termination-handler's, as terraform-aws-eks-blueprints-addons
// writes it for the version it installs (chart 0.21.0, application 1.19.0, since 2023-04).
var nodeTerminationHandlerPolicies = []Policy{{Versions: ">=1.19.0 <1.20.0", Inline: nodeTerminationHandlerPolicy,
	Source: "aws-ia/terraform-aws-eks-blueprints-addons main.tf (aws_node_termination_handler) at d78fb74"}}

// nodeTerminationHandlerPolicy follows terraform-aws-eks-blueprints-addons' aws_node_termination_handler
// policy (queue processing mode): reads, completing lifecycle actions of this cluster's managed node groups'
// Auto Scaling groups (tagged eks:cluster-name by EKS), and its own queue.
func nodeTerminationHandlerPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("Describe", []string{"autoscaling:DescribeAutoScalingInstances", "autoscaling:DescribeTags",
			"ec2:DescribeInstances"}, []string{"*"}),
		iampolicy.Allow("CompleteLifecycleActions", []string{"autoscaling:CompleteLifecycleAction"},
			[]string{c.regional("autoscaling", "autoScalingGroup:*:autoScalingGroupName/*")}).
			When("StringEquals", "aws:ResourceTag/eks:cluster-name", c.ClusterName),
		iampolicy.Allow("ConsumeQueue", []string{"sqs:DeleteMessage", "sqs:ReceiveMessage"}, []string{c.QueueArn}),
	)
}

// Event is an EventBridge rule that feeds an interruption queue.
type Event struct {
	// Name distinguishes the rule within the add-on.
	Name string
	// Source and DetailType are the event pattern.
	Source, DetailType string
}

// InterruptionEvents are the EventBridge rules of an add-on's interruption queue: Karpenter v1.14's
// cloudformation.yaml rules, and the Node Termination Handler's of terraform-aws-eks-blueprints-addons.
func InterruptionEvents(addon string) []Event {
	ec2 := []Event{
		{"health", "aws.health", "AWS Health Event"},
		{"spot-interruption", "aws.ec2", "EC2 Spot Instance Interruption Warning"},
		{"rebalance", "aws.ec2", "EC2 Instance Rebalance Recommendation"},
		{"state-change", "aws.ec2", "EC2 Instance State-change Notification"},
	}
	switch addon {
	case "karpenter":
		return append(ec2, Event{"capacity-reservation", "aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"})
	case "aws_node_termination_handler":
		return append([]Event{{"asg-terminate", "aws.autoscaling", "EC2 Instance-terminate Lifecycle Action"}}, ec2...)
	}
	return nil
}
