package offline

import (
	"context"
	"encoding/json"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

// applications are Argo CD's Applications (the CRD of the chart the hub installs).

// releaseApplications stands in for the one thing Argo CD's application controller must do for a destroy to end,
// on a hub where Argo CD itself does not run (see ArgoCDRuns): an Application deleted with Argo CD's resources finalizer
// (delivery.ResourcesFinalizer) has what it synced deleted, then the finalizer removed. Nothing syncs here, so
// there is nothing to delete: on control plane name, it removes the finalizer from each Application being deleted.
func releaseApplications(ctx context.Context, clusters controlplane.Clusters, name string) {
	dyn, err := clusters.Dynamic(name)
	if err != nil {
		return
	}
	apps, err := dyn.Resource(status.ApplicationsResource).List(ctx, metav1.ListOptions{})
	if err != nil { // no Argo CD here, or the server is going away
		return
	}
	for _, app := range apps.Items {
		finalizers := app.GetFinalizers()
		if app.GetDeletionTimestamp() == nil || !slices.Contains(finalizers, delivery.ResourcesFinalizer) {
			continue
		}
		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{
			"resourceVersion": app.GetResourceVersion(),
			"finalizers":      slices.DeleteFunc(finalizers, func(f string) bool { return f == delivery.ResourcesFinalizer }),
		}})
		_, _ = dyn.Resource(status.ApplicationsResource).Namespace(app.GetNamespace()).Patch(ctx, app.GetName(),
			types.MergePatchType, patch, metav1.PatchOptions{})
	}
}

// ArgoCDRuns says that Argo CD's own application controller runs on the control plane name (tests/argocdhub), so
// the stand-in that releases deleted Applications (releaseApplications) stays off it: Argo CD deletes what it synced
// and removes its finalizer itself. The returned func turns the stand-in back on, once Argo CD stops.
func (e *Env) ArgoCDRuns(name string) (stopped func()) {
	e.argocd.Store(name, true)
	return func() { e.argocd.Delete(name) }
}
