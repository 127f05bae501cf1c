package rollout

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// Health is what the gate says of one cluster at a revision.
type Health struct {
	// State is Healthy (every add-on Application of the cluster compares at the revision, Synced and Healthy),
	// Failing (one of them is Degraded, or its sync at the revision failed), or Pending (Argo CD is not there yet).
	State string
	// Application and Message are, for a failing cluster, the Application and Argo CD's message.
	Application, Message string
}

// The states of a Health.
const (
	Healthy = "Healthy"
	Failing = "Failing"
	Pending = "Pending"
)

// Gate tells how each of clusters is doing at revision, and stops what Argo CD still tries there.
type Gate interface {
	Check(ctx context.Context, clusters []string, revision string) (map[string]Health, error)
	// Abort ends the sync operations of clusters' add-on Applications that are for revision and still running
	// (a failed attempt waiting for its retry included): Argo CD retries such an operation at its revision, with
	// growing pauses, before it syncs any other, so a rollback would wait for the retries of the revision it undoes.
	Abort(ctx context.Context, clusters []string, revision string) error
}

// ArgoCD is the gate of the hub's Argo CD, reached by Hub: the add-on Applications of each cluster (Applications in
// Namespace whose destination is the cluster's secret name, the GitOps Bridge ApplicationSets' addon-<cluster>-*).
// A cluster without any is Pending (its Applications are not generated yet).
type ArgoCD struct {
	Hub       dynamic.Interface
	Namespace string
}

// Check lists the Applications once and judges each cluster.
func (g ArgoCD) Check(ctx context.Context, clusters []string, revision string) (map[string]Health, error) {
	apps, err := status.Applications(ctx, g.Hub)
	if err != nil {
		return nil, err
	}
	out := map[string]Health{}
	for _, c := range clusters {
		out[c] = judge(apps, g.Namespace, c, revision)
	}
	return out, nil
}

// judge is cluster's Health at revision from apps: Failing at the first of its Applications that compares at the
// revision and is Degraded or says why it is not synced; Pending when one is not yet at the revision, Synced and
// Healthy, or when it has none; else Healthy.
func judge(apps []status.Application, namespace, cluster, revision string) Health {
	h, seen := Health{State: Healthy}, false
	for _, a := range apps {
		if a.Namespace != namespace || a.Cluster != cluster || !strings.HasPrefix(a.Name, "addon-") {
			continue
		}
		seen = true
		at := slices.Contains(a.Revisions, revision)
		// A failed sync says why only when that sync was of the revision (an earlier one's failure is not its).
		failedHere := a.Message != "" && a.Sync != "Synced" &&
			(len(a.OperationRevisions) == 0 || slices.Contains(a.OperationRevisions, revision))
		switch {
		case at && (a.Health == "Degraded" || failedHere):
			return Health{State: Failing, Application: a.Name, Message: cmp.Or(a.Message, "health "+a.Health)}
		case (!at || a.Sync != "Synced" || a.Health != "Healthy") && h.State != Pending:
			h = Health{State: Pending, Application: a.Name, Message: pendingState(a, revision)}
		}
	}
	if !seen {
		h = Health{State: Pending, Message: "no add-on Application of the cluster in " + namespace}
	}
	return h
}

// pendingState is what Argo CD says of an Application not yet Synced and Healthy at revision: its statuses, the
// revisions it compares at and its last sync's, and why.
func pendingState(a status.Application, revision string) string {
	s := a.Sync + "/" + a.Health
	if !slices.Contains(a.Revisions, revision) {
		s += ", compared at " + strings.Join(a.Revisions, ",")
	}
	if len(a.OperationRevisions) > 0 {
		s += ", last synced " + strings.Join(a.OperationRevisions, ",")
	}
	if a.Message != "" {
		s += ": " + a.Message
	}
	return s
}

// Abort asks Argo CD's application controller to terminate each running sync operation of the clusters' add-on
// Applications that is for revision, as `argocd app terminate-op` does: the operation state's phase set to
// Terminating (an Application's status is part of the object; Argo CD has no status subresource for it).
func (g ArgoCD) Abort(ctx context.Context, clusters []string, revision string) error {
	apps, err := status.Applications(ctx, g.Hub)
	if err != nil {
		return err
	}
	patch := []byte(`{"status":{"operationState":{"phase":"Terminating"}}}`)
	for _, a := range apps {
		if a.Namespace != g.Namespace || !slices.Contains(clusters, a.Cluster) || !strings.HasPrefix(a.Name, "addon-") ||
			a.Operation != "Running" || !slices.Contains(a.OperationRevisions, revision) {
			continue
		}
		if _, err := g.Hub.Resource(status.ApplicationsResource).Namespace(a.Namespace).Patch(ctx, a.Name,
			types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("terminating %s's sync of %s: %w", a.Name, revision, err)
		}
	}
	return nil
}
