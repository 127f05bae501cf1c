package fleetcluster

import (
	"fmt"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// addonIdentities builds, for each enabled add-on, its contract row's resources and IAM role (with the policy
// published for the add-on's version), its EKS Pod Identity associations where the identity mode and the
// version call for them, and the EBS CSI driver's EKS managed add-on; it returns every add-on's metadata keys
// in one map.
func (b *builder) addonIdentities(oidc *iam.OpenIdConnectProvider, nodeRole *iam.Role, cluster awseks.ClusterOutput,
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
		podIdentity := b.podIdentity(a)
		role, err := b.addonRole(a, oidc, nodeRole, cluster.Arn(), podIdentity, facts)
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
			if _, err := b.managedAddonWithRole(cluster.Name(), EBSCSIDriverAddon, role.Arn, nodes); err != nil {
				return pulumi.StringMapOutput{}, err
			}
		}
		if podIdentity {
			if err := b.podIdentityAssociations(a, role, cluster.Name()); err != nil {
				return pulumi.StringMapOutput{}, err
			}
		}
	}
	return keys.ToStringMapOutput(), nil
}

// addonVersion is the add-on's version: the given one, else the one the pinned template installs.
func (b *builder) addonVersion(a addons.Addon) string {
	if v, ok := b.args.AddonVersions[a.Name]; ok {
		return v
	}
	return a.Version
}

// podIdentity tells whether the add-on's role is bound with EKS Pod Identity: in mode podIdentity, when the
// add-on's version supports it.
func (b *builder) podIdentity(a addons.Addon) bool {
	return b.args.Identity == IdentityPodIdentity && a.Identity.PodIdentity.Supports(b.addonVersion(a))
}

// addonRole builds the add-on's IAM role, trusted by the cluster's OIDC provider for the add-on's service
// accounts only, and by EKS Pod Identity for the same service accounts of this cluster when podIdentity,
// with the managed policies and the inline policy published for the add-on's version, scoped by its resources
// and settings. Its resource name keeps the irsa- prefix it always had, so switching modes updates it in place.
func (b *builder) addonRole(a addons.Addon, oidc *iam.OpenIdConnectProvider, nodeRole *iam.Role,
	clusterArn pulumi.StringOutput, podIdentity bool, f addonFacts,
) (*iam.Role, error) {
	id := a.Identity
	policy, err := id.PolicyFor(b.addonVersion(a))
	if err != nil {
		// validateAddonVersions refused it before any resource was registered.
		return nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	purpose := irsaRolePurpose(a.Name)
	name := roleName(b.args.ClusterName, b.args.Region, purpose)
	var accounts []string
	for _, sa := range id.ServiceAccounts {
		accounts = append(accounts, sa.Name)
	}
	trust := pulumi.All(oidc.Arn, oidc.Url, clusterArn).ApplyT(func(v []any) string {
		doc := IRSATrustPolicy(v[0].(string), v[1].(string), id.Namespace, accounts...)
		if podIdentity {
			doc.Statement = append(doc.Statement, iampolicy.PodIdentityTrust(v[2].(string), id.Namespace, accounts))
		}
		return doc.JSON()
	}).(pulumi.StringOutput)
	role, err := iam.NewRole(b.ctx, childName(b.name, "irsa-"+purpose), &iam.RoleArgs{
		Name:             pulumi.String(name),
		Description:      pulumi.Sprintf("Role of %s on EKS cluster %s", a.Name, b.args.ClusterName),
		AssumeRolePolicy: trust,
		Tags:             b.tags(name),
	}, b.resource()...)
	if err != nil {
		return nil, err
	}
	if own, ok := b.settings.PolicyArns[a.Name]; ok {
		// The user's narrower policies replace the account-wide upstream one.
		for _, arn := range own {
			// Named by <account>:policy/<path><name>, so reordering the list changes nothing.
			key := arn[strings.Index(arn, ":iam::")+len(":iam::"):]
			if _, err := iam.NewRolePolicyAttachment(b.ctx, childName(b.name, "irsa-"+purpose+"-"+key),
				&iam.RolePolicyAttachmentArgs{Role: role.Name, PolicyArn: pulumi.String(arn)}, b.resource()...); err != nil {
				return nil, err
			}
		}
		return role, nil
	}
	for _, p := range policy.ManagedPolicies {
		if err := b.attachManagedPolicy(childName(b.name, "irsa-"+purpose+"-"+p), role, p); err != nil {
			return nil, err
		}
	}
	if policy.Inline == nil {
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
		return policy.Inline(c).JSON()
	}).(pulumi.StringOutput)
	_, err = iam.NewRolePolicy(b.ctx, childName(b.name, "irsa-"+purpose), &iam.RolePolicyArgs{
		Role:   role.Name,
		Name:   pulumi.String(purpose),
		Policy: doc,
	}, b.resource()...)
	return role, err
}

// podIdentityAssociations binds the role to each of the add-on's service accounts with EKS Pod Identity,
// after the eks-pod-identity-agent add-on, which serves the credentials on every node.
func (b *builder) podIdentityAssociations(a addons.Addon, role *iam.Role, cluster pulumi.StringOutput) error {
	for _, sa := range a.Identity.ServiceAccounts {
		name := b.args.ClusterName + "-" + sa.Name
		if _, err := awseks.NewPodIdentityAssociation(b.ctx, childName(b.name, "pod-identity-"+sa.Name),
			&awseks.PodIdentityAssociationArgs{
				ClusterName:    cluster,
				Namespace:      pulumi.String(a.Identity.Namespace),
				ServiceAccount: pulumi.String(sa.Name),
				RoleArn:        role.Arn,
				Tags:           b.tags(name),
			}, b.resource(pulumi.DependsOn([]pulumi.Resource{b.podIdentityAgent}))...); err != nil {
			return err
		}
	}
	return nil
}
