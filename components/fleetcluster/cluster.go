package fleetcluster

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/kms"
	"github.com/pulumi/pulumi-eks/sdk/v2/go/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// cluster builds the KMS key for secrets encryption and the pulumi-eks cluster: private endpoint on, no
// default self-managed node group, pulumi-eks's OIDC provider off (see oidcProvider), pulumi-eks's kubectl-based VPC CNI off (the managed
// vpc-cni add-on replaces it), and the node role kept in aws-auth through the instance roles.
func (b *builder) cluster(net network, nodeRole *iam.Role, spokeRoleArn pulumi.StringOutput) (*eks.Cluster, error) {
	a := b.args
	var keyArn pulumi.StringPtrInput
	var key *kms.Key
	if *a.SecretsEncryption {
		var err error
		key, err = kms.NewKey(b.ctx, childName(b.name, "secrets-key"), &kms.KeyArgs{
			Description:       pulumi.Sprintf("Envelope encryption of Kubernetes secrets of EKS cluster %s", a.ClusterName),
			EnableKeyRotation: pulumi.Bool(true),
			Tags:              b.tags(a.ClusterName + "-secrets"),
		}, b.resource()...)
		if err != nil {
			return nil, err
		}
		keyArn = key.Arn
	}
	publicAccess, publicCidrs := b.endpointAccess()
	mode := eks.AuthenticationMode(a.AuthenticationMode)
	cl, err := eks.NewCluster(b.ctx, childName(b.name, "cluster"), &eks.ClusterArgs{
		Name:                         pulumi.String(a.ClusterName),
		Version:                      pulumi.String(a.Version),
		VpcId:                        net.vpcID,
		PrivateSubnetIds:             net.privateSubnets,
		PublicSubnetIds:              net.publicSubnets,
		NodeAssociatePublicIpAddress: ptr(false),
		EndpointPrivateAccess:        pulumi.Bool(true),
		EndpointPublicAccess:         publicAccess,
		PublicAccessCidrs:            publicCidrs,
		EnabledClusterLogTypes:       pulumi.ToStringArray(a.EnabledClusterLogTypes),
		EncryptionConfigKeyArn:       keyArn,
		CreateOidcProvider:           pulumi.Bool(false),
		SkipDefaultNodeGroup:         ptr(true),
		UseDefaultVpcCni:             ptr(true),
		AuthenticationMode:           &mode,
		InstanceRoles:                iam.RoleArray{nodeRole},
		RoleMappings:                 roleMappings(a.RoleMappings),
		UserMappings:                 userMappings(a.UserMappings),
		AccessEntries:                b.accessEntries(spokeRoleArn),
		Tags:                         b.tags(a.ClusterName),
		ProviderCredentialOpts:       secretKubeconfig(),
	}, b.component()...)
	if err != nil || key == nil {
		return cl, err
	}
	return cl, b.secretsKeyPolicy(key, cl)
}

// endpointAccess is whether the API server's public endpoint is on and who may reach it. With
// gitopsAccess.hubEgressCidrs and the endpoint not turned off: the given publicAccessCidrs plus the hub's, and
// on only when that list is not empty (an empty list must not open the endpoint to EKS's default 0.0.0.0/0).
func (b *builder) endpointAccess() (pulumi.BoolPtrInput, pulumi.StringArrayInput) {
	a := b.args
	var given pulumi.StringArrayInput
	if len(a.PublicAccessCidrs) > 0 {
		given = pulumi.ToStringArray(a.PublicAccessCidrs)
	}
	if !hubEgress(a) || !*a.EndpointPublicAccess {
		return pulumi.Bool(*a.EndpointPublicAccess), given
	}
	cidrs := pulumi.All(pulumi.ToStringArray(a.PublicAccessCidrs), a.GitOpsAccess.HubEgressCidrs).ApplyT(
		func(v []any) []string { return PublicAccessCidrs(v[0].([]string), v[1].([]string)) }).(pulumi.StringArrayOutput)
	on := cidrs.ApplyT(func(c []string) bool { return len(c) > 0 }).(pulumi.BoolOutput)
	return on, cidrs
}

