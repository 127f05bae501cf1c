package gitopsbridge

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// HubRolePath is the IAM path of the Argo CD management roles.
const HubRolePath = "/gitops-fleet/hub/"

// ManagementTrustPolicy lets EKS Pod Identity hand the management role to pods of one cluster: the
// pods.eks.amazonaws.com principal, with sts:TagSession (Pod Identity tags sessions), limited to the cluster
// by aws:SourceAccount and aws:SourceArn.
func ManagementTrustPolicy(accountID, clusterArn string) iampolicy.Document {
	return iampolicy.New(iampolicy.Trust(map[string]string{"Service": "pods.eks.amazonaws.com"},
		"sts:AssumeRole", "sts:TagSession").
		When("StringEquals", "aws:SourceAccount", accountID).
		When("ArnEquals", "aws:SourceArn", clusterArn))
}

// ManagementPolicy lets the management role assume spoke roles, and only those: roles under
// clusterinfo.SpokeRolePath in any account of the partition.
func ManagementPolicy(partition string) iampolicy.Document {
	return iampolicy.New(iampolicy.Allow("AssumeSpokeRoles", []string{"sts:AssumeRole", "sts:TagSession"},
		[]string{fmt.Sprintf("arn:%s:iam::*:role%s*", partition, clusterinfo.SpokeRolePath)}))
}

// managementRole creates the Argo CD management role and binds it with EKS Pod Identity to the service
// accounts in values. It returns the role's ARN and the associations, which Argo CD's pods need at start.
func (b *builder) managementRole(values map[string]any) (pulumi.StringOutput, []pulumi.Resource, error) {
	prov, err := b.awsProvider()
	if err != nil {
		return pulumi.StringOutput{}, nil, err
	}
	opts := b.child(prov)
	f := b.cluster
	partition := aws.GetPartitionOutput(b.ctx, aws.GetPartitionOutputArgs{}, pulumi.Provider(prov)).Partition()
	role, err := iam.NewRole(b.ctx, childName(b.name, "argocd-management"), &iam.RoleArgs{
		Path:        pulumi.String(HubRolePath),
		Description: pulumi.Sprintf("Argo CD on %s: assumes GitOps spoke roles under %s", f.ClusterName, clusterinfo.SpokeRolePath),
		AssumeRolePolicy: pulumi.All(partition, f.Region, f.AccountId, f.ClusterName).ApplyT(func(v []any) string {
			arn := fmt.Sprintf("arn:%s:eks:%s:%s:cluster/%s", v[0], v[1], v[2], v[3])
			return ManagementTrustPolicy(v[2].(string), arn).JSON()
		}).(pulumi.StringOutput),
	}, opts...)
	if err != nil {
		return pulumi.StringOutput{}, nil, err
	}
	_, err = iam.NewRolePolicy(b.ctx, childName(b.name, "argocd-management"), &iam.RolePolicyArgs{
		Role: role.Name,
		Policy: partition.ApplyT(func(p string) string {
			return ManagementPolicy(p).JSON()
		}).(pulumi.StringOutput),
	}, opts...)
	if err != nil {
		return pulumi.StringOutput{}, nil, err
	}
	var assocs []pulumi.Resource
	for _, c := range awsCallers {
		sa := serviceAccountOf(values, c.values)
		a, err := awseks.NewPodIdentityAssociation(b.ctx, childName(b.name, "argocd-"+c.part), &awseks.PodIdentityAssociationArgs{
			ClusterName:    f.ClusterName,
			Namespace:      pulumi.String(b.args.Namespace),
			ServiceAccount: pulumi.String(sa),
			RoleArn:        role.Arn,
		}, opts...)
		if err != nil {
			return pulumi.StringOutput{}, nil, err
		}
		assocs = append(assocs, a)
	}
	return role.Arn, assocs, nil
}

// awsProvider is the aws provider of the hub's region: the explicit one, or one for cluster.region.
func (b *builder) awsProvider() (pulumi.ProviderResource, error) {
	if b.explicit.aws != nil {
		return b.explicit.aws, nil
	}
	return aws.NewProvider(b.ctx, childName(b.name, "aws"), &aws.ProviderArgs{Region: b.cluster.Region},
		pulumi.Parent(b.comp))
}
