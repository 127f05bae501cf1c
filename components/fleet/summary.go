package fleet

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// ClusterSummary is what a program needs to know of one cluster of the fleet (Fleet's clusters output).
type ClusterSummary struct {
	// Region is the cluster's AWS region.
	Region string `pulumi:"region"`
	// Role is "hub" or "spoke".
	Role string `pulumi:"role"`
	// Environment is the cluster's GitOps Bridge environment.
	Environment string `pulumi:"environment"`
	// Wave is the cluster's rollout wave (its cluster secret's fleet_wave label): 0 for the hub, 1 or more for a
	// spoke, lower waves changing first.
	Wave int `pulumi:"wave"`
	// AddonsRepoRevision is the add-ons repository revision its cluster secret names (addons_repo_revision): its
	// own addonsRepoRevision, else repositories.addons.revision ("" for the repository's HEAD).
	AddonsRepoRevision string `pulumi:"addonsRepoRevision"`
	// KubernetesVersion is the control plane's Kubernetes version ("1.33").
	KubernetesVersion string `pulumi:"kubernetesVersion"`
	// VpcCidr is the VPC's CIDR, given or allocated from the pool.
	VpcCidr string `pulumi:"vpcCidr"`
	// ClusterArn is the EKS cluster ARN.
	ClusterArn string `pulumi:"clusterArn"`
	// Endpoint is the Kubernetes API server URL.
	Endpoint string `pulumi:"endpoint"`
	// SecretName is the name of the cluster's Argo CD cluster secret on the hub.
	SecretName string `pulumi:"secretName"`
	// SecretNamespace is the namespace of that secret.
	SecretNamespace string `pulumi:"secretNamespace"`
	// Labels are the cluster secret's labels (the GitOps Bridge selectors: environment, enable_<addon>, ...).
	Labels map[string]string `pulumi:"labels"`
	// StillTagged are, for a decommissioned cluster, the ARNs of what the add-on controllers made for it that AWS
	// still holds (load balancers, volumes, Karpenter's instances), as each up finds them (getStillTagged): empty
	// once Argo CD has removed the workloads and the controllers cleaned up, the moment to remove the entry.
	// Absent for other clusters.
	StillTagged []string `pulumi:"stillTagged,optional"`
	// Shard is the shard of the hub's fleet this stack's clusters belong to (hub.shard); "" for the clusters of the
	// hub's own stack or of a fleet without shards.
	Shard string `pulumi:"shard"`
	// NodeGroups are the cluster's managed node groups as built, defaults applied (FleetCluster's nodeGroups, else
	// its one default group).
	NodeGroups []NodeGroupSummary `pulumi:"nodeGroups"`
	// Addons are the add-ons enabled on the cluster (those given and those they imply), by GitOps Bridge name.
	Addons map[string]AddonSummary `pulumi:"addons"`
}

// NodeGroupSummary is one managed node group of a cluster.
type NodeGroupSummary struct {
	// Name is the node group's name.
	Name string `pulumi:"name"`
	// InstanceTypes are its EC2 instance types.
	InstanceTypes []string `pulumi:"instanceTypes"`
	// MinSize is the fewest nodes it scales to.
	MinSize int `pulumi:"minSize"`
	// DesiredSize is the node count it was built with.
	DesiredSize int `pulumi:"desiredSize"`
	// MaxSize is the most nodes it scales to.
	MaxSize int `pulumi:"maxSize"`
	// CapacityType is "ON_DEMAND" or "SPOT".
	CapacityType string `pulumi:"capacityType"`
}