// hubEgress tells whether the hub's egress CIDRs are given.
func hubEgress(a FleetClusterArgs) bool {
	return a.GitOpsAccess != nil && a.GitOpsAccess.HubEgressCidrs != nil
}

// PublicAccessCidrs are the networks allowed to reach the public endpoint: given, then the hub's egress CIDRs
// not already listed; nil (the input left out, as for a private cluster) when there are none.
func PublicAccessCidrs(given, hubEgress []string) []string {
	var out []string
	for _, c := range append(slices.Clone(given), hubEgress...) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// secretsKeyPolicy sets the key's explicit policy (SecretsKeyPolicy) once the cluster exists: it names the
// cluster's role, which pulumi-eks creates with the cluster, so it is a separate kms.KeyPolicy rather than the
// key's own policy. Until then the key has KMS's default policy, which EKS's CreateCluster uses.
func (b *builder) secretsKeyPolicy(key *kms.Key, cl *eks.Cluster) error {
	admins := pulumi.ToStringArray(b.args.SecretsKeyAdministratorArns).ToStringArrayOutput()
	if len(b.args.SecretsKeyAdministratorArns) == 0 {
		caller := aws.GetCallerIdentityOutput(b.ctx, aws.GetCallerIdentityOutputArgs{}, pulumi.Provider(b.aws)).Arn()
		issuer := iam.GetSessionContextOutput(b.ctx, iam.GetSessionContextOutputArgs{Arn: caller}, pulumi.Provider(b.aws)).IssuerArn()
		admins = pulumi.StringArray{issuer}.ToStringArrayOutput()
	}
	_, err := kms.NewKeyPolicy(b.ctx, childName(b.name, "secrets-key"), &kms.KeyPolicyArgs{
		KeyId: key.KeyId,
		Policy: pulumi.All(admins, cl.EksCluster.RoleArn()).ApplyT(func(v []any) string {
			return SecretsKeyPolicy(v[0].([]string), v[1].(string)).JSON()
		}).(pulumi.StringOutput),
	}, b.resource()...)
	return err
}

// secretKubeconfig are empty kubeconfig options (the kubeconfigs run `aws eks get-token` with the ambient AWS
// credentials) marked secret. pulumi-eks v2.8.1 builds its kubeconfigs from these options, so the secret mark
// reaches every copy it keeps: its kubeconfig and kubeconfigJson outputs and the inputs of the two Kubernetes
// providers it creates. Without it those land in plaintext in the stack's state.
func secretKubeconfig() eks.KubeconfigOptionsPtrOutput {
	return pulumi.ToSecret(eks.KubeconfigOptionsArgs{}.ToKubeconfigOptionsOutput()).(eks.KubeconfigOptionsOutput).
		ToKubeconfigOptionsPtrOutput()
}

// managedAddonsAndNodes installs the EKS managed add-ons around the node groups. The node agents (vpc-cni,
// kube-proxy, eks-pod-identity-agent: DaemonSets, healthy with no nodes, and nodes need the CNI to become Ready)
// come before the node groups; coredns, whose Deployment EKS reports DEGRADED until its pods run, after them.
// Every add-on is pinned to the default version EKS lists for the cluster's Kubernetes version and depends on
// the cluster, and the node groups on the node agents, so raising the version updates the control plane, then
// the node agents, then the node groups (kubelets never newer than their kube-proxy's API server), then coredns.
// It returns the node groups, which add-ons with pods wait for.
func (b *builder) managedAddonsAndNodes(cl *eks.Cluster, net network, nodeRole *iam.Role) ([]pulumi.Resource, error) {
	var agents []pulumi.Resource
	for _, addon := range NodeAgentAddons {
		a, err := b.managedAddon(cl.EksCluster.Name(), addon, nil)
		if err != nil {
			return nil, fmt.Errorf("managed add-on %s: %w", addon, err)
		}
		agents = append(agents, a)
		if addon == PodIdentityAgentAddon {
			b.podIdentityAgent = a
		}
	}
	var nodes []pulumi.Resource
	for _, ng := range b.args.NodeGroups {
		mng, err := b.nodeGroup(cl, net, nodeRole, ng, agents)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, mng)
	}
	for _, addon := range WorkloadAddons {
		if _, err := b.managedAddon(cl.EksCluster.Name(), addon, nodes); err != nil {
			return nil, fmt.Errorf("managed add-on %s: %w", addon, err)
		}
	}
	return nodes, nil
}

