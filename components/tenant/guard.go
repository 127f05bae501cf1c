package tenant

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/pulumi/pulumi-go-provider/infer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// GuardToken is the type of the TenantGuard resource.
const GuardToken = "fleet:index:TenantGuard"

// TenantGuard keeps a tenant's data: with preventDeletion, it refuses (on delete, or on an update that drops
// namespaces) to let the tenant's namespaces on one cluster go while they hold PersistentVolumeClaims. Its
// dependsOn are what the tenant registered for that cluster (its hub objects, roles and namespaces' objects), so
// the engine deletes them only once the guard lets them go.
type TenantGuard struct{}

// Annotate gives TenantGuard its schema description.
func (g *TenantGuard) Annotate(a infer.Annotator) {
	a.Describe(g, "TenantGuard refuses, while preventDeletion is set, to let a tenant's namespaces on a cluster be "+
		"removed while they hold PersistentVolumeClaims (it lists them through the cluster's API, authenticated like "+
		"`aws eks get-token`). Fleet creates one per tenant and cluster.")
}

// TenantGuardArgs are the inputs of a TenantGuard.
type TenantGuardArgs struct {
	// Tenant is the tenant's name.
	Tenant string `pulumi:"tenant"`
	// ClusterName is the EKS cluster's name.
	ClusterName string `pulumi:"clusterName"`
	// Region is the cluster's AWS region.
	Region string `pulumi:"region"`
	// Endpoint is the cluster's API server URL.
	Endpoint string `pulumi:"endpoint"`
	// CertificateAuthorityData is the cluster's CA bundle, base64 PEM.
	CertificateAuthorityData string `pulumi:"certificateAuthorityData"`
	// AssumeRoleArn is the role to reach the cluster as. Default: the ambient credentials.
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	// Namespaces are the tenant's namespaces on the cluster.
	Namespaces []string `pulumi:"namespaces"`
	// PreventDeletion refuses removals of namespaces that hold claims.
	PreventDeletion bool `pulumi:"preventDeletion"`
}

// TenantGuardState is the guard as recorded.
type TenantGuardState struct {
	TenantGuardArgs
}

// Create records the inputs.
func (TenantGuard) Create(_ context.Context, req infer.CreateRequest[TenantGuardArgs]) (infer.CreateResponse[TenantGuardState], error) {
	return infer.CreateResponse[TenantGuardState]{ID: req.Inputs.Tenant + "/" + req.Inputs.ClusterName,
		Output: TenantGuardState{req.Inputs}}, nil
}

// Update refuses to drop namespaces that hold claims while the recorded guard prevents deletion (as a delete
// does: turning preventDeletion off takes a run of its own), then records.
func (TenantGuard) Update(ctx context.Context, req infer.UpdateRequest[TenantGuardArgs, TenantGuardState],
) (infer.UpdateResponse[TenantGuardState], error) {
	var dropped []string
	for _, n := range req.State.Namespaces {
		if !slices.Contains(req.Inputs.Namespaces, n) {
			dropped = append(dropped, n)
		}
	}
	if !req.DryRun && req.State.PreventDeletion && len(dropped) > 0 {
		if err := req.State.refuse(ctx, dropped); err != nil {
			return infer.UpdateResponse[TenantGuardState]{}, err
		}
	}
	return infer.UpdateResponse[TenantGuardState]{Output: TenantGuardState{req.Inputs}}, nil
}

// Delete refuses while the namespaces hold claims, unless the recorded guard lets them go.
func (TenantGuard) Delete(ctx context.Context, req infer.DeleteRequest[TenantGuardState]) (infer.DeleteResponse, error) {
	if !req.State.PreventDeletion {
		return infer.DeleteResponse{}, nil
	}
	return infer.DeleteResponse{}, req.State.refuse(ctx, req.State.Namespaces)
}

var claims = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}

// kubeClient reaches a cluster's API (a variable for the tests).
var kubeClient = drain.KubeClient

// refuse is an error naming the claims namespaces hold, or nil when they hold none.
func (a TenantGuardArgs) refuse(ctx context.Context, namespaces []string) error {
	kube, err := kubeClient(a.ClusterName, a.Region, a.Endpoint, a.CertificateAuthorityData, a.AssumeRoleArn)
	if err != nil {
		return fmt.Errorf("tenant %q on cluster %q: %w", a.Tenant, a.ClusterName, err)
	}
	held, err := heldClaims(ctx, kube, namespaces)
	if err != nil {
		return fmt.Errorf("tenant %q on cluster %q: listing its claims: %w", a.Tenant, a.ClusterName, err)
	}
	if len(held) == 0 {
		return nil
	}
	return fmt.Errorf("tenant %q: its namespaces on cluster %q hold PersistentVolumeClaims (%s), and preventDeletion "+
		"is set; move or delete that data, or set preventDeletion: false on the tenant and run up first, then remove it",
		a.Tenant, a.ClusterName, strings.Join(held, ", "))
}

// heldClaims are the claims of namespaces, "<namespace>/<name>", sorted.
func heldClaims(ctx context.Context, kube dynamic.Interface, namespaces []string) ([]string, error) {
	var out []string
	for _, ns := range namespaces {
		list, err := kube.Resource(claims).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, c := range list.Items {
			out = append(out, ns+"/"+c.GetName())
		}
	}
	slices.Sort(out)
	return out, nil
}
