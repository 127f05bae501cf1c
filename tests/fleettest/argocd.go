package fleettest

import (
	"context"
	"os"
	"time"

	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/argocdhub"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// Hub is a fleet's hub cluster: the one Argo CD runs on.
type Hub struct {
	*Cluster
}

// Hub is the cluster named hub, as the fleet example names its hub.
func (e *Env) Hub() *Hub { e.t.Helper(); return &Hub{e.Cluster("hub")} }

// HubOf is the cluster c as a hub (a delivery stack's management cluster, say).
func HubOf(c *Cluster) *Hub { return &Hub{c} }

// ArgoCD is Argo CD's own controllers running on a hub (tests/argocdhub): the repo server, the ApplicationSet
// controller and the application controller, with Redis.
type ArgoCD struct {
	hub  *argocdhub.Hub
	stop func()
	// Hub is where it runs.
	Hub *Hub
}

// ArgoCD starts Argo CD on the hub, in Argo CD's default namespace, from the chart the fleet installed there; the run
// keeps it until its end, and a later call returns the same. When the test fails, the end of each process's log is
// logged.
func (h *Hub) ArgoCD() *ArgoCD {
	e := h.env
	e.t.Helper()
	r := e.run
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.argocd[h.ControlPlane()]; ok {
		return a
	}
	hub, stop, err := r.off.StartArgoCD(context.Background(), h.Region, h.Name)
	if err != nil {
		e.t.Fatal(err)
	}
	a := &ArgoCD{hub: hub, stop: stop, Hub: h}
	r.argocd[h.ControlPlane()] = a
	t := e.t
	t.Cleanup(func() {
		if t.Failed() {
			for name, log := range hub.Logs {
				data, _ := os.ReadFile(log)
				t.Logf("Argo CD's %s log ends:\n%s", name, offline.Tail(string(data), 40))
			}
		}
	})
	return a
}

// Log is the log so far of Argo CD's process name ("application-controller", a sharded controller's
// "application-controller-1", ...); "" when there is no such process.
func (a *ArgoCD) Log(name string) string {
	path, ok := a.hub.Logs[name]
	if !ok {
		return ""
	}
	data, _ := os.ReadFile(path)
	return string(data)
}

// ControllerMetrics are the application controller replicas' metrics URLs, in shard order (fleet status
// -argocd-metrics: the controllers run as the machine's processes, not behind the hub API's pod proxy).
func (a *ArgoCD) ControllerMetrics() []string { return a.hub.ControllerMetrics }

// Applications are the hub's Argo CD Applications in namespace (all: "").
func (a *ArgoCD) Applications(namespace string) dynamic.ResourceInterface {
	apps := a.Hub.Dynamic().Resource(status.ApplicationsResource)
	if namespace == "" {
		return apps
	}
	return apps.Namespace(namespace)
}

// AddonApplications are the Applications of the add-ons' ApplicationSets (their namespace on the hub).
func (a *ArgoCD) AddonApplications() dynamic.ResourceInterface {
	return a.Applications(gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons"))
}

// Settled waits until every Application of the hub was reconciled since since and has settled, or timeout
// passes, and returns what Argo CD says of each (offline.WaitForApplications).
func (a *ArgoCD) Settled(since time.Time, timeout time.Duration) []status.Application {
	apps, err := offline.WaitForApplications(context.Background(), a.Hub.Dynamic(), since, timeout)
	if err != nil {
		a.Hub.env.t.Fatal(err)
	}
	return apps
}

// PeakMemory is each process's peak resident memory so far, in MiB.
func (a *ArgoCD) PeakMemory() map[string]int { return a.hub.PeakMemory() }

// Stop stops Argo CD before the run ends (its stand-in for the resources finalizer takes over again).
func (a *ArgoCD) Stop() {
	r := a.Hub.env.run
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.argocd[a.Hub.ControlPlane()] == a {
		delete(r.argocd, a.Hub.ControlPlane())
		a.stop()
	}
}
