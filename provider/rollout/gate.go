package rollout

import (
	"cmp"
	"context"
	"slices"
	"strings"

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

// Gate tells how each of clusters is doing at revision.
type Gate interface {
	Check(ctx context.Context, clusters []string, revision string) (map[string]Health, error)
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
		switch {
		case at && (a.Health == "Degraded" || a.Message != "" && a.Sync != "Synced"):
			return Health{State: Failing, Application: a.Name, Message: cmp.Or(a.Message, "health "+a.Health)}
		case !at || a.Sync != "Synced" || a.Health != "Healthy":
			h.State = Pending
		}
	}
	if !seen {
		h.State = Pending
	}
	return h
}
