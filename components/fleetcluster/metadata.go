package fleetcluster

import (
	"maps"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-eks/sdk/v2/go/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// ClusterFacts are the plain facts of a built cluster that the GitOps Bridge metadata carries.
type ClusterFacts struct {
	ClusterName       string
	Region            string
	AccountID         string
	VpcID             string
	KubernetesVersion string
	Environment       string
}

// GitOpsMetadata is the GitOps Bridge metadata of a cluster: the cluster keys (addons.ClusterKeys:
// aws_cluster_name, aws_region, aws_account_id, aws_vpc_id, kubernetes_version, environment) and the enabled
// add-ons' keys (addons.Addon.Keys: <addon>_iam_role_arn, <addon>_namespace, the service accounts, and the
// keys of the add-on's resources and settings), the annotations the GitOps Bridge ApplicationSets read.
func GitOpsMetadata(f ClusterFacts, addonKeys map[string]string) map[string]string {
	md := map[string]string{
		addons.ClusterNameKey:       f.ClusterName,
		addons.RegionKey:            f.Region,
		addons.AccountIDKey:         f.AccountID,
		addons.VpcIDKey:             f.VpcID,
		addons.KubernetesVersionKey: f.KubernetesVersion,
		addons.EnvironmentKey:       f.Environment,
	}
	maps.Copy(md, addonKeys)
	return md
}

// outputs sets the component's outputs from its children.
func (b *builder) outputs(net network, cl *eks.Cluster, oidc *iam.OpenIdConnectProvider, nodeRoleArn, spokeRoleArn pulumi.StringOutput,
	addonKeys pulumi.StringMapOutput,
) {
	c, a := b.comp, b.args
	eksCluster := cl.EksCluster
	c.ClusterName = eksCluster.Name()
	c.ClusterArn = eksCluster.Arn()
	c.Endpoint = eksCluster.Endpoint()
	c.CertificateAuthorityData = eksCluster.CertificateAuthority().Data().Elem()
	c.OidcProviderArn = oidc.Arn
	c.OidcProviderUrl = oidc.Url.ApplyT(func(u string) string {
		return "https://" + strings.TrimPrefix(u, "https://")
	}).(pulumi.StringOutput)
	c.VpcId = net.vpcID
	c.PrivateSubnetIds = net.privateSubnets
	c.PublicSubnetIds = net.publicSubnets
	c.NatPublicIps = net.natIPs
	c.NodeRoleArn = nodeRoleArn
	c.SpokeRoleArn = spokeRoleArn
	c.Region = b.region
	c.AccountId = b.accountID
	c.KubernetesVersion = eksCluster.Version()
	c.Environment = pulumi.String(a.Environment).ToStringOutput()
	c.Kubeconfig = pulumi.ToSecret(cl.KubeconfigJson).(pulumi.StringOutput)
	c.Addons = pulumi.ToBoolMap(addons.WithImplied(a.Addons)).ToBoolMapOutput()
	c.GitOpsMetadata = pulumi.All(c.ClusterName, c.Region, c.AccountId, c.VpcId, c.KubernetesVersion,
		addonKeys).ApplyT(func(v []any) map[string]string {
		return GitOpsMetadata(ClusterFacts{
			ClusterName: v[0].(string), Region: v[1].(string), AccountID: v[2].(string), VpcID: v[3].(string),
			KubernetesVersion: v[4].(string), Environment: a.Environment,
		}, v[5].(map[string]string))
	}).(pulumi.StringMapOutput)
	c.info = clusterinfo.ClusterInfoArgs{
		ClusterName:              c.ClusterName,
		Environment:              c.Environment,
		Server:                   c.Endpoint,
		CertificateAuthorityData: c.CertificateAuthorityData,
		Region:                   c.Region,
		AccountId:                c.AccountId,
		KubernetesVersion:        c.KubernetesVersion,
		Kubeconfig:               c.Kubeconfig,
		SpokeRoleArn:             c.SpokeRoleArn,
		GitOpsMetadata:           c.GitOpsMetadata,
		Addons:                   c.Addons,
	}
	c.ClusterInfo = c.info.ToClusterInfoOutput()
}
