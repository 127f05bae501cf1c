package offline

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// Application is what Argo CD says of one of its Applications on a hub (fleet status reads the same).
type Application = status.Application

// WaitForApplications lists the hub's Applications until each has been reconciled since since (a second's
// precision) and has Settled, or timeout has passed: it returns the last list.
func WaitForApplications(ctx context.Context, dyn dynamic.Interface, since time.Time, timeout time.Duration) ([]Application, error) {
	deadline := time.Now().Add(timeout)
	pending := func(a Application) bool { return a.ReconciledAt.Before(since.Truncate(time.Second)) || !a.Settled() }
	for {
		apps, err := status.Applications(ctx, dyn)
		if err == nil && len(apps) > 0 && !slices.ContainsFunc(apps, pending) ||
			time.Now().After(deadline) {
			return apps, err
		}
		time.Sleep(2 * time.Second)
	}
}

// RefreshApplications asks Argo CD to compare every Application on the hub with Git now (RefreshApplication): a
// controller that restarts within its reconciliation period would otherwise keep the statuses it found.
func RefreshApplications(ctx context.Context, dyn dynamic.Interface) error {
	list, err := dyn.Resource(status.ApplicationsResource).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, u := range list.Items {
		if err := RefreshApplication(ctx, dyn.Resource(status.ApplicationsResource).Namespace(u.GetNamespace()), u.GetName()); err != nil {
			return err
		}
	}
	return nil
}

// RefreshApplication asks Argo CD to compare Application name of apps (the Applications of one namespace) with Git
// now: the annotation argocd.argoproj.io/refresh: normal, what the UI's Refresh and a push webhook to Argo CD's
// server do (neither runs here).
func RefreshApplication(ctx context.Context, apps dynamic.ResourceInterface, name string) error {
	_, err := apps.Patch(ctx, name, types.MergePatchType,
		[]byte(`{"metadata":{"annotations":{"argocd.argoproj.io/refresh":"normal"}}}`), metav1.PatchOptions{})
	return err
}

// PrintApplications prints Argo CD's view: per destination cluster, each Application with its sync and health, and
// why when it is not Synced and Healthy.
func PrintApplications(w io.Writer, apps []Application) {
	fmt.Fprintf(w, "  %-12s %-62s %-10s %s\n", "CLUSTER", "APPLICATION", "SYNC", "HEALTH")
	for _, a := range apps {
		fmt.Fprintf(w, "  %-12s %-62s %-10s %s\n", a.Cluster, a.Namespace+"/"+a.Name, a.Sync, a.Health)
		if msg := strings.Join(strings.Fields(a.Message), " "); msg != "" {
			if len(msg) > 160 {
				msg = msg[:157] + "..."
			}
			fmt.Fprintf(w, "  %-12s   %s\n", "", msg)
		}
	}
}
