package fleetcluster

import (
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// irsaRoles builds an IRSA role for each enabled add-on that calls AWS, trusted by the cluster's OIDC
// provider for the add-on's service account only, and returns add-on name -> role ARN.
func (b *builder) irsaRoles(oidc *iam.OpenIdConnectProvider, nodeRoleArn pulumi.StringOutput,
) (map[string]pulumi.StringOutput, error) {
	providerArn, issuer := oidc.Arn, oidc.Url
	roles := map[string]pulumi.StringOutput{}
	for _, addon := range enabledAddonsWithIdentity(b.args.Addons) {
		id := addonIdentities[addon]
		name := roleName(b.args.ClusterName, b.args.Region, irsaRolePurpose(addon))
		trust := pulumi.All(providerArn, issuer).ApplyT(func(v []any) string {
			return IRSATrustPolicy(v[0].(string), v[1].(string), id.Namespace, id.ServiceAccount).JSON()
		}).(pulumi.StringOutput)
		role, err := iam.NewRole(b.ctx, childName(b.name, "irsa-"+irsaRolePurpose(addon)), &iam.RoleArgs{
			Name:             pulumi.String(name),
			Description:      pulumi.Sprintf("IRSA role of %s on EKS cluster %s", addon, b.args.ClusterName),
			AssumeRolePolicy: trust,
			Tags:             b.tags(name),
		}, b.resource()...)
		if err != nil {
			return nil, err
		}
		for _, p := range id.ManagedPolicies {
			if err := b.attachManagedPolicy(childName(b.name, "irsa-"+irsaRolePurpose(addon)+"-"+p), role, p); err != nil {
				return nil, err
			}
		}
		if id.Policy != nil {
			doc := pulumi.All(b.partition, b.region, b.accountID, nodeRoleArn).ApplyT(func(v []any) string {
				return id.Policy(PolicyContext{
					Partition: v[0].(string), Region: v[1].(string), AccountID: v[2].(string),
					ClusterName: b.args.ClusterName, NodeRoleArn: v[3].(string),
				}).JSON()
			}).(pulumi.StringOutput)
			if _, err := iam.NewRolePolicy(b.ctx, childName(b.name, "irsa-"+irsaRolePurpose(addon)), &iam.RolePolicyArgs{
				Role:   role.Name,
				Name:   pulumi.String(irsaRolePurpose(addon)),
				Policy: doc,
			}, b.resource()...); err != nil {
				return nil, err
			}
		}
		roles[addon] = role.Arn
	}
	return roles, nil
}
