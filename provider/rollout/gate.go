package rollout

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
	// Check says how each of clusters is doing at revision; a failed sync counts only when it started at since or
	// later (zero: any), so an operation of the revision ended before (a rollback's Abort) is not this wave's.
	Check(ctx context.Context, clusters []string, revision string, since time.Time) (map[string]Health, error)
	// Resync asks Argo CD to sync again each of clusters' add-on Applications that compares at revision and whose
	// last sync operation, of revision, failed before since (a rollback's Abort ended it): Argo CD's automated sync
	// never tries a revision again after a failed attempt of it, so a retried rollout would wait for nothing.
	Resync(ctx context.Context, clusters []string, revision string, since time.Time) error
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
func (g ArgoCD) Check(ctx context.Context, clusters []string, revision string, since time.Time) (map[string]Health, error) {
	apps, err := status.Applications(ctx, g.Hub)
	if err != nil {
		return nil, err
	}
	out := map[string]Health{}
	for _, c := range clusters {
		out[c] = judge(apps, g.Namespace, c, revision, since)
	}
	return out, nil
}

// judge is cluster's Health at revision from apps: Failing at the first of its Applications that compares at the
// revision and is Degraded or says why it is not synced (of a sync operation started at since or later); Pending
// when one is not yet at the revision, Synced and Healthy, or when it has none; else Healthy.
func judge(apps []status.Application, namespace, cluster, revision string, since time.Time) Health {
	h, seen := Health{State: Healthy}, false
	for _, a := range apps {
		if a.Namespace != namespace || a.Cluster != cluster || !strings.HasPrefix(a.Name, "addon-") {
			continue
		}
		seen = true
		at := slices.Contains(a.Revisions, revision)
		// A failed sync says why only when that sync was of the revision (an earlier one's failure is not its) and
		// started since (Argo CD's timestamps are in whole seconds): a sync of the revision a rollback terminated
		// stays the Application's last operation until the next one starts.
		failedHere := a.Message != "" && a.Sync != "Synced" &&
			(len(a.OperationRevisions) == 0 || slices.Contains(a.OperationRevisions, revision) &&
				!a.OperationStartedAt.Before(since.Truncate(time.Second)))
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

// Resync sets, on each such Application, the operation Argo CD's automated sync would have started
// (controller/appcontroller.go autoSync, v3.5: the revisions it compares at, the sync policy's prune, sync options and
// retry), initiated by fleet-rollout, as `argocd app sync` sets one: the application controller runs it.
func (g ArgoCD) Resync(ctx context.Context, clusters []string, revision string, since time.Time) error {
	apps, err := g.Hub.Resource(status.ApplicationsResource).Namespace(g.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, u := range apps.Items {
		a := status.ApplicationOf(u)
		_, busy := u.Object["operation"]
		if !slices.Contains(clusters, a.Cluster) || !strings.HasPrefix(a.Name, "addon-") || busy ||
			(a.Operation != "Failed" && a.Operation != "Error") || !slices.Contains(a.Revisions, revision) ||
			!slices.Contains(a.OperationRevisions, revision) || !a.OperationStartedAt.Before(since.Truncate(time.Second)) {
			continue
		}
		sync := map[string]any{}
		if r, _, _ := unstructured.NestedString(u.Object, "status", "sync", "revision"); r != "" {
			sync["revision"] = r
		}
		if rs, _, _ := unstructured.NestedStringSlice(u.Object, "status", "sync", "revisions"); len(rs) > 0 {
			sync["revisions"] = rs
		}
		if prune, _, _ := unstructured.NestedBool(u.Object, "spec", "syncPolicy", "automated", "prune"); prune {
			sync["prune"] = true
		}
		if opts, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "syncPolicy", "syncOptions"); len(opts) > 0 {
			sync["syncOptions"] = opts
		}
		op := map[string]any{"initiatedBy": map[string]any{"username": "fleet-rollout"}, "sync": sync,
			"retry": map[string]any{"limit": int64(5)}}
		if retry, ok, _ := unstructured.NestedMap(u.Object, "spec", "syncPolicy", "retry"); ok {
			op["retry"] = retry
		}
		patch, err := json.Marshal(map[string]any{"operation": op})
		if err != nil {
			return err
		}
		if _, err := g.Hub.Resource(status.ApplicationsResource).Namespace(g.Namespace).Patch(ctx, a.Name,
			types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("syncing %s again at %s: %w", a.Name, revision, err)
		}
	}
	return nil
}

// Abort asks Argo CD's application controller to terminate each running sync operation of the clusters' add-on
// Applications that is for revision, as `argocd app terminate-op` does (server/application TerminateOperation, v3.5):
// only while an operation is in progress (the Application's operation field is set), the operation state's phase
// set to Terminating by an update of the Application as read (an Application's status is part of the object; Argo
// CD has no status subresource for it), read again on a conflict. Without the Application's resourceVersion, a
// patch that lands just after the controller finished the operation would leave a completed operation Terminating,
// and the controller would terminate the next one it is asked for (the next rollout's resync) as soon as it began.
func (g ArgoCD) Abort(ctx context.Context, clusters []string, revision string) error {
	apps := g.Hub.Resource(status.ApplicationsResource).Namespace(g.Namespace)
	list, err := apps.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, u := range list.Items {
		if a := status.ApplicationOf(u); !slices.Contains(clusters, a.Cluster) || !strings.HasPrefix(a.Name, "addon-") {
			continue
		}
		if err := g.terminate(ctx, apps, &u, revision); err != nil {
			return fmt.Errorf("terminating %s's sync of %s: %w", u.GetName(), revision, err)
		}
	}
	return nil
}

// terminate sets the phase of u's sync operation of revision to Terminating while it runs, conditional on u's
// resourceVersion; on a conflict it reads u again, up to conflictRetries times.
func (g ArgoCD) terminate(ctx context.Context, apps dynamic.ResourceInterface, u *unstructured.Unstructured, revision string) error {
	for range conflictRetries {
		a := status.ApplicationOf(*u)
		if _, inProgress := u.Object["operation"]; !inProgress || a.Operation != "Running" ||
			!slices.Contains(a.OperationRevisions, revision) {
			return nil
		}
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": u.GetResourceVersion()},
			"status": map[string]any{"operationState": map[string]any{"phase": "Terminating"}}})
		if err != nil {
			return err
		}
		_, err = apps.Patch(ctx, u.GetName(), types.MergePatchType, patch, metav1.PatchOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		if u, err = apps.Get(ctx, u.GetName(), metav1.GetOptions{}); err != nil {
			return err
		}
	}
	return fmt.Errorf("the Application kept changing (%d conflicts)", conflictRetries)
}

// conflictRetries is how many times terminate reads an Application again after a conflict, as Argo CD's server does.
const conflictRetries = 10
