package tenant

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// RoleName is the IAM role of a tenant's service account on a cluster: "tenant-" and a hash of the tenant,
// cluster, namespace and service account (stable, 19 characters, well inside IAM's 64), under the path
// /gitops-fleet/tenant/<tenant>/, which says whose it is.
func RoleName(tenant, cluster, namespace, serviceAccount string) string {
	return hashedName(tenant + "/" + cluster + "/" + namespace + "/" + serviceAccount)
}

// hashedName is "tenant-" and the first 12 hex digits of key's SHA-256: a stable name of 19 characters.
func hashedName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "tenant-" + hex.EncodeToString(sum[:])[:12]
}

// newRole registers the IAM role of service account sa in namespace n of tenant t on target c (named
// RoleName, under /gitops-fleet/tenant/<tenant>/, tagged with the tenant and namespace) with trust.
func newRole(ctx *pulumi.Context, name string, t TenantSpec, c Target, n TenantNamespace, sa string,
	trust pulumi.StringInput, opts ...pulumi.ResourceOption) (*iam.Role, error) {
	return iam.NewRole(ctx, name, &iam.RoleArgs{
		Name:             pulumi.String(RoleName(t.Name, c.Name, n.Name, sa)),
		Path:             pulumi.String("/gitops-fleet/tenant/" + t.Name + "/"),
		AssumeRolePolicy: trust,
		Tags:             pulumi.StringMap{"tenant": pulumi.String(t.Name), "kubernetes-namespace": pulumi.String(n.Name)},
	}, opts...)
}

// identities registers, on target c, for each service account of the tenant's namespaces that has policies: an
// IAM role that trusts EKS Pod Identity for that cluster, namespace and service account only (the EKS User
// Guide's statement), its managed policies and inline policy, and the Pod Identity association that binds it.
func identities(ctx *pulumi.Context, parent pulumi.Resource, t TenantSpec, c Target) ([]pulumi.Resource, error) {
	var out []pulumi.Resource
	for _, n := range t.Namespaces {
		for _, sa := range n.ServiceAccounts {
			if len(sa.ManagedPolicyArns) == 0 && sa.Policy == "" {
				continue
			}
			name := fmt.Sprintf("%s-%s-%s-%s", t.Name, c.Name, n.Name, sa.Name)
			opts := []pulumi.ResourceOption{pulumi.Parent(parent), pulumi.Provider(c.AWS)}
			trust := c.ClusterArn.ToStringOutput().ApplyT(func(arn string) string {
				return iampolicy.New(iampolicy.PodIdentityTrust(arn, n.Name, []string{sa.Name})).JSON()
			}).(pulumi.StringOutput)
			role, err := newRole(ctx, name, t, c, n, sa.Name, trust, opts...)
			if err != nil {
				return nil, err
			}
			for _, p := range sa.ManagedPolicyArns {
				if _, err := iam.NewRolePolicyAttachment(ctx, name+"-"+path.Base(p), &iam.RolePolicyAttachmentArgs{
					Role: role.Name, PolicyArn: pulumi.String(p)}, opts...); err != nil {
					return nil, err
				}
			}
			if sa.Policy != "" {
				if _, err := iam.NewRolePolicy(ctx, name, &iam.RolePolicyArgs{Role: role.Name, Policy: pulumi.String(sa.Policy)},
					opts...); err != nil {
					return nil, err
				}
			}
			out = append(out, role)
			if _, err := awseks.NewPodIdentityAssociation(ctx, name, &awseks.PodIdentityAssociationArgs{
				ClusterName: pulumi.String(c.Name), Namespace: pulumi.String(n.Name), ServiceAccount: pulumi.String(sa.Name),
				RoleArn: role.Arn,
			}, opts...); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
