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
}

// ClusterSummaryInput is an input of ClusterSummary.
type ClusterSummaryInput interface {
	pulumi.Input
	ToClusterSummaryOutput() ClusterSummaryOutput
	ToClusterSummaryOutputWithContext(context.Context) ClusterSummaryOutput
}

// ClusterSummaryArgs is a ClusterSummary of inputs.
type ClusterSummaryArgs struct {
	Region            pulumi.StringInput      `pulumi:"region"`
	Role              pulumi.StringInput      `pulumi:"role"`
	Environment       pulumi.StringInput      `pulumi:"environment"`
	KubernetesVersion pulumi.StringInput      `pulumi:"kubernetesVersion"`
	VpcCidr           pulumi.StringInput      `pulumi:"vpcCidr"`
	ClusterArn        pulumi.StringInput      `pulumi:"clusterArn"`
	Endpoint          pulumi.StringInput      `pulumi:"endpoint"`
	SecretName        pulumi.StringInput      `pulumi:"secretName"`
	SecretNamespace   pulumi.StringInput      `pulumi:"secretNamespace"`
	Labels            pulumi.StringMapInput   `pulumi:"labels"`
	StillTagged       pulumi.StringArrayInput `pulumi:"stillTagged"`
}

// ElementType is ClusterSummary.
func (ClusterSummaryArgs) ElementType() reflect.Type { return reflect.TypeFor[ClusterSummary]() }

// ToClusterSummaryOutput resolves the inputs.
func (i ClusterSummaryArgs) ToClusterSummaryOutput() ClusterSummaryOutput {
	return i.ToClusterSummaryOutputWithContext(context.Background())
}

// ToClusterSummaryOutputWithContext resolves the inputs.
func (i ClusterSummaryArgs) ToClusterSummaryOutputWithContext(ctx context.Context) ClusterSummaryOutput {
	return pulumi.ToOutputWithContext(ctx, i).(ClusterSummaryOutput)
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
	pulumi.RegisterInputType(reflect.TypeFor[ClusterSummaryInput](), ClusterSummaryArgs{})
	pulumi.RegisterInputType(reflect.TypeFor[ClusterSummaryMapInput](), ClusterSummaryMap{})
	pulumi.RegisterOutputType(ClusterSummaryOutput{})
	pulumi.RegisterOutputType(ClusterSummaryMapOutput{})
}
