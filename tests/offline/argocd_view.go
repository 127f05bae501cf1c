package offline

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// Application is what Argo CD says of one of its Applications on a hub.
type Application struct {
	// Namespace and Name are the Application's.
	Namespace, Name string
	// Cluster is its destination: a cluster secret's name, the server's URL, or "in-cluster" for the hub's own.
	Cluster string
	// Sync and Health are Argo CD's statuses (Synced, OutOfSync; Healthy, Progressing, Degraded, Missing...).
	Sync, Health string
	// Message is why it is not Synced and Healthy: its operation's message or its first condition, if any.
	Message string
	// ReconciledAt is when Argo CD last compared it with Git (status.reconciledAt), zero before the first time.
	ReconciledAt time.Time
}

// Settled says that Argo CD has finished with it for now: Synced, and neither Progressing nor Missing; or not, and
// saying why (a repository that is not there, a refused sync). An OutOfSync Application without a reason is one
// Argo CD has yet to sync.
func (a Application) Settled() bool {
	if a.Sync == "Synced" {
		return a.Health != "Progressing" && a.Health != "Missing"
	}
	return a.Sync != "" && a.Message != ""
}

// Applications lists Argo CD's Applications in every namespace of the hub dyn reaches, by cluster then name.
func Applications(ctx context.Context, dyn dynamic.Interface) ([]Application, error) {
	list, err := dyn.Resource(applications).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []Application
	for _, u := range list.Items {
		str := func(path ...string) string { s, _, _ := unstructured.NestedString(u.Object, path...); return s }
		a := Application{Namespace: u.GetNamespace(), Name: u.GetName(), Cluster: str("spec", "destination", "name"),
			Sync: str("status", "sync", "status"), Health: str("status", "health", "status")}
		if a.Cluster == "" {
			a.Cluster = str("spec", "destination", "server")
		}
		a.ReconciledAt, _ = time.Parse(time.RFC3339, str("status", "reconciledAt"))
		if a.Cluster == gitopsbridge.InClusterServer {
			a.Cluster = "in-cluster"
		}
		if a.Sync != "Synced" || a.Health != "Healthy" {
			a.Message = str("status", "operationState", "message")
			if conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions"); a.Message == "" && len(conditions) > 0 {
				c, _ := conditions[0].(map[string]any)
				a.Message = fmt.Sprintf("%v: %v", c["type"], c["message"])
			}
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Application) int {
		return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

// WaitForApplications lists the hub's Applications until each has been reconciled since since (a second's
// precision) and has Settled, or timeout has passed: it returns the last list.
func WaitForApplications(ctx context.Context, dyn dynamic.Interface, since time.Time, timeout time.Duration) ([]Application, error) {
	deadline := time.Now().Add(timeout)
	pending := func(a Application) bool { return a.ReconciledAt.Before(since.Truncate(time.Second)) || !a.Settled() }
	for {
		apps, err := Applications(ctx, dyn)
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
	list, err := dyn.Resource(applications).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, u := range list.Items {
		if err := RefreshApplication(ctx, dyn.Resource(applications).Namespace(u.GetNamespace()), u.GetName()); err != nil {
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