// NodeAgentAddons are the EKS managed add-ons every cluster gets before its node groups, in install order.
var NodeAgentAddons = []string{VPCCNIAddon, "kube-proxy", PodIdentityAgentAddon}

// VPCCNIAddon is the EKS managed add-on of the Amazon VPC CNI plugin.
const VPCCNIAddon = "vpc-cni"

// VPCCNINetworkPolicyConfiguration is the vpc-cni add-on's configuration with networkPolicy: its network policy
// agent on (the add-on's configuration schema takes the flag as a string).
const VPCCNINetworkPolicyConfiguration = `{"enableNetworkPolicy":"true"}`

// EBSCSIDriverAddon is the EKS managed add-on of the EBS CSI driver.
const EBSCSIDriverAddon = "aws-ebs-csi-driver"

// EBSCSIDriverConfiguration is the EBS CSI driver add-on's configuration: every volume it creates also carries
// the tag KubernetesCluster=<cluster> (controller.extraVolumeTags of the add-on's configuration schema), beside
// the driver's own ebs.csi.aws.com/cluster=true, so what it made for a cluster can be found by tag before the
// cluster is removed (components/drain).
func EBSCSIDriverConfiguration(cluster string) string {
	b, _ := json.Marshal(map[string]any{"controller": map[string]any{"extraVolumeTags": map[string]string{"KubernetesCluster": cluster}}})
	return string(b)
}

// PodIdentityAgentAddon is the EKS managed add-on that serves EKS Pod Identity credentials on every node.
const PodIdentityAgentAddon = "eks-pod-identity-agent"

// WorkloadAddons are the EKS managed add-ons every cluster gets after its node groups (their pods need nodes).
var WorkloadAddons = []string{"coredns"}

// managedAddon installs an EKS managed add-on at the default version for the cluster's Kubernetes version.
// OVERWRITE lets the managed add-on take over the self-managed copy EKS installs with every new cluster.
func (b *builder) managedAddon(cluster pulumi.StringOutput, addon string, after []pulumi.Resource) (*awseks.Addon, error) {
	return b.managedAddonWithRole(cluster, addon, nil, after)
}

// managedAddonWithRole installs an EKS managed add-on whose service account assumes roleArn (IRSA), or none
// when roleArn is nil, at the default version EKS lists for the cluster's Kubernetes version
// (aws.eks.getAddonVersion, DescribeAddonVersions), so a version change upgrades it.
func (b *builder) managedAddonWithRole(cluster pulumi.StringOutput, addon string, roleArn pulumi.StringInput,
	after []pulumi.Resource,
) (*awseks.Addon, error) {
	var config pulumi.StringPtrInput
	switch {
	case addon == EBSCSIDriverAddon:
		config = pulumi.String(EBSCSIDriverConfiguration(b.args.ClusterName))
	case addon == VPCCNIAddon && b.args.NetworkPolicy:
		config = pulumi.String(VPCCNINetworkPolicyConfiguration)
	}
	version := awseks.GetAddonVersionOutput(b.ctx, awseks.GetAddonVersionOutputArgs{
		AddonName:         pulumi.String(addon),
		KubernetesVersion: pulumi.String(b.args.Version),
	}, pulumi.Provider(b.aws)).Version()
	return awseks.NewAddon(b.ctx, childName(b.name, addon), &awseks.AddonArgs{
		ClusterName:              cluster,
		AddonName:                pulumi.String(addon),
		AddonVersion:             version,
		ServiceAccountRoleArn:    roleArn,
		ConfigurationValues:      config,
		ResolveConflictsOnCreate: pulumi.String("OVERWRITE"),
		ResolveConflictsOnUpdate: pulumi.String("OVERWRITE"),
		Tags:                     b.tags(b.args.ClusterName + "-" + addon),
	}, b.resource(pulumi.DependsOn(after))...)
}
