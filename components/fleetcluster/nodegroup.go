package fleetcluster

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-eks/sdk/v2/go/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// NodeManagedPolicies are the AWS managed policies of the node role: what the kubelet, the VPC CNI and image
// pulls from ECR need (Amazon EKS User Guide, create-node-role). Image pulls take
// AmazonEC2ContainerRegistryPullOnly, which the EKS User Guide and Karpenter v1.8 on give nodes in place of
// ...ReadOnly: pulling needs no listing or describing of repositories.
var NodeManagedPolicies = []string{
	"AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryPullOnly",
}

// SessionManagerPolicy is the AWS managed policy that lets AWS Systems Manager manage an instance, Session
// Manager's shells included (AWS Systems Manager User Guide, setup-instance-permissions): the node role gets it
// with nodeSessionManager only.
const SessionManagerPolicy = "AmazonSSMManagedInstanceCore"

// nodePolicies are the managed policies of the cluster's node role: NodeManagedPolicies, and SessionManagerPolicy
// with nodeSessionManager.
func (a FleetClusterArgs) nodePolicies() []string {
	if a.NodeSessionManager {
		return append(slices.Clone(NodeManagedPolicies), SessionManagerPolicy)
	}
	return NodeManagedPolicies
}

// nodeRole builds the IAM role of every managed node group of the cluster.
func (b *builder) nodeRole() (*iam.Role, error) {
	name := roleName(b.args.ClusterName, b.args.Region, nodeRolePurpose)
	role, err := iam.NewRole(b.ctx, childName(b.name, "node-role"), &iam.RoleArgs{
		Name:             pulumi.String(name),
		Description:      pulumi.Sprintf("Nodes of EKS cluster %s", b.args.ClusterName),
		AssumeRolePolicy: pulumi.String(NodeTrustPolicy().JSON()),
		Tags:             b.tags(name),
	}, b.resource()...)
	if err != nil {
		return nil, err
	}
	for _, p := range b.args.nodePolicies() {
		if err := b.attachManagedPolicy(childName(b.name, "node-role-"+p), role, p); err != nil {
			return nil, err
		}
	}
	return role, nil
}

// attachManagedPolicy attaches the AWS managed policy arn:<partition>:iam::aws:policy/<policy> to role.
func (b *builder) attachManagedPolicy(resourceName string, role *iam.Role, policy string) error {
	_, err := iam.NewRolePolicyAttachment(b.ctx, resourceName, &iam.RolePolicyAttachmentArgs{
		Role:      role.Name,
		PolicyArn: pulumi.Sprintf("arn:%s:iam::aws:policy/%s", b.partition, policy),
	}, b.resource()...)
	return err
}

// RootDeviceName is the block device a node's containers live on: Bottlerocket keeps them on its data
// volume /dev/xvdb, Amazon Linux on the root volume /dev/xvda.
func RootDeviceName(amiType string) string {
	if strings.HasPrefix(amiType, "BOTTLEROCKET") {
		return "/dev/xvdb"
	}
	return "/dev/xvda"
}

