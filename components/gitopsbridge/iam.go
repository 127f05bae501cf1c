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

// ManagementTrustPolicy is the trust policy the Amazon EKS User Guide gives for EKS Pod Identity roles
// (iampolicy.PodIdentityTrust) for this cluster, Argo CD's namespace and the Argo CD components that call AWS,
// as Argo CD's EKS cluster documentation recommends for its management role.
func ManagementTrustPolicy(clusterArn, namespace string, serviceAccounts []string) iampolicy.Document {
	st := iampolicy.PodIdentityTrust(clusterArn, namespace, serviceAccounts)
	st.Sid = "AllowEksAuthToAssumeRoleForPodIdentity"
	return iampolicy.New(st)
}

// ManagementPolicy lets the management role assume spoke roles, and only those: roles under
// clusterinfo.SpokeRolePath, in the fleet's accounts only (aws:ResourceAccount), so a spoke-path role in an
// account outside the fleet is out of reach even if it trusts the hub.
func ManagementPolicy(partition string, accounts []string) iampolicy.Document {
	return iampolicy.New(iampolicy.Allow("AssumeSpokeRoles", []string{"sts:AssumeRole", "sts:TagSession"},
		[]string{fmt.Sprintf("arn:%s:iam::*:role%s*", partition, clusterinfo.SpokeRolePath)}).
		When("StringEquals", "aws:ResourceAccount", accounts))
}

// managementRole creates the Argo CD management role and binds it with EKS Pod Identity to the service
// accounts in values. It returns the role's ARN and the associations, which Argo CD's pods need at start.
func (b *builder) managementRole(values map[string]any) (pulumi.StringOutput, []pulumi.Resource, error) {
	fail := func(err error) (pulumi.StringOutput, []pulumi.Resource, error) {
		return pulumi.StringOutput{}, nil, err
	}
	prov, err := b.awsProvider()
	if err != nil {
		return fail(err)
	}
	opts := b.child(prov)
	f := b.cluster
	partition := aws.GetPartitionOutput(b.ctx, aws.GetPartitionOutputArgs{}, pulumi.Provider(prov)).Partition()
	var accounts []string
	for _, c := range awsCallers(*b.args.Hub) {
		accounts = append(accounts, serviceAccountOf(values, c.values))
	}
	namespace := b.args.Namespace
	role, err := iam.NewRole(b.ctx, childName(b.name, "argocd-management"), &iam.RoleArgs{
		Path:        pulumi.String(HubRolePath),
		Description: pulumi.Sprintf("Argo CD on %s: assumes GitOps spoke roles under %s", f.ClusterName, clusterinfo.SpokeRolePath),
		AssumeRolePolicy: pulumi.All(partition, f.Region, f.AccountId, f.ClusterName).ApplyT(func(v []any) string {
			arn := fmt.Sprintf("arn:%s:eks:%s:%s:cluster/%s", v[0], v[1], v[2], v[3])
			return ManagementTrustPolicy(arn, namespace, accounts).JSON()
		}).(pulumi.StringOutput),
	}, opts...)
	if err != nil {
		return fail(err)
	}
	_, err = iam.NewRolePolicy(b.ctx, childName(b.name, "argocd-management"), &iam.RolePolicyArgs{
		Role: role.Name,
		Policy: pulumi.All(partition, f.AccountId).ApplyT(func(v []any) string {
			return ManagementPolicy(v[0].(string), spokeAccounts(b.args.Hub.SpokeAccountIds, v[1].(string))).JSON()
		}).(pulumi.StringOutput),
	}, opts...)
	if err != nil {
		return fail(err)
	}
	var assocs []pulumi.Resource
	for _, c := range awsCallers(*b.args.Hub) {
		sa := serviceAccountOf(values, c.values)
		a, err := awseks.NewPodIdentityAssociation(b.ctx, childName(b.name, "argocd-"+c.part), &awseks.PodIdentityAssociationArgs{
			ClusterName:    f.ClusterName,
			Namespace:      pulumi.String(b.args.Namespace),
			ServiceAccount: pulumi.String(sa),
			RoleArn:        role.Arn,
		}, opts...)
		if err != nil {
			return fail(err)
		}
		assocs = append(assocs, a)
	}
	return role.Arn, assocs, nil
}

// spokeAccounts are the accounts the management role may assume spoke roles in: the given ones, or the hub's.
func spokeAccounts(given []string, hubAccount string) []string {
	if len(given) > 0 {
		return given
	}
	return []string{hubAccount}
}

// awsProvider is the aws provider of the hub's region: the explicit one, or one for cluster.region, made once
// (the management role and the guard's caller identity share it).
func (b *builder) awsProvider() (pulumi.ProviderResource, error) {
	if b.explicit.AWS != nil {
		return b.explicit.AWS, nil
	}
	if b.aws == nil {
		prov, err := aws.NewProvider(b.ctx, childName(b.name, "aws"), &aws.ProviderArgs{Region: b.cluster.Region},
			pulumi.Parent(b.comp))
		if err != nil {
			return nil, err
		}
		b.aws = prov
	}
	return b.aws, nil
}
