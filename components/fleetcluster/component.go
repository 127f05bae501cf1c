package fleetcluster

import (
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// FleetCluster is one EKS cluster with its network, nodes, access and add-on identities. Its outputs are
// plain values (no resource references) so that programs in every language can use them.
//
// It builds a VPC (or uses vpcId and its subnets), the EKS cluster through pulumi-eks v2 with its managed node
// groups, access entries, secrets encryption and control plane logs, and for each enabled GitOps Bridge add-on the
// IAM role and AWS resources the add-on needs (EKS Pod Identity, or IRSA). clusterInfo is what a GitOpsBridge
// registers into Argo CD; gitopsAccess lets a hub's Argo CD manage the cluster without static credentials. Guide:
// https://github.com/gitops-fleet/pulumi-fleet/blob/main/docs/fleetcluster.md.
type FleetCluster struct {
	pulumi.ResourceState

	// ClusterName is the EKS cluster name.
	ClusterName pulumi.StringOutput `pulumi:"clusterName"`
	// ClusterArn is the EKS cluster ARN.
	ClusterArn pulumi.StringOutput `pulumi:"clusterArn"`
	// Endpoint is the Kubernetes API server URL ("https://...").
	Endpoint pulumi.StringOutput `pulumi:"endpoint"`
	// CertificateAuthorityData is the cluster CA certificate, base64-encoded PEM.
	CertificateAuthorityData pulumi.StringOutput `pulumi:"certificateAuthorityData"`
	// OidcProviderArn is the IAM OIDC provider of the cluster, for IRSA trust policies.
	OidcProviderArn pulumi.StringOutput `pulumi:"oidcProviderArn"`
	// OidcProviderUrl is the cluster's OIDC issuer URL ("https://oidc.eks.<region>.amazonaws.com/id/<id>").
	OidcProviderUrl pulumi.StringOutput `pulumi:"oidcProviderUrl"`
	// VpcId is the VPC the cluster runs in (built or given).
	VpcId pulumi.StringOutput `pulumi:"vpcId"`
	// PrivateSubnetIds are the subnets of the control plane's network interfaces and the nodes.
	PrivateSubnetIds pulumi.StringArrayOutput `pulumi:"privateSubnetIds"`
	// NatPublicIps are the public IPv4 addresses of the built VPC's NAT gateways, the cluster's egress to the
	// internet ("198.51.100.10"); empty for an existing VPC. A hub's addresses, as /32, are its spokes'
	// gitopsAccess.hubEgressCidrs.
	NatPublicIps pulumi.StringArrayOutput `pulumi:"natPublicIps"`
	// PublicSubnetIds are the subnets for internet-facing load balancers (empty for an existing VPC given
	// without public subnets).
	PublicSubnetIds pulumi.StringArrayOutput `pulumi:"publicSubnetIds"`
	// NodeRoleArn is the IAM role of the managed node groups.
	NodeRoleArn pulumi.StringOutput `pulumi:"nodeRoleArn"`
	// SpokeRoleArn is the role the Argo CD hub assumes to manage this cluster; "" without gitopsAccess.
	SpokeRoleArn pulumi.StringOutput `pulumi:"spokeRoleArn"`
	// Region is the cluster's AWS region, as reported by the provider the cluster was built with.
	Region pulumi.StringOutput `pulumi:"region"`
	// AccountId is the 12-digit AWS account of the cluster.
	AccountId pulumi.StringOutput `pulumi:"accountId"`
	// KubernetesVersion is the control plane's Kubernetes version ("1.33").
	KubernetesVersion pulumi.StringOutput `pulumi:"kubernetesVersion"`
	// Environment is the stage the cluster serves ("dev", "prod").
	Environment pulumi.StringOutput `pulumi:"environment"`
	// Kubeconfig is a secret kubeconfig (JSON) that authenticates with `aws eks get-token`; it holds no token.
	Kubeconfig pulumi.StringOutput `pulumi:"kubeconfig"`
	// Addons is the add-on map as given: GitOps Bridge name -> enabled.
	Addons pulumi.BoolMapOutput `pulumi:"addons"`
	// GitOpsMetadata holds the GitOps Bridge metadata keys (see GitOpsMetadata), ready to become the
	// annotations of the cluster's Argo CD cluster secret.
	GitOpsMetadata pulumi.StringMapOutput `pulumi:"gitopsMetadata"`
	// ClusterInfo gathers the facts above that GitOpsBridge's `cluster` input takes, so a FleetCluster
	// registers into Argo CD with no glue: clusterName, environment, server (the endpoint),
	// certificateAuthorityData, region, accountId, kubernetesVersion, kubeconfig (secret), spokeRoleArn,
	// gitopsMetadata and addons.
	ClusterInfo clusterinfo.ClusterInfoOutput `pulumi:"clusterInfo"`

	// info are ClusterInfo's facts each as its own output (Info).
	info clusterinfo.ClusterInfoArgs
}

// Info are the facts of ClusterInfo each as its own output, for a GitOpsBridge of the same program: a fact known at
// preview (the region, from the provider's config) stays known there, where ClusterInfo, one output, is unknown
// until every fact is (the endpoint, on a cluster's first up).
func (c *FleetCluster) Info() clusterinfo.ClusterInfoArgs { return c.info }

// NewFleetCluster validates args, then registers a FleetCluster and its children. A validation error
// (*ValidationError) lists every problem and leaves nothing registered.
func NewFleetCluster(ctx *pulumi.Context, name string, args FleetClusterArgs,
	opts ...pulumi.ResourceOption,
) (*FleetCluster, error) {
	a := withDefaults(args, name, ctx.Stack())
	if err := Validate(a, args); err != nil {
		return nil, err
	}
	comp := &FleetCluster{}
	if err := ctx.RegisterComponentResource(TypeToken, name, comp, opts...); err != nil {
		return nil, err
	}
	b, err := newBuilder(ctx, name, a, comp, opts)
	if err != nil {
		return nil, err
	}
	if err := b.build(); err != nil {
		return nil, err
	}
	return comp, ctx.RegisterResourceOutputs(comp, pulumi.Map{
		"clusterName":              comp.ClusterName,
		"clusterArn":               comp.ClusterArn,
		"endpoint":                 comp.Endpoint,
		"certificateAuthorityData": comp.CertificateAuthorityData,
		"oidcProviderArn":          comp.OidcProviderArn,
		"oidcProviderUrl":          comp.OidcProviderUrl,
		"vpcId":                    comp.VpcId,
		"privateSubnetIds":         comp.PrivateSubnetIds,
		"publicSubnetIds":          comp.PublicSubnetIds,
		"natPublicIps":             comp.NatPublicIps,
		"nodeRoleArn":              comp.NodeRoleArn,
		"spokeRoleArn":             comp.SpokeRoleArn,
		"region":                   comp.Region,
		"accountId":                comp.AccountId,
		"kubernetesVersion":        comp.KubernetesVersion,
		"environment":              comp.Environment,
		"kubeconfig":               comp.Kubeconfig,
		"addons":                   comp.Addons,
		"gitopsMetadata":           comp.GitOpsMetadata,
		"clusterInfo":              comp.ClusterInfo,
	})
}
