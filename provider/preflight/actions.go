package preflight

import (
	"fmt"
	"slices"
	"strings"
)

// Actions are the IAM actions a resource type's steps call, as the AWS provider makes them: the create, read back,
// tag, update and delete calls of pulumi-aws 6.83.4 (the Terraform AWS provider's resource of the same name), named as
// the Service Authorization Reference names them. Read calls made on every step are listed with Create. tests/iamlint
// runs every action through parliament's catalogue of IAM actions, so a misspelt or retired one fails.
type Actions struct {
	Create, Update, Delete []string
	// ARN is the ARN of the step's resource when its inputs name it at preview (a role's name and path, a cluster's
	// name), for the simulation of an action the deployer is not allowed on every resource; nil or "" when not known.
	ARN func(s Step, partition, account string) string
	// PassesRoles: its create passes a role of the plan to an AWS service (iam:PassRole), simulated on the roles the
	// plan names.
	PassesRoles bool
}

// tagging are EC2's tag calls, made on every EC2 resource's create (tag specifications) and update.
var tagging = []string{"ec2:CreateTags", "ec2:DeleteTags"}

// ActionsOf is the table of the AWS resource types the fleet's components create, by Pulumi type token. The fleet's
// own resources that call AWS are listed under their fleet: tokens; component resources (awsx:ec2:Vpc,
// eks:index:Cluster, fleet:index:FleetCluster) call AWS only through their children, except where listed.
var ActionsOf = map[string]Actions{
	// The VPC (awsx:ec2:Vpc) reads the region's Availability Zones before it plans its subnets.
	"awsx:ec2:Vpc": {Create: []string{"ec2:DescribeAvailabilityZones"}},
	"aws:ec2/vpc:Vpc": {Create: append([]string{"ec2:CreateVpc", "ec2:DescribeVpcs", "ec2:DescribeVpcAttribute",
		"ec2:ModifyVpcAttribute", "ec2:DescribeRouteTables", "ec2:DescribeSecurityGroups", "ec2:DescribeNetworkAcls"}, tagging...),
		Update: append([]string{"ec2:ModifyVpcAttribute"}, tagging...), Delete: []string{"ec2:DeleteVpc"}},
	"aws:ec2/subnet:Subnet": {Create: append([]string{"ec2:CreateSubnet", "ec2:DescribeSubnets", "ec2:ModifySubnetAttribute"}, tagging...),
		Update: append([]string{"ec2:ModifySubnetAttribute"}, tagging...), Delete: []string{"ec2:DeleteSubnet"}},
	"aws:ec2/internetGateway:InternetGateway": {Create: append([]string{"ec2:CreateInternetGateway",
		"ec2:AttachInternetGateway", "ec2:DescribeInternetGateways"}, tagging...),
		Update: append([]string{"ec2:AttachInternetGateway", "ec2:DetachInternetGateway"}, tagging...),
		Delete: []string{"ec2:DetachInternetGateway", "ec2:DeleteInternetGateway"}},
	"aws:ec2/eip:Eip": {Create: append([]string{"ec2:AllocateAddress", "ec2:DescribeAddresses"}, tagging...),
		Update: tagging, Delete: []string{"ec2:DisassociateAddress", "ec2:ReleaseAddress"}},
	"aws:ec2/natGateway:NatGateway": {Create: append([]string{"ec2:CreateNatGateway", "ec2:DescribeNatGateways"}, tagging...),
		Update: tagging, Delete: []string{"ec2:DeleteNatGateway"}},
	"aws:ec2/routeTable:RouteTable": {Create: append([]string{"ec2:CreateRouteTable", "ec2:DescribeRouteTables"}, tagging...),
		Update: tagging, Delete: []string{"ec2:DeleteRouteTable"}},
	"aws:ec2/route:Route": {Create: []string{"ec2:CreateRoute", "ec2:DescribeRouteTables"},
		Update: []string{"ec2:ReplaceRoute"}, Delete: []string{"ec2:DeleteRoute"}},
	"aws:ec2/routeTableAssociation:RouteTableAssociation": {Create: []string{"ec2:AssociateRouteTable", "ec2:DescribeRouteTables"},
		Update: []string{"ec2:ReplaceRouteTableAssociation"}, Delete: []string{"ec2:DisassociateRouteTable"}},
	// A security group's create removes the default egress rule before it adds its own.
	"aws:ec2/securityGroup:SecurityGroup": {Create: append([]string{"ec2:CreateSecurityGroup", "ec2:DescribeSecurityGroups",
		"ec2:AuthorizeSecurityGroupEgress", "ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupEgress"}, tagging...),
		Update: append([]string{"ec2:AuthorizeSecurityGroupEgress", "ec2:AuthorizeSecurityGroupIngress",
			"ec2:RevokeSecurityGroupEgress", "ec2:RevokeSecurityGroupIngress"}, tagging...),
		Delete: []string{"ec2:DeleteSecurityGroup"}},
	"aws:ec2/securityGroupRule:SecurityGroupRule": {Create: []string{"ec2:AuthorizeSecurityGroupIngress",
		"ec2:AuthorizeSecurityGroupEgress", "ec2:DescribeSecurityGroups", "ec2:DescribeSecurityGroupRules"},
		Update: []string{"ec2:UpdateSecurityGroupRuleDescriptionsIngress", "ec2:UpdateSecurityGroupRuleDescriptionsEgress"},
		Delete: []string{"ec2:RevokeSecurityGroupIngress", "ec2:RevokeSecurityGroupEgress"}},
	"aws:ec2/launchTemplate:LaunchTemplate": {Create: append([]string{"ec2:CreateLaunchTemplate",
		"ec2:DescribeLaunchTemplates", "ec2:DescribeLaunchTemplateVersions"}, tagging...),
		Update: append([]string{"ec2:CreateLaunchTemplateVersion", "ec2:ModifyLaunchTemplate"}, tagging...),
		Delete: []string{"ec2:DeleteLaunchTemplate"}},

	// EKS creates its service-linked role with the first cluster of an account, as the deployer (EKS User Guide,
	// "Using roles for Amazon EKS clusters"); a cluster's Secrets are encrypted with the plan's KMS key, which needs
	// the key's grant (EKS User Guide, "Encrypt Kubernetes secrets with KMS on existing clusters").
	"aws:eks/cluster:Cluster": {Create: []string{"eks:CreateCluster", "eks:DescribeCluster", "eks:TagResource",
		"eks:DescribeUpdate", "iam:CreateServiceLinkedRole", "kms:DescribeKey", "kms:CreateGrant"},
		Update: []string{"eks:UpdateClusterConfig", "eks:UpdateClusterVersion", "eks:DescribeUpdate", "eks:TagResource",
			"eks:UntagResource"},
		Delete: []string{"eks:DeleteCluster"}, PassesRoles: true,
		ARN: func(s Step, partition, account string) string {
			return arn(partition, "eks", s.Region, account, "cluster/", s.Input("name"))
		}},
	"aws:eks/nodeGroup:NodeGroup": {Create: []string{"eks:CreateNodegroup", "eks:DescribeNodegroup", "eks:TagResource",
		"ec2:DescribeSubnets", "ec2:DescribeLaunchTemplateVersions"},
		Update: []string{"eks:UpdateNodegroupConfig", "eks:UpdateNodegroupVersion", "eks:DescribeUpdate"},
		Delete: []string{"eks:DeleteNodegroup"}, PassesRoles: true},
	"aws:eks/addon:Addon": {Create: []string{"eks:CreateAddon", "eks:DescribeAddon", "eks:DescribeAddonVersions", "eks:TagResource"},
		Update: []string{"eks:UpdateAddon", "eks:DescribeUpdate"}, Delete: []string{"eks:DeleteAddon"}},
	"aws:eks/accessEntry:AccessEntry": {Create: []string{"eks:CreateAccessEntry", "eks:DescribeAccessEntry", "eks:TagResource"},
		Update: []string{"eks:UpdateAccessEntry"}, Delete: []string{"eks:DeleteAccessEntry"}},
	"aws:eks/accessPolicyAssociation:AccessPolicyAssociation": {Create: []string{"eks:AssociateAccessPolicy",
		"eks:ListAssociatedAccessPolicies"}, Update: []string{"eks:AssociateAccessPolicy"},
		Delete: []string{"eks:DisassociateAccessPolicy"}},
	"aws:eks/podIdentityAssociation:PodIdentityAssociation": {Create: []string{"eks:CreatePodIdentityAssociation",
		"eks:DescribePodIdentityAssociation", "eks:TagResource"}, Update: []string{"eks:UpdatePodIdentityAssociation"},
		Delete: []string{"eks:DeletePodIdentityAssociation"}, PassesRoles: true},
	// The managed hub's Argo CD (components/capability) and the drain a cluster's delete runs first
	// (components/drain: the Tagging API finds what the cluster's controllers made).
	"fleet:index:ArgoCDCapability": {Create: []string{"eks:CreateCapability", "eks:DescribeCapability", "eks:TagResource"},
		Update: []string{"eks:UpdateCapability", "eks:DescribeUpdate"}, Delete: []string{"eks:DeleteCapability"},
		PassesRoles: true},
	"fleet:index:ClusterDrain": {Delete: []string{"tag:GetResources", "eks:DescribeCluster"}},

	"aws:iam/role:Role": {Create: []string{"iam:CreateRole", "iam:GetRole", "iam:TagRole", "iam:ListRolePolicies",
		"iam:ListAttachedRolePolicies"},
		Update: []string{"iam:UpdateAssumeRolePolicy", "iam:UpdateRole", "iam:TagRole", "iam:UntagRole"},
		Delete: []string{"iam:DeleteRole", "iam:ListInstanceProfilesForRole"},
		ARN: func(s Step, partition, account string) string {
			path := s.Input("path")
			if path == "" {
				path = "/"
			}
			return arn(partition, "iam", "", account, "role"+path, s.Input("name"))
		}},
	"aws:iam/rolePolicy:RolePolicy": {Create: []string{"iam:PutRolePolicy", "iam:GetRolePolicy"},
		Update: []string{"iam:PutRolePolicy"}, Delete: []string{"iam:DeleteRolePolicy"}},
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment": {Create: []string{"iam:AttachRolePolicy", "iam:ListAttachedRolePolicies"},
		Delete: []string{"iam:DetachRolePolicy"}},
	"aws:iam/instanceProfile:InstanceProfile": {Create: []string{"iam:CreateInstanceProfile", "iam:AddRoleToInstanceProfile",
		"iam:GetInstanceProfile", "iam:TagInstanceProfile"},
		Update: []string{"iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile"},
		Delete: []string{"iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"}, PassesRoles: true},
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider": {Create: []string{"iam:CreateOpenIDConnectProvider",
		"iam:GetOpenIDConnectProvider", "iam:TagOpenIDConnectProvider"},
		Update: []string{"iam:UpdateOpenIDConnectProviderThumbprint", "iam:AddClientIDToOpenIDConnectProvider",
			"iam:RemoveClientIDFromOpenIDConnectProvider"},
		Delete: []string{"iam:DeleteOpenIDConnectProvider"}},

	"aws:kms/key:Key": {Create: []string{"kms:CreateKey", "kms:DescribeKey", "kms:GetKeyPolicy", "kms:GetKeyRotationStatus",
		"kms:EnableKeyRotation", "kms:ListResourceTags", "kms:TagResource"},
		Update: []string{"kms:PutKeyPolicy", "kms:EnableKeyRotation", "kms:UpdateKeyDescription", "kms:TagResource",
			"kms:UntagResource"},
		Delete: []string{"kms:ScheduleKeyDeletion"}},
	"aws:kms/keyPolicy:KeyPolicy": {Create: []string{"kms:PutKeyPolicy", "kms:GetKeyPolicy"},
		Update: []string{"kms:PutKeyPolicy"}, Delete: []string{"kms:PutKeyPolicy"}},

	"aws:sqs/queue:Queue": {Create: []string{"sqs:CreateQueue", "sqs:GetQueueAttributes", "sqs:TagQueue", "sqs:ListQueueTags"},
		Update: []string{"sqs:SetQueueAttributes", "sqs:TagQueue", "sqs:UntagQueue"}, Delete: []string{"sqs:DeleteQueue"},
		ARN: func(s Step, partition, account string) string {
			return arn(partition, "sqs", s.Region, account, "", s.Input("name"))
		}},
	"aws:sqs/queuePolicy:QueuePolicy": {Create: []string{"sqs:SetQueueAttributes", "sqs:GetQueueAttributes"},
		Update: []string{"sqs:SetQueueAttributes"}, Delete: []string{"sqs:SetQueueAttributes"}},
	"aws:cloudwatch/eventRule:EventRule": {Create: []string{"events:PutRule", "events:DescribeRule", "events:TagResource",
		"events:ListTagsForResource"}, Update: []string{"events:PutRule", "events:TagResource", "events:UntagResource"},
		Delete: []string{"events:DeleteRule"}},
	"aws:cloudwatch/eventTarget:EventTarget": {Create: []string{"events:PutTargets", "events:ListTargetsByRule"},
		Update: []string{"events:PutTargets"}, Delete: []string{"events:RemoveTargets"}},
	"aws:cloudwatch/logGroup:LogGroup": {Create: []string{"logs:CreateLogGroup", "logs:PutRetentionPolicy",
		"logs:DescribeLogGroups", "logs:TagResource", "logs:ListTagsForResource"},
		Update: []string{"logs:PutRetentionPolicy", "logs:DeleteRetentionPolicy", "logs:TagResource", "logs:UntagResource"},
		Delete: []string{"logs:DeleteLogGroup"},
		ARN: func(s Step, partition, account string) string {
			return arn(partition, "logs", s.Region, account, "log-group:", s.Input("name"))
		}},

	"aws:s3/bucketV2:BucketV2": {Create: []string{"s3:CreateBucket", "s3:ListBucket", "s3:PutBucketTagging", "s3:GetBucketTagging"},
		Update: []string{"s3:PutBucketTagging"}, Delete: []string{"s3:DeleteBucket"},
		ARN: func(s Step, partition, _ string) string { return arn(partition, "s3", "", "", "", s.Input("bucket")) }},
	"aws:s3/bucketOwnershipControls:BucketOwnershipControls": {Create: []string{"s3:PutBucketOwnershipControls",
		"s3:GetBucketOwnershipControls"}, Update: []string{"s3:PutBucketOwnershipControls"},
		Delete: []string{"s3:PutBucketOwnershipControls"}},
	"aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock": {Create: []string{"s3:PutBucketPublicAccessBlock",
		"s3:GetBucketPublicAccessBlock"}, Update: []string{"s3:PutBucketPublicAccessBlock"},
		Delete: []string{"s3:PutBucketPublicAccessBlock"}},
	"aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2": {
		Create: []string{"s3:PutEncryptionConfiguration", "s3:GetEncryptionConfiguration"},
		Update: []string{"s3:PutEncryptionConfiguration"}, Delete: []string{"s3:PutEncryptionConfiguration"}},
	"aws:s3/bucketVersioningV2:BucketVersioningV2": {Create: []string{"s3:PutBucketVersioning", "s3:GetBucketVersioning"},
		Update: []string{"s3:PutBucketVersioning"}, Delete: []string{"s3:PutBucketVersioning"}},
}

