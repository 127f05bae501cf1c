package fleetcluster

import (
	"path"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-eks/sdk/v2/go/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// SpokeAccessEntryName is the key of the access entry that GitOpsAccess adds; user entries may not use it.
const SpokeAccessEntryName = "gitops-spoke"

// roleMappings turns RoleMappings into aws-auth entries. The node role is not among them: pulumi-eks
// (createAwsAuthData, v2.8.1) writes mapRoles as these mappings followed by one system:nodes entry per
// instance role, so no change of these mappings can drop the node role's entry.
func roleMappings(ms []RoleMapping) eks.RoleMappingArrayInput {
	if len(ms) == 0 {
		return nil
	}
	out := eks.RoleMappingArray{}
	for i, m := range ms {
		out = append(out, eks.RoleMappingArgs{
			RoleArn:  checkedARN(problems.Index("roleMappings", i)+".roleArn", m.RoleArn, iamRoleARN),
			Username: pulumi.String(m.Username),
			Groups:   pulumi.ToStringArray(m.Groups),
		})
	}
	return out
}

// userMappings turns UserMappings into aws-auth entries.
func userMappings(ms []UserMapping) eks.UserMappingArrayInput {
	if len(ms) == 0 {
		return nil
	}
	out := eks.UserMappingArray{}
	for i, m := range ms {
		out = append(out, eks.UserMappingArgs{
			UserArn:  checkedARN(problems.Index("userMappings", i)+".userArn", m.UserArn, iamUserARN),
			Username: pulumi.String(m.Username),
			Groups:   pulumi.ToStringArray(m.Groups),
		})
	}
	return out
}

// accessEntries turns AccessEntries into pulumi-eks access entries keyed by name, plus, with gitopsAccess, the
// hub's entry: the spoke role's, or a managed hub's capability role's, with gitopsAccess.accessPolicyArn.
func (b *builder) accessEntries(spokeRoleArn pulumi.StringOutput) map[string]eks.AccessEntryArgs {
	out := map[string]eks.AccessEntryArgs{}
	for i, e := range b.args.AccessEntries {
		policies := map[string]eks.AccessPolicyAssociationInput{}
		for _, p := range e.AccessPolicies {
			policies[path.Base(p.PolicyArn)] = eks.AccessPolicyAssociationArgs{
				PolicyArn:   pulumi.String(p.PolicyArn),
				AccessScope: accessScope(p.Namespaces),
			}
		}
		out[e.Name] = eks.AccessEntryArgs{
			PrincipalArn:     checkedARN(problems.Index("accessEntries", i)+".principalArn", e.PrincipalArn, iamPrincipalARN),
			KubernetesGroups: pulumi.ToStringArray(e.KubernetesGroups),
			AccessPolicies:   policies,
		}
	}
	if g := b.args.GitOpsAccess; g != nil {
		principal := spokeRoleArn
		if g.CapabilityRoleArn != nil {
			principal = checkedARN("gitopsAccess.capabilityRoleArn", g.CapabilityRoleArn, iamRoleARN)
		}
		policy := pulumi.Sprintf("arn:%s:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", b.partition)
		key := "AmazonEKSClusterAdminPolicy"
		if g.AccessPolicyArn != "" {
			policy, key = pulumi.String(g.AccessPolicyArn).ToStringOutput(), path.Base(g.AccessPolicyArn)
		}
		out[SpokeAccessEntryName] = eks.AccessEntryArgs{
			PrincipalArn: principal,
			AccessPolicies: map[string]eks.AccessPolicyAssociationInput{
				key: eks.AccessPolicyAssociationArgs{PolicyArn: policy, AccessScope: accessScope(nil)},
			},
		}
	}
	return out
}

// accessScope is the whole cluster, or the namespaces given.
func accessScope(namespaces []string) awseks.AccessPolicyAssociationAccessScopeArgs {
	if len(namespaces) == 0 {
		return awseks.AccessPolicyAssociationAccessScopeArgs{Type: pulumi.String("cluster")}
	}
	return awseks.AccessPolicyAssociationAccessScopeArgs{
		Type: pulumi.String("namespace"), Namespaces: pulumi.ToStringArray(namespaces),
	}
}

// spokeRole builds the role the Argo CD hub assumes to manage this cluster, under clusterinfo.SpokeRolePath, trusted by
// the hub's role only. It has no IAM permissions: the cluster access comes from its access entry.
// Without gitopsAccess, or for a managed hub (capabilityRoleArn), it builds nothing and returns "".
func (b *builder) spokeRole() (pulumi.StringOutput, error) {
	if b.args.GitOpsAccess == nil || b.args.GitOpsAccess.CapabilityRoleArn != nil {
		return pulumi.String("").ToStringOutput(), nil
	}
	hub := checkedARN("gitopsAccess.hubRoleArn", b.args.GitOpsAccess.HubRoleArn, iamRoleARN)
	name := roleName(b.args.ClusterName, b.args.Region, spokeRolePurpose)
	role, err := iam.NewRole(b.ctx, childName(b.name, "gitops-spoke-role"), &iam.RoleArgs{
		Name:        pulumi.String(name),
		Path:        pulumi.String(clusterinfo.SpokeRolePath),
		Description: pulumi.Sprintf("Argo CD hub access to EKS cluster %s", b.args.ClusterName),
		AssumeRolePolicy: hub.ApplyT(func(arn string) string {
			return SpokeTrustPolicy(arn).JSON()
		}).(pulumi.StringOutput),
		Tags: b.tags(name),
	}, b.resource()...)
	if err != nil {
		return pulumi.StringOutput{}, err
	}
	return role.Arn, nil
}
