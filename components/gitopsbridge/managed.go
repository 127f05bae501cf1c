package gitopsbridge

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// capabilityResource is an ArgoCDCapability as the component registers it (the fleet plugin's own resource).
type capabilityResource struct {
	pulumi.CustomResourceState
	// Arn is the capability's ARN.
	Arn pulumi.StringOutput `pulumi:"arn"`
	// ServerURL is the Argo CD server's URL.
	ServerURL pulumi.StringOutput `pulumi:"serverUrl"`
}

// hubManaged sets up the managed Argo CD on the hub (hub.mode managed): the capability's role, trusting the EKS
// capabilities service and holding no permission; Argo CD's namespace; the capability in it, for which EKS
// installs Argo CD's CRDs and gives the role an access entry; then, as for a self-managed hub, the admission guards, the
// projects, the hub's own secret (by ARN) or the registry Applications, and the bootstrap, all after the
// capability and capabilityAccess, so a delete removes them before those. No Helm release, no management role, no
// Pod Identity and no RBAC for Argo CD's service accounts: EKS associates its own access policies with the
// capability's role on the hub (AmazonEKSArgoCDClusterPolicy, and AmazonEKSArgoCDPolicy in the namespace), and
// capabilityAccess adds the one its Applications on the hub need. managementRoleArn is the capability's
// role, resolved once the capability exists: a spoke's access entry for it is then deleted after the capability.
func (b *builder) hubManaged(secret secretContent) error {
	h, c, f := *b.args.Hub, b.comp, b.cluster
	m := *h.Capability
	k8s, err := b.hubProvider(f.Kubeconfig, "k8s")
	if err != nil {
		return err
	}
	prov, err := b.awsProvider()
	if err != nil {
		return err
	}
	role, err := iam.NewRole(b.ctx, childName(b.name, "argocd-capability"), &iam.RoleArgs{
		Path:             pulumi.String(HubRolePath),
		Description:      pulumi.Sprintf("The managed Argo CD (EKS capability) of %s", f.ClusterName),
		AssumeRolePolicy: pulumi.String(capability.TrustPolicy().JSON()),
		Tags:             pulumi.ToStringMap(m.Tags),
	}, b.child(prov)...)
	if err != nil {
		return err
	}
	argo := pulumi.Map{
		"awsIdc":    pulumi.ToMap(map[string]any{"idcInstanceArn": m.IdentityCenter.InstanceArn}),
		"namespace": pulumi.String(b.args.Namespace),
	}
	if m.IdentityCenter.Region != "" {
		argo["awsIdc"] = pulumi.ToMap(map[string]any{"idcInstanceArn": m.IdentityCenter.InstanceArn,
			"idcRegion": m.IdentityCenter.Region})
	}
	if m.EndpointPrefix != "" {
		argo["endpointPrefix"] = pulumi.String(m.EndpointPrefix)
	}
	if m.NetworkAccess != nil {
		argo["networkAccess"] = pulumi.ToMap(map[string]any{"vpceIds": m.NetworkAccess.VpceIds})
	}
	if len(m.RbacRoleMappings) > 0 {
		var mappings []any
		for _, r := range m.RbacRoleMappings {
			var ids []any
			for _, id := range r.Identities {
				ids = append(ids, map[string]any{"id": id.ID, "type": id.Type})
			}
			mappings = append(mappings, map[string]any{"role": r.Role, "identities": ids})
		}
		argo["rbacRoleMappings"] = pulumi.ToArray(mappings)
	}
	props := pulumi.Map{"clusterName": f.ClusterName, "region": f.Region, "roleArn": role.Arn, "argoCd": argo,
		"tags": pulumi.ToStringMap(m.Tags)}
	if m.CapabilityName != "" {
		props["capabilityName"] = pulumi.String(m.CapabilityName)
	}
	// The same namespace resource as a self-managed hub's, before the capability: switching modes keeps it (and
	// every secret and project in it), and EKS finds it there.
	ns, err := corev1.NewNamespace(b.ctx, childName(b.name, "namespace"), &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(b.args.Namespace)},
	}, b.child(k8s)...)
	if err != nil {
		return err
	}
	var argocd capabilityResource
	if err := b.ctx.RegisterResource(capability.TypeToken, childName(b.name, "argocd"), props, &argocd,
		pulumi.Parent(c), pulumi.DependsOn([]pulumi.Resource{ns})); err != nil {
		return err
	}
	access, err := b.capabilityAccess(role.Arn, m.AccessPolicyArn, &argocd, prov)
	if err != nil {
		return err
	}
	after := []pulumi.Resource{&argocd, access}
	if err := b.hubAddons(k8s, secret.annotations, nil); err != nil {
		return err
	}
	guard, err := b.guard(k8s, secret.manifest, nil, after)
	if err != nil {
		return err
	}
	projects, err := b.projects(k8s, &argocd)
	if err != nil {
		return err
	}
	if err := b.registerAndBootstrap(k8s, secret, after, after, guard, projects); err != nil {
		return err
	}
	c.ArgoCdNamespace = pulumi.All(argocd.Arn, pulumi.String(b.args.Namespace)).ApplyT(func(v []any) string {
		return v[1].(string)
	}).(pulumi.StringOutput)
	c.ManagementRoleArn = pulumi.All(role.Arn, argocd.Arn).ApplyT(func(v []any) string {
		return v[0].(string)
	}).(pulumi.StringOutput)
	c.ArgoCdServerUrl = argocd.ServerURL
	return nil
}

// CapabilityAccessPolicy is the EKS access policy a managed hub's capability role gets on the hub by default
// (ManagedArgoCD.AccessPolicyArn).
const CapabilityAccessPolicy = "AmazonEKSClusterAdminPolicy"

// capabilityAccess associates policy (default CapabilityAccessPolicy, in the hub region's partition), cluster-wide,
// with the access entry EKS made for the capability's role on the hub: it exists once the capability does, and the
// component makes no entry of its own (EKS would answer ResourceInUseException).
func (b *builder) capabilityAccess(role pulumi.StringOutput, policy string, argocd pulumi.Resource,
	prov pulumi.ProviderResource,
) (pulumi.Resource, error) {
	policyArn := b.cluster.Region.ApplyT(func(region string) string {
		if policy != "" {
			return policy
		}
		return fmt.Sprintf("arn:%s:eks::aws:cluster-access-policy/%s", awsnames.PartitionOf(region), CapabilityAccessPolicy)
	}).(pulumi.StringOutput)
	return awseks.NewAccessPolicyAssociation(b.ctx, childName(b.name, "argocd-capability-access"),
		&awseks.AccessPolicyAssociationArgs{
			ClusterName:  b.cluster.ClusterName,
			PrincipalArn: role,
			PolicyArn:    policyArn,
			AccessScope:  awseks.AccessPolicyAssociationAccessScopeArgs{Type: pulumi.String("cluster")},
		}, append(b.child(prov), pulumi.DependsOn([]pulumi.Resource{argocd}))...)
}
