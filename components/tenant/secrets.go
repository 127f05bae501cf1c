package tenant

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// secretsActions are what external-secrets needs of a secret in AWS Secrets Manager (its AWS provider docs:
// GetResourcePolicy, GetSecretValue, DescribeSecret, ListSecretVersionIds).
var secretsActions = []string{"secretsmanager:GetResourcePolicy", "secretsmanager:GetSecretValue",
	"secretsmanager:DescribeSecret", "secretsmanager:ListSecretVersionIds"}

// SecretsArn is the ARN pattern of a tenant's secrets: arn:<partition>:secretsmanager:<region>:<account>:secret:
// <prefix><tenant>/*.
func SecretsArn(partition, region, account, prefix, tenant string) string {
	return fmt.Sprintf("arn:%s:secretsmanager:%s:%s:secret:%s%s/*", partition, region, account, prefix, tenant)
}

// secretsRole registers, on target c, the role of namespace n's tenant-secrets service account, which its
// SecretStore authenticates as (an IRSA token: the role trusts the cluster's OIDC provider for that service
// account only) and which reads only the tenant's secrets, with opts.
func secretsRole(ctx *pulumi.Context, t TenantSpec, c Target, n TenantNamespace, opts ...pulumi.ResourceOption) (*iam.Role, error) {
	name := fmt.Sprintf("%s-%s-%s-%s", t.Name, c.Name, n.Name, SecretsServiceAccount)
	role, err := newRole(ctx, name, t, c, n, SecretsServiceAccount, irsaTrust(c, n, SecretsServiceAccount), opts...)
	if err != nil {
		return nil, err
	}
	policy := c.AccountId.ToStringOutput().ApplyT(func(account string) string {
		arn := SecretsArn(awsnames.PartitionOf(c.Region), c.Region, account, t.SecretsPrefix, t.Name)
		return iampolicy.New(iampolicy.Allow("TenantSecrets", secretsActions, []string{arn})).JSON()
	}).(pulumi.StringOutput)
	_, err = iam.NewRolePolicy(ctx, name, &iam.RolePolicyArgs{Role: role.Name, Policy: policy}, opts...)
	return role, err
}
