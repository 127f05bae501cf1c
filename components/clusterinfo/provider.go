package clusterinfo

import (
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// NewKubernetesProvider is the Kubernetes provider every component of the fleet builds to reach a cluster from its
// kubeconfig (kept secret), named name.
//
// It updates Secrets and ConfigMaps in place (the provider's enableSecretMutable and enableConfigMapMutable). By
// default the Pulumi Kubernetes provider v4 treats both as immutable and replaces one whose data changes, deleting
// it first when it has a fixed name: any change of an Argo CD cluster secret (an add-on toggled, a label or an
// annotation) would then unregister the cluster for a moment, and Argo CD's ApplicationSets delete the Applications
// it generated for that cluster, whose resources finalizer prunes the add-ons from it. Measured on a real API server
// through the real provider (TestDay2, 2026-11-26): toggling an add-on planned the spoke's cluster secret as a
// replacement. A provider given explicitly (pulumi.Provider or pulumi.Providers) is used as it is: set both there.
func NewKubernetesProvider(ctx *pulumi.Context, name string, kubeconfig pulumi.StringInput, opts ...pulumi.ResourceOption) (*kubernetes.Provider, error) {
	return kubernetes.NewProvider(ctx, name, &kubernetes.ProviderArgs{
		Kubeconfig:             pulumi.ToSecret(kubeconfig).(pulumi.StringOutput),
		EnableSecretMutable:    pulumi.BoolPtr(true),
		EnableConfigMapMutable: pulumi.BoolPtr(true),
	}, opts...)
}