// arn is arn:<partition>:<service>:<region>:<account>:<prefix><name>; "" when name is not known.
func arn(partition, service, region, account, prefix, name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s%s", partition, service, region, account, prefix, name)
}

// of is the actions of step s; ok is false for an AWS resource type the table does not list.
func of(s Step) (list []string, row Actions, ok bool) {
	row, ok = ActionsOf[s.Type]
	switch s.Op {
	case Create:
		list = row.Create
	case Update:
		list = row.Update
	case Delete:
		list = row.Delete
	}
	return list, row, ok || !strings.HasPrefix(s.Type, "aws:")
}

// Needed are the actions the plan calls, sorted, with the steps that call each; unlisted are the AWS resource types
// the table does not know, whose actions are not checked.
func (p Plan) Needed() (needed map[string][]Step, unlisted []string) {
	needed = map[string][]Step{}
	for _, s := range p {
		list, row, ok := of(s)
		if !ok {
			if !slices.Contains(unlisted, s.Type) {
				unlisted = append(unlisted, s.Type)
			}
			continue
		}
		for _, a := range list {
			needed[a] = append(needed[a], s)
		}
		if row.PassesRoles && s.Op == Create {
			needed[passRole] = append(needed[passRole], s)
		}
	}
	slices.Sort(unlisted)
	return needed, unlisted
}

// passRole is the action that hands a role to an AWS service (EKS, EC2).
const passRole = "iam:PassRole"
