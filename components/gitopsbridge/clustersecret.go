package gitopsbridge

import (
	"maps"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// secretContent is the cluster secret as outputs: what the Secret holds and the manifest Git receives.
type secretContent struct {
	labels      pulumi.StringMapOutput
	annotations pulumi.StringMapOutput
	stringData  pulumi.StringMapOutput
	manifest    pulumi.StringOutput
}

// secretContent computes the cluster secret from the cluster's facts. Facts that were outputs are checked
// here, when they resolve; a bad one fails the secret with the input named.
func (b *builder) secretContent() secretContent {
	a, f := b.args, b.cluster
	labels := pulumi.All(f.ClusterName, f.Environment, f.KubernetesVersion, f.Addons).ApplyT(
		func(v []any) (map[string]string, error) {
			addons := maps.Clone(v[3].(map[string]bool))
			if addons == nil {
				addons = map[string]bool{}
			}
			maps.Copy(addons, a.Addons)
			l := Labels(v[0].(string), v[1].(string), v[2].(string), addons)
			var ps problems.List
			checkLabels(&ps, l)
			return l, ps.Err(TypeToken)
		}).(pulumi.StringMapOutput)
	annotations := f.GitOpsMetadata.ApplyT(func(md map[string]string) (map[string]string, error) {
		var ps problems.List
		checkAnnotationKeys(&ps, "cluster.gitopsMetadata", md)
		all := Annotations(md, a.Metadata, a.AddonsRepo, a.WorkloadsRepo)
		checkAnnotationSize(&ps, "metadata", all)
		return all, ps.Err(TypeToken)
	}).(pulumi.StringMapOutput)

	server, config := pulumi.String(InClusterServer).ToStringOutput(), pulumi.String(InClusterConfig()).ToStringOutput()
	if a.Spoke != nil {
		server = f.Server
		config = pulumi.All(f.ClusterName, b.spokeRoleArn(), f.CertificateAuthorityData).ApplyT(func(v []any) string {
			return SpokeConfig(v[0].(string), v[1].(string), v[2].(string))
		}).(pulumi.StringOutput)
	}
	s := secretContent{labels: labels, annotations: annotations}
	cs := pulumi.All(labels, annotations, server, config, f.ClusterName).ApplyT(func(v []any) ClusterSecret {
		return ClusterSecret{
			Name: a.SecretName, Namespace: a.Namespace,
			Labels: v[0].(map[string]string), Annotations: v[1].(map[string]string),
			Server: v[2].(string), Config: v[3].(string), ClusterName: v[4].(string),
		}
	})
	s.stringData = cs.ApplyT(func(c ClusterSecret) map[string]string { return c.StringData() }).(pulumi.StringMapOutput)
	s.manifest = cs.ApplyT(func(c ClusterSecret) string { return c.YAML() }).(pulumi.StringOutput)
	return s
}

// spokeRoleArn is spoke.roleArn or else the cluster's spokeRoleArn, checked when it resolves.
func (b *builder) spokeRoleArn() pulumi.StringOutput {
	field, arn := "spoke.roleArn", b.cluster.SpokeRoleArn
	if b.args.Spoke.RoleArn != nil {
		arn = b.args.Spoke.RoleArn.ToStringOutput()
	} else {
		field = "cluster.spokeRoleArn"
	}
	return arn.ApplyT(func(v string) (string, error) {
		var ps problems.List
		if !roleARNPattern.MatchString(v) {
			ps.Add(field, "%q is not an IAM role ARN (arn:aws:iam::<account>:role/<name>); a spoke needs the role "+
				"Argo CD assumes (FleetCluster gitopsAccess.hubRoleArn, or spoke.roleArn)", v)
		}
		return v, ps.Err(TypeToken)
	}).(pulumi.StringOutput)
}

// clusterSecret writes the Argo CD cluster secret through provider; its data is a Pulumi secret.
func (b *builder) clusterSecret(s secretContent, provider pulumi.ProviderResource, extra ...pulumi.ResourceOption,
) (*corev1.Secret, error) {
	return corev1.NewSecret(b.ctx, childName(b.name, "cluster-secret"), &corev1.SecretArgs{
		Metadata: &metav1.ObjectMetaArgs{
			Name:        pulumi.String(b.args.SecretName),
			Namespace:   pulumi.String(b.args.Namespace),
			Labels:      s.labels,
			Annotations: s.annotations,
		},
		Type:       pulumi.String("Opaque"),
		StringData: pulumi.ToSecret(s.stringData).(pulumi.StringMapOutput),
	}, b.child(provider, extra...)...)
}
