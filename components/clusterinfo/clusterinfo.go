package clusterinfo

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// SpokeRolePath is the IAM path of the roles an Argo CD hub assumes to manage spoke clusters. FleetCluster
// creates spoke roles under it; GitOpsBridge's management role may assume roles under it and no others.
const SpokeRolePath = "/gitops-fleet/spoke/"

// ClusterInfo are the facts of a cluster that registering it into Argo CD needs. The kubeconfig is a
// secret; the other facts are not.
type ClusterInfo struct {
	// ClusterName is the EKS cluster name, also the name Argo CD shows for the cluster.
	ClusterName string `pulumi:"clusterName"`
	// Environment is the stage the cluster serves ("dev", "prod"); it becomes the `environment` label.
	Environment string `pulumi:"environment"`
	// Server is the Kubernetes API server URL ("https://<id>.gr7.<region>.eks.amazonaws.com").
	Server string `pulumi:"server"`
	// CertificateAuthorityData is the cluster CA certificate, base64-encoded PEM.
	CertificateAuthorityData string `pulumi:"certificateAuthorityData"`
	// Region is the cluster's AWS region ("us-east-1").
	Region string `pulumi:"region"`
	// AccountId is the 12-digit AWS account of the cluster.
	AccountId string `pulumi:"accountId"`
	// KubernetesVersion is the control plane's minor version ("1.33").
	KubernetesVersion string `pulumi:"kubernetesVersion"`
	// Kubeconfig reaches the cluster (JSON or YAML); a secret.
	Kubeconfig string `pulumi:"kubeconfig" provider:"secret"`
	// SpokeRoleArn is the IAM role an Argo CD hub assumes to manage the cluster ("" when there is none).
	// Default: "" (none).
	SpokeRoleArn string `pulumi:"spokeRoleArn,optional"`
	// GitOpsMetadata are the GitOps Bridge metadata keys (aws_cluster_name, aws_region, <addon>_iam_role_arn,
	// ...) that become the cluster secret's annotations. Default: none.
	GitOpsMetadata map[string]string `pulumi:"gitopsMetadata,optional"`
	// Addons are GitOps Bridge add-on names -> enabled; they become `enable_<addon>` labels. Default: none.
	Addons map[string]bool `pulumi:"addons,optional"`
}

// ClusterInfoInput is an input of ClusterInfo: ClusterInfoArgs or ClusterInfoOutput.
type ClusterInfoInput interface {
	pulumi.Input

	ToClusterInfoOutput() ClusterInfoOutput
	ToClusterInfoOutputWithContext(context.Context) ClusterInfoOutput
}

// ClusterInfoArgs is ClusterInfo with every fact an input, for clusters built outside this package.
type ClusterInfoArgs struct {
	ClusterName              pulumi.StringInput    `pulumi:"clusterName"`
	Environment              pulumi.StringInput    `pulumi:"environment"`
	Server                   pulumi.StringInput    `pulumi:"server"`
	CertificateAuthorityData pulumi.StringInput    `pulumi:"certificateAuthorityData"`
	Region                   pulumi.StringInput    `pulumi:"region"`
	AccountId                pulumi.StringInput    `pulumi:"accountId"`
	KubernetesVersion        pulumi.StringInput    `pulumi:"kubernetesVersion"`
	Kubeconfig               pulumi.StringInput    `pulumi:"kubeconfig"`
	SpokeRoleArn             pulumi.StringInput    `pulumi:"spokeRoleArn"`
	GitOpsMetadata           pulumi.StringMapInput `pulumi:"gitopsMetadata"`
	Addons                   pulumi.BoolMapInput   `pulumi:"addons"`
}

// ElementType implements pulumi.Input.
func (ClusterInfoArgs) ElementType() reflect.Type { return reflect.TypeFor[ClusterInfo]() }

// ToClusterInfoOutput implements ClusterInfoInput.
func (i ClusterInfoArgs) ToClusterInfoOutput() ClusterInfoOutput {
	return i.ToClusterInfoOutputWithContext(context.Background())
}

// ToClusterInfoOutputWithContext implements ClusterInfoInput.
func (i ClusterInfoArgs) ToClusterInfoOutputWithContext(ctx context.Context) ClusterInfoOutput {
	return pulumi.ToOutputWithContext(ctx, i).(ClusterInfoOutput)
}

// ClusterInfoOutput is an output of ClusterInfo.
type ClusterInfoOutput struct{ *pulumi.OutputState }

// ElementType implements pulumi.Output.
func (ClusterInfoOutput) ElementType() reflect.Type { return reflect.TypeFor[ClusterInfo]() }

// ToClusterInfoOutput implements ClusterInfoInput.
func (o ClusterInfoOutput) ToClusterInfoOutput() ClusterInfoOutput { return o }

// ToClusterInfoOutputWithContext implements ClusterInfoInput.
func (o ClusterInfoOutput) ToClusterInfoOutputWithContext(context.Context) ClusterInfoOutput {
	return o
}

func init() {
	pulumi.RegisterInputType(reflect.TypeFor[ClusterInfoInput](), ClusterInfoArgs{})
	pulumi.RegisterOutputType(ClusterInfoOutput{})
}
