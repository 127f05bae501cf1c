package tenant

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
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

// roleArns are the IAM role ARNs of one namespace's service accounts that take IRSA, by service account name:
// what their eks.amazonaws.com/role-arn annotations say (Identities once known).
type roleArns map[string]pulumi.StringOutput

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

// irsaTrust is the trust policy of an IRSA role: the cluster's OIDC provider, for service account sa of
// namespace n only (fleetcluster.IRSATrustPolicy, the EKS User Guide's).
func irsaTrust(c Target, n TenantNamespace, sa string) pulumi.StringOutput {
	return pulumi.All(c.OidcProviderArn, c.OidcProviderUrl).ApplyT(func(v []any) string {
		return fleetcluster.IRSATrustPolicy(v[0].(string), v[1].(string), n.Name, sa).JSON()
	}).(pulumi.StringOutput)
}

// identities registers, on target c, for each service account of the tenant's namespaces that has policies, an
// IAM role with its managed policies and inline policy, bound to that cluster, namespace and service account only:
// on a Pod Identity cluster the role trusts EKS Pod Identity (the EKS User Guide's statement) and a Pod Identity
// association binds it; on an IRSA cluster (c.PodIdentity false) it trusts the cluster's OIDC provider and the
// service account is annotated with it. With c.ExternalSecrets, each namespace's tenant-secrets service account
// gets its SecretStore's role too (secretsRole). It returns the roles and, per namespace, the annotations to
// write (roleArns).
func identities(ctx *pulumi.Context, parent pulumi.Resource, t TenantSpec, c Target) ([]pulumi.Resource, map[string]roleArns, error) {
	var out []pulumi.Resource
	annotations := map[string]roleArns{}
	opts := []pulumi.ResourceOption{pulumi.Parent(parent), pulumi.Provider(c.AWS)}
	for _, n := range t.Namespaces {
		arns := roleArns{}
		for _, sa := range n.ServiceAccounts {
			if len(sa.ManagedPolicyArns) == 0 && sa.Policy == "" {
				continue
			}
			name := fmt.Sprintf("%s-%s-%s-%s", t.Name, c.Name, n.Name, sa.Name)
			var trust pulumi.StringOutput
			if c.PodIdentity {
				trust = c.ClusterArn.ToStringOutput().ApplyT(func(arn string) string {
					return iampolicy.New(iampolicy.PodIdentityTrust(arn, n.Name, []string{sa.Name})).JSON()
				}).(pulumi.StringOutput)
			} else {
				trust = irsaTrust(c, n, sa.Name)
			}
			role, err := newRole(ctx, name, t, c, n, sa.Name, trust, opts...)
			if err != nil {
				return nil, nil, err
			}
			for _, p := range sa.ManagedPolicyArns {
				if _, err := iam.NewRolePolicyAttachment(ctx, name+"-"+path.Base(p), &iam.RolePolicyAttachmentArgs{
					Role: role.Name, PolicyArn: pulumi.String(p)}, opts...); err != nil {
					return nil, nil, err
				}
			}
			if sa.Policy != "" {
				if _, err := iam.NewRolePolicy(ctx, name, &iam.RolePolicyArgs{Role: role.Name, Policy: pulumi.String(sa.Policy)},
					opts...); err != nil {
					return nil, nil, err
				}
			}
			out = append(out, role)
			if !c.PodIdentity {
				arns[sa.Name] = role.Arn
				continue
			}
			if _, err := awseks.NewPodIdentityAssociation(ctx, name, &awseks.PodIdentityAssociationArgs{
				ClusterName: pulumi.String(c.Name), Namespace: pulumi.String(n.Name), ServiceAccount: pulumi.String(sa.Name),
				RoleArn: role.Arn,
			}, opts...); err != nil {
				return nil, nil, err
			}
		}
		if c.ExternalSecrets {
			role, err := secretsRole(ctx, t, c, n, opts...)
			if err != nil {
				return nil, nil, err
			}
			out, arns[SecretsServiceAccount] = append(out, role), role.Arn
		}
		annotations[n.Name] = arns
	}
	return out, annotations, nil
}
