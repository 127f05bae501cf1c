package gitopsbridge

import (
	"maps"
	"strconv"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
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
// here, all together when they resolve; a bad one fails the secret with every bad input named.
func (b *builder) secretContent() secretContent {
	a, f := b.args, b.cluster
	roleArn, roleField := pulumi.String("").ToStringOutput(), ""
	if a.Spoke != nil && !a.Spoke.Managed() {
		roleArn, roleField = f.SpokeRoleArn, "cluster.spokeRoleArn"
		if a.Spoke.RoleArn != nil {
			roleArn, roleField = a.Spoke.RoleArn.ToStringOutput(), "spoke.roleArn"
		}
	}
	cs := pulumi.All(f.ClusterName, f.Environment, f.KubernetesVersion, f.Addons, f.GitOpsMetadata, f.Server,
		f.CertificateAuthorityData, roleArn, f.Region, f.AccountId).ApplyT(func(v []any) (ClusterSecret, error) {
		name, md := v[0].(string), v[4].(map[string]string)
		addons := maps.Clone(v[3].(map[string]bool))
		if addons == nil {
			addons = map[string]bool{}
		}
		maps.Copy(addons, a.Addons)
		enabled := maps.Clone(addons)
		StackAddonsOff(a.Hub, addons)
		s := ClusterSecret{
			Name: a.SecretName, Namespace: a.Namespace, ClusterName: name,
			Annotations: Annotations(md, a.Metadata, a.AddonsRepo, a.WorkloadsRepo),
			Server:      InClusterServer, Config: InClusterConfig(),
		}
		if a.Shard != nil {
			s.Shard = strconv.Itoa(*a.Shard)
		}
		s.Labels = Labels(name, v[1].(string), v[2].(string), WaveOf(a.Wave, a.Hub != nil, v[1].(string)), addons,
			s.Annotations)
		if a.Decommission {
			s.Labels[DecommissionLabel] = "true"
		}
		var ps problems.List
		if a.Hub != nil {
			CheckStackAddonsEnabled(&ps, "hub.stackAddons", a.Hub.StackAddons, enabled, "the hub's cluster",
				"cluster.addons or addons")
		}
		checkLabels(&ps, s.Labels)
		checkAnnotationKeys(&ps, "cluster.gitopsMetadata", md)
		checkAnnotationSize(&ps, "metadata", s.Annotations)
		switch {
		case a.byARN():
			// The managed Argo CD names every cluster, its own too, by ARN, and reaches it as the capability's role.
			s.Server = awsnames.ClusterARN(v[8].(string), v[9].(string), name)
		case a.Spoke != nil:
			arn := v[7].(string)
			if !roleARNPattern.MatchString(arn) {
				ps.Add(roleField, "%q is not an IAM role ARN (arn:aws:iam::<account>:role/<name>); a spoke needs the "+
					"role Argo CD assumes (FleetCluster gitopsAccess.hubRoleArn, or spoke.roleArn)", arn)
			}
			s.Server, s.Config = v[5].(string), SpokeConfig(name, arn, v[6].(string))
		}
		return s, ps.Err(TypeToken)
	})
	// cs holds a ClusterSecret; appliers take it as any (the SDK has no output type for it).
	stringMapOf := func(get func(ClusterSecret) map[string]string) pulumi.StringMapOutput {
		return cs.ApplyT(func(c any) map[string]string { return get(c.(ClusterSecret)) }).(pulumi.StringMapOutput)
	}
	return secretContent{
		labels:      stringMapOf(func(c ClusterSecret) map[string]string { return c.Labels }),
		annotations: stringMapOf(func(c ClusterSecret) map[string]string { return c.Annotations }),
		stringData:  stringMapOf(ClusterSecret.StringData),
		manifest:    cs.ApplyT(func(c any) string { return c.(ClusterSecret).YAML() }).(pulumi.StringOutput),
	}
}

// clusterSecret writes the Argo CD cluster secret through provider; its data is a Pulumi secret.
func (b *builder) clusterSecret(s secretContent, provider pulumi.ProviderResource, extra ...pulumi.ResourceOption,
) (*corev1.Secret, error) {
	if b.args.Handover && b.args.Git != nil {
		// Written once more while Git takes over: the next run lets go of it without deleting it.
		extra = append(extra, pulumi.RetainOnDelete(true))
	}
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
