package status

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is the state of a fleet: its clusters, from the stacks and the hub's Argo CD, and what could not be read.
type Report struct {
	// At is when the report was made.
	At time.Time `json:"at"`
	// Clusters are the fleet's clusters by name.
	Clusters []Cluster `json:"clusters"`
	// Unreachable are the sources that could not be read, each with why ("stack dev: ...", "argocd: ...").
	Unreachable []string `json:"unreachable,omitempty"`
}

// Cluster is one cluster as its stack and the hub's Argo CD report it.
type Cluster struct {
	Name              string `json:"name"`
	Stack             string `json:"stack"`
	Region            string `json:"region"`
	Role              string `json:"role"`
	Environment       string `json:"environment"`
	KubernetesVersion string `json:"kubernetesVersion"`
	// Decommissioned: its cluster secret carries fleet_decommission: "true" (its workloads are being removed).
	Decommissioned bool `json:"decommissioned"`
	// Addons are the add-ons its cluster secret enables, with their Applications' state.
	Addons []Addon `json:"addons"`
	// ArgoCD is whether the hub's Applications were read: "reachable" or "unknown" (then every add-on is unknown).
	ArgoCD string `json:"argocd"`
}

// Addon is one enabled add-on of a cluster and its Application on the hub.
type Addon struct {
	// Name is the GitOps Bridge add-on name (the enable_<name> label).
	Name string `json:"name"`
	// Application is the Argo CD Application that deploys it to the cluster; "" when none was found.
	Application string `json:"application,omitempty"`
	// Sync and Health are Argo CD's statuses; "Unknown" when Argo CD was not read or reports no Application.
	Sync   string `json:"sync"`
	Health string `json:"health"`
	// Message is why it is not Synced and Healthy, as Argo CD says.
	Message string `json:"message,omitempty"`
}

// State is an add-on's state for colour: ok (Synced and Healthy), progressing (Argo CD is at it: Progressing,
// Missing, or OutOfSync with no failure said), failed (Degraded, a failed sync, anything else), or unknown (no
// source reported it; never shown as healthy).
func (a Addon) State() string {
	switch {
	case a.Sync == "Synced" && a.Health == "Healthy":
		return "ok"
	case a.Sync == Unknown || a.Health == Unknown || a.Sync == "" || a.Health == "":
		return "unknown"
	case a.Health == "Degraded" || a.Message != "":
		return "failed"
	case a.Health == "Progressing" || a.Health == "Missing" || a.Sync == "OutOfSync":
		return "progressing"
	}
	return "failed"
}

// Unknown is a status no source reported.
const Unknown = "Unknown"

// Application is what Argo CD on the hub says of one Application.
type Application struct {
	// Name is the Application's; Cluster its destination (a cluster secret's name).
	Name, Cluster string
	// Sync and Health are Argo CD's statuses; Message why it is not Synced and Healthy.
	Sync, Health, Message string
}

// FromOutputs are the clusters of a fleet stack's `clusters` output (the fleet example's: name -> region, role,
// environment, kubernetesVersion and the cluster secret's labels), the add-ons those labels enable (enable_<addon>:
// "true"), every add-on's state unknown until Argo CD is read (WithApplications).
func FromOutputs(stack string, clusters map[string]any) []Cluster {
	var out []Cluster
	for _, name := range slices.Sorted(maps.Keys(clusters)) {
		c, _ := clusters[name].(map[string]any)
		str := func(k string) string { s, _ := c[k].(string); return s }
		labels, _ := c["labels"].(map[string]any)
		cl := Cluster{Name: name, Stack: stack, Region: str("region"), Role: str("role"),
			Environment: str("environment"), KubernetesVersion: str("kubernetesVersion"), ArgoCD: Unknown,
			Decommissioned: labels["fleet_decommission"] == "true", Addons: []Addon{}}
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			if addon, ok := strings.CutPrefix(k, "enable_"); ok && labels[k] == "true" {
				cl.Addons = append(cl.Addons, Addon{Name: addon, Sync: Unknown, Health: Unknown})
			}
		}
		out = append(out, cl)
	}
	return out
}

// WithApplications are clusters with the state of each add-on's Application, as Argo CD on the hub reports it:
// the Application whose destination is the cluster and whose name ends with the add-on's chart name (the GitOps
// Bridge ApplicationSets name theirs addon-<cluster>-<chart>, the add-on's name with hyphens). An add-on with no
// such Application stays unknown.
func WithApplications(clusters []Cluster, apps []Application) []Cluster {
	out := slices.Clone(clusters)
	for i, c := range out {
		c.ArgoCD, c.Addons = "reachable", slices.Clone(c.Addons)
		for j, a := range c.Addons {
			chart := strings.ReplaceAll(a.Name, "_", "-")
			k := slices.IndexFunc(apps, func(app Application) bool {
				return app.Cluster == c.Name && (app.Name == chart || strings.HasSuffix(app.Name, "-"+chart))
			})
			if k < 0 {
				continue
			}
			app := apps[k]
			c.Addons[j] = Addon{Name: a.Name, Application: app.Name, Sync: cmp.Or(app.Sync, Unknown),
				Health: cmp.Or(app.Health, Unknown), Message: app.Message}
		}
		out[i] = c
	}
	return out
}

// Addons are the add-on names of every cluster, sorted: the matrix's columns.
func (r Report) Addons() []string {
	set := map[string]bool{}
	for _, c := range r.Clusters {
		for _, a := range c.Addons {
			set[a.Name] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Addon is the named add-on of c; false when c does not enable it.
func (c Cluster) Addon(name string) (Addon, bool) {
	i := slices.IndexFunc(c.Addons, func(a Addon) bool { return a.Name == name })
	if i < 0 {
		return Addon{}, false
	}
	return c.Addons[i], true
}
