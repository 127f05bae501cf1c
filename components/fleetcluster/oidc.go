package fleetcluster

import (
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-eks/sdk/v2/go/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// oidcProvider registers the cluster's IAM OIDC identity provider (the issuer IRSA roles trust), for the
// audience sts.amazonaws.com.
//
// The component owns it rather than asking pulumi-eks (createOidcProvider) for two reasons. pulumi-eks v2.8.1
// hands it back only inside the cluster's `core` output, which its Go SDK cannot decode when the cluster has
// access entries (the schema types core.accessEntries as objects, the provider sends resource references:
// "expected a eks.AccessEntry, got a resource of type *eks.AccessEntry"). And pulumi-eks dials the issuer from
// the deploying machine to compute a CA thumbprint, which IAM does not use for issuers whose certificates chain
// to a CA it trusts, as EKS issuers' do (the thumbprint list is optional in pulumi-aws v6.83.4).
func (b *builder) oidcProvider(cl *eks.Cluster) (*iam.OpenIdConnectProvider, error) {
	issuer := cl.EksCluster.Identities().Index(pulumi.Int(0)).Oidcs().Index(pulumi.Int(0)).Issuer().Elem()
	return iam.NewOpenIdConnectProvider(b.ctx, childName(b.name, "oidc"), &iam.OpenIdConnectProviderArgs{
		Url:           issuer,
		ClientIdLists: pulumi.StringArray{pulumi.String("sts.amazonaws.com")},
		Tags:          b.tags(b.args.ClusterName + "-oidc"),
	}, b.resource()...)
}
