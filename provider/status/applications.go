package status

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// ApplicationsResource is Argo CD's Application resource (argoproj.io/v1alpha1).
var ApplicationsResource = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}

// Application is what Argo CD says of one of its Applications on a hub.
type Application struct {
	// Namespace and Name are the Application's.
	Namespace, Name string
	// Cluster is its destination: a cluster secret's name, the server's URL, or "in-cluster" for the hub's own.
	Cluster string
	// Sync and Health are Argo CD's statuses (Synced, OutOfSync; Healthy, Progressing, Degraded, Missing...).
	Sync, Health string
	// Message is why it is not Synced and Healthy: its failed sync operation's message or its first condition, if
	// any (why).
	Message string
	// ReconciledAt is when Argo CD last compared it with Git (status.reconciledAt), zero before the first time.
	ReconciledAt time.Time
	// Revisions are the revisions Argo CD last compared it at (status.sync.revision, or one per source of a
	// multi-source Application: status.sync.revisions), Git commits resolved to their SHA.
	Revisions []string
	// OperationRevisions are the revisions its last sync operation is or was for (status.operationState.operation.sync's
	// revision or revisions: a failed attempt waiting for its retry says them, before any sync result); none before
	// the first.
	OperationRevisions []string
	// Operation is its last sync operation's phase (Running, Terminating, Succeeded, Failed, Error); "" before the
	// first.
	Operation string
	// OperationStartedAt is when its last sync operation started (status.operationState.startedAt; its retries keep
	// it), zero before the first.
	OperationStartedAt time.Time
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
	list, err := dyn.Resource(ApplicationsResource).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []Application
	for _, u := range list.Items {
		out = append(out, ApplicationOf(u))
	}
	slices.SortFunc(out, func(a, b Application) int {
		return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

// ApplicationOf reads one Application object: its destination, statuses, revisions, last sync operation and, when
// it is not Synced and Healthy, why.
func ApplicationOf(u unstructured.Unstructured) Application {
	str := func(path ...string) string { s, _, _ := unstructured.NestedString(u.Object, path...); return s }
	a := Application{Namespace: u.GetNamespace(), Name: u.GetName(), Cluster: str("spec", "destination", "name"),
		Sync: str("status", "sync", "status"), Health: str("status", "health", "status")}
	if a.Cluster == "" {
		a.Cluster = str("spec", "destination", "server")
	}
	a.ReconciledAt, _ = time.Parse(time.RFC3339, str("status", "reconciledAt"))
	a.Revisions, _, _ = unstructured.NestedStringSlice(u.Object, "status", "sync", "revisions")
	if r := str("status", "sync", "revision"); r != "" {
		a.Revisions = append(a.Revisions, r)
	}
	a.Operation = str("status", "operationState", "phase")
	a.OperationStartedAt, _ = time.Parse(time.RFC3339, str("status", "operationState", "startedAt"))
	a.OperationRevisions, _, _ = unstructured.NestedStringSlice(u.Object, "status", "operationState", "operation", "sync", "revisions")
	if r := str("status", "operationState", "operation", "sync", "revision"); r != "" {
		a.OperationRevisions = append(a.OperationRevisions, r)
	}
	if a.Cluster == inClusterServer {
		a.Cluster = "in-cluster"
	}
	if a.Sync != "Synced" || a.Health != "Healthy" {
		a.Message = why(u)
	}
	return a
}

// why is why an Application is not Synced and Healthy: the message of its last sync operation if that operation
// failed, else its first condition ("type: message"), else "". An attempt still running says nothing yet: Argo CD
// (controller/appcontroller.go, v3.5) writes a failed attempt's reason and the next retry's time while it waits
// ("<reason>. Retrying attempt #1 at 6:04AM.", phase Running with finishedAt set), then replaces it with "Retrying
// operation. Attempt #1" (finishedAt unset) while the retry runs; and a Succeeded operation's message ("successfully
// synced") is no reason.
func why(u unstructured.Unstructured) string {
	str := func(path ...string) string { s, _, _ := unstructured.NestedString(u.Object, path...); return s }
	phase, finished := str("status", "operationState", "phase"), str("status", "operationState", "finishedAt") != ""
	if phase == "Failed" || phase == "Error" || phase == "Running" && finished {
		return str("status", "operationState", "message")
	}
	if conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions"); len(conditions) > 0 {
		c, _ := conditions[0].(map[string]any)
		return fmt.Sprintf("%v: %v", c["type"], c["message"])
	}
	return ""
}

// inClusterServer is the API server address a hub's Argo CD names its own cluster by (gitopsbridge.InClusterServer,
// not imported: fleet status stays apart from the components).
const inClusterServer = "https://kubernetes.default.svc"
