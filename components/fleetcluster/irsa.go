package fleetcluster

import (
	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// addonIdentities builds, for each enabled add-on, its contract row's resources and IRSA role, and the EBS
// CSI driver's EKS managed add-on; it returns every add-on's metadata keys in one map.
func (b *builder) addonIdentities(oidc *iam.OpenIdConnectProvider, nodeRole *iam.Role, cluster pulumi.StringOutput,
	nodes []pulumi.Resource,
) (pulumi.StringMapOutput, error) {
	keys := pulumi.StringMap{}
	for _, a := range enabledAddons(b.args.Addons) {
		facts, err := b.addonResources(a, nodeRole)
		if err != nil {
			return pulumi.StringMapOutput{}, err
		}
		for k, v := range facts.keys {
			keys[k] = v
		}
		if a.Identity == nil {
			continue
		}
		role, err := b.irsaRole(a, oidc, nodeRole, facts)
		if err != nil {
			return pulumi.StringMapOutput{}, err
		}
		p := a.Identity.Prefix(a.Name)
		keys[p+addons.IAMRoleArnSuffix] = role.Arn
		keys[p+addons.NamespaceSuffix] = pulumi.String(a.Identity.Namespace)
		for _, sa := range a.Identity.ServiceAccounts {
			keys[p+"_"+sa.Key] = pulumi.String(sa.Name)
		}
		if a.Needs(addons.ManagedAddon) {
			if _, err := b.managedAddonWithRole(cluster, "aws-ebs-csi-driver", role.Arn, nodes); err != nil {
				return pulumi.StringMapOutput{}, err
			}
		}
	}
	return keys.ToStringMapOutput(), nil
}

// irsaRole builds the add-on's IRSA role, trusted by the cluster's OIDC provider for the add-on's service
// accounts only, with its managed policies and its inline policy scoped by the add-on's resources and settings.
func (b *builder) irsaRole(a addons.Addon, oidc *iam.OpenIdConnectProvider, nodeRole *iam.Role, f addonFacts,
) (*iam.Role, error) {
	id := a.Identity
	purpose := irsaRolePurpose(a.Name)
	name := roleName(b.args.ClusterName, b.args.Region, purpose)
	var accounts []string
	for _, sa := range id.ServiceAccounts {
		accounts = append(accounts, sa.Name)
	}
	trust := pulumi.All(oidc.Arn, oidc.Url).ApplyT(func(v []any) string {
		return IRSATrustPolicy(v[0].(string), v[1].(string), id.Namespace, accounts...).JSON()
	}).(pulumi.StringOutput)
	role, err := iam.NewRole(b.ctx, childName(b.name, "irsa-"+purpose), &iam.RoleArgs{
		Name:             pulumi.String(name),
		Description:      pulumi.Sprintf("IRSA role of %s on EKS cluster %s", a.Name, b.args.ClusterName),
		AssumeRolePolicy: trust,
		Tags:             b.tags(name),
	}, b.resource()...)
	if err != nil {
		return nil, err
	}
	for _, p := range id.ManagedPolicies {
		if err := b.attachManagedPolicy(childName(b.name, "irsa-"+purpose+"-"+p), role, p); err != nil {
			return nil, err
		}
	}
	if id.Policy == nil {
		return role, nil
	}
	s := b.settings
	doc := pulumi.All(b.partition, b.region, b.accountID, nodeRole.Arn, f.queueArn, f.logGroupName, f.bucketName,
		f.bucketPrefix).ApplyT(func(v []any) string {
		c := addons.PolicyContext{
			Partition: v[0].(string), Region: v[1].(string), AccountID: v[2].(string), ClusterName: b.args.ClusterName,
			NodeRoleArn: v[3].(string), QueueArn: v[4].(string), LogGroupName: v[5].(string),
			BucketName: v[6].(string), BucketPrefix: v[7].(string),
		}
		s.scope(a.Name, &c)
		return id.Policy(c).JSON()
	}).(pulumi.StringOutput)
	_, err = iam.NewRolePolicy(b.ctx, childName(b.name, "irsa-"+purpose), &iam.RolePolicyArgs{
		Role:   role.Name,
		Name:   pulumi.String(purpose),
		Policy: doc,
	}, b.resource()...)
	return role, err
}