// nodeGroup builds a launch template (IMDSv2 required, encrypted gp3 volume of the group's disk size) and
// the EKS managed node group in the private subnets, at the cluster's Kubernetes version, after the node
// agents. A version change rolls its nodes, at most maxUnavailablePercentage of them at a time.
func (b *builder) nodeGroup(cl *eks.Cluster, net network, nodeRole *iam.Role, ng NodeGroup,
	agents []pulumi.Resource,
) (*awseks.NodeGroup, error) {
	lt, err := ec2.NewLaunchTemplate(b.ctx, childName(b.name, "ng-"+ng.Name), &ec2.LaunchTemplateArgs{
		Description: pulumi.Sprintf("Node group %s of EKS cluster %s", ng.Name, b.args.ClusterName),
		MetadataOptions: &ec2.LaunchTemplateMetadataOptionsArgs{
			HttpEndpoint: pulumi.String("enabled"),
			HttpTokens:   pulumi.String("required"),
			// One hop: only the node itself reaches IMDS, so pods cannot take the node role's credentials
			// (EKS best practices, "Restrict access to the instance profile assigned to the worker node").
			// Add-ons get their region and VPC from the GitOps Bridge metadata (aws_region, aws_vpc_id) and
			// their credentials from IRSA.
			HttpPutResponseHopLimit: pulumi.Int(1),
		},
		BlockDeviceMappings: ec2.LaunchTemplateBlockDeviceMappingArray{&ec2.LaunchTemplateBlockDeviceMappingArgs{
			DeviceName: pulumi.String(RootDeviceName(ng.AmiType)),
			Ebs: &ec2.LaunchTemplateBlockDeviceMappingEbsArgs{
				VolumeSize:          pulumi.Int(ng.DiskSize),
				VolumeType:          pulumi.String("gp3"),
				Encrypted:           pulumi.String("true"),
				DeleteOnTermination: pulumi.String("true"),
			},
		}},
		Tags: b.tags(b.args.ClusterName + "-" + ng.Name),
	}, b.resource()...)
	if err != nil {
		return nil, err
	}
	taints := awseks.NodeGroupTaintArray{}
	for _, t := range ng.Taints {
		taints = append(taints, awseks.NodeGroupTaintArgs{
			Key: pulumi.String(t.Key), Value: pulumi.String(t.Value), Effect: pulumi.String(t.Effect),
		})
	}
	name := childName(b.name, "ng-"+ng.Name)
	return awseks.NewNodeGroup(b.ctx, name, &awseks.NodeGroupArgs{
		ClusterName:   cl.EksCluster.Name(),
		NodeGroupName: pulumi.String(ng.Name),
		NodeRoleArn:   nodeRole.Arn,
		SubnetIds:     net.privateSubnets,
		Version:       pulumi.String(b.args.Version),
		InstanceTypes: pulumi.ToStringArray(ng.InstanceTypes),
		CapacityType:  pulumi.String(ng.CapacityType),
		AmiType:       pulumi.String(ng.AmiType),
		ScalingConfig: &awseks.NodeGroupScalingConfigArgs{
			MinSize: pulumi.Int(ng.MinSize), DesiredSize: pulumi.Int(ng.DesiredSize), MaxSize: pulumi.Int(ng.MaxSize),
		},
		UpdateConfig: &awseks.NodeGroupUpdateConfigArgs{
			MaxUnavailablePercentage: pulumi.Int(ng.MaxUnavailablePercentage),
		},
		LaunchTemplate: &awseks.NodeGroupLaunchTemplateArgs{
			Id:      lt.ID(),
			Version: lt.LatestVersion.ApplyT(func(v int) string { return strconv.Itoa(v) }).(pulumi.StringOutput),
		},
		Labels: pulumi.ToStringMap(ng.Labels),
		Taints: taints,
		Tags:   b.tags(b.args.ClusterName + "-" + ng.Name),
	}, b.resource(
		// Node groups join through the cluster's aws-auth entry and access entries, which pulumi-eks writes.
		pulumi.DependsOn(append([]pulumi.Resource{cl}, agents...)),
		// Earlier versions registered the group through pulumi-eks's ManagedNodeGroup component.
		pulumi.Aliases([]pulumi.Alias{{ParentURN: managedNodeGroupURN(b.comp.URN(), name)}}),
	)...)
}

// managedNodeGroupURN is the URN of the pulumi-eks ManagedNodeGroup component named name under parent.
func managedNodeGroupURN(parent pulumi.URNOutput, name string) pulumi.URNOutput {
	return parent.ApplyT(func(u pulumi.URN) pulumi.URN {
		s := string(u)
		i := strings.LastIndex(s, "::")
		return pulumi.URN(s[:i] + "$eks:index:ManagedNodeGroup::" + name)
	}).(pulumi.URNOutput)
}