// AddonSummary is one enabled add-on of a cluster.
type AddonSummary struct {
	// Version is the application version its AWS identity's policy is for: the cluster's addonVersions entry, else
	// the version the pinned add-ons template installs (docs/addons.md). Absent for an add-on without an identity and
	// for one EKS installs as a managed add-on (aws_ebs_csi_driver: EKS resolves its version for the cluster's).
	Version string `pulumi:"version,optional"`
	// IamRoleArn is the add-on's IAM role (the <addon>_iam_role_arn annotation of its cluster secret). Absent for an
	// add-on that calls no AWS API.
	IamRoleArn string `pulumi:"iamRoleArn,optional"`
	// Namespace is the namespace of its controller (the <addon>_namespace annotation); absent when the add-on has
	// no identity.
	Namespace string `pulumi:"namespace,optional"`
	// ThroughStack is true for a hub add-on the hub's stack installs itself (argocd.stackAddons, a Helm v4 Chart):
	// its cluster secret labels it false, so the add-ons repository makes no Application of it and an add-ons
	// rollout has nothing of it to wait for. Absent (false) for the add-ons the repository's ApplicationSets install.
	ThroughStack bool `pulumi:"throughStack,optional"`
}

// ClusterSummaryInput is an input of ClusterSummary.
type ClusterSummaryInput interface {
	pulumi.Input
	ToClusterSummaryOutput() ClusterSummaryOutput
	ToClusterSummaryOutputWithContext(context.Context) ClusterSummaryOutput
}

// ClusterSummaryOutput is an output of ClusterSummary.
type ClusterSummaryOutput struct{ *pulumi.OutputState }

// ElementType is ClusterSummary.
func (ClusterSummaryOutput) ElementType() reflect.Type { return reflect.TypeFor[ClusterSummary]() }

// ToClusterSummaryOutput is o.
func (o ClusterSummaryOutput) ToClusterSummaryOutput() ClusterSummaryOutput { return o }

// ToClusterSummaryOutputWithContext is o.
func (o ClusterSummaryOutput) ToClusterSummaryOutputWithContext(context.Context) ClusterSummaryOutput {
	return o
}

// ClusterSummaryMapInput is an input of map[string]ClusterSummary.
type ClusterSummaryMapInput interface {
	pulumi.Input
	ToClusterSummaryMapOutput() ClusterSummaryMapOutput
	ToClusterSummaryMapOutputWithContext(context.Context) ClusterSummaryMapOutput
}

// ClusterSummaryMap is cluster name -> summary, of inputs.
type ClusterSummaryMap map[string]ClusterSummaryInput

// ElementType is map[string]ClusterSummary.
func (ClusterSummaryMap) ElementType() reflect.Type {
	return reflect.TypeFor[map[string]ClusterSummary]()
}

// ToClusterSummaryMapOutput resolves the inputs.
func (i ClusterSummaryMap) ToClusterSummaryMapOutput() ClusterSummaryMapOutput {
	return i.ToClusterSummaryMapOutputWithContext(context.Background())
}

// ToClusterSummaryMapOutputWithContext resolves the inputs.
func (i ClusterSummaryMap) ToClusterSummaryMapOutputWithContext(ctx context.Context) ClusterSummaryMapOutput {
	return pulumi.ToOutputWithContext(ctx, i).(ClusterSummaryMapOutput)
}

// ClusterSummaryMapOutput is an output of map[string]ClusterSummary.
type ClusterSummaryMapOutput struct{ *pulumi.OutputState }

// ElementType is map[string]ClusterSummary.
func (ClusterSummaryMapOutput) ElementType() reflect.Type {
	return reflect.TypeFor[map[string]ClusterSummary]()
}

// ToClusterSummaryMapOutput is o.
func (o ClusterSummaryMapOutput) ToClusterSummaryMapOutput() ClusterSummaryMapOutput { return o }

// ToClusterSummaryMapOutputWithContext is o.
func (o ClusterSummaryMapOutput) ToClusterSummaryMapOutputWithContext(context.Context) ClusterSummaryMapOutput {
	return o
}

func init() {
	pulumi.RegisterInputType(reflect.TypeFor[ClusterSummaryMapInput](), ClusterSummaryMap{})
	pulumi.RegisterOutputType(ClusterSummaryOutput{})
	pulumi.RegisterOutputType(ClusterSummaryMapOutput{})
}
