package status

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// Report is the state of a fleet: its clusters, from the stacks and the hub's Argo CD, and what could not be read.
type Report struct {
	// At is when the report was made.
	At time.Time `json:"at"`
	// Clusters are the fleet's clusters by name.
	Clusters []Cluster `json:"clusters"`
	// Stacks are the stacks read, each with its drift when it was checked.
	Stacks []Stack `json:"stacks"`
	// Unreachable are the sources that could not be read, each with why ("stack dev: ...", "argocd of stack dev: ...",
	// "eks hub (us-east-1): ...").
	Unreachable []string `json:"unreachable,omitempty"`
}

// Stack is one stack of the fleet (the hub's or a shard's) and its drift.
type Stack struct {
	// Name is the stack's name.
	Name string `json:"name"`
	// DriftChecked: a refresh preview ran (fleet status --drift); Drifted then lists every resource whose cloud
	// state differs from the stack's, by URN name ("spoke-a-cluster-secret"), those of no cluster included.
	DriftChecked bool     `json:"driftChecked"`
	Drifted      []string `json:"drifted,omitempty"`
	// Rollout is the stack's last `fleet rollout` as its stack config records it (gitops-fleet:rollout); nil: none.
	Rollout *Rollout `json:"rollout,omitempty"`
	// Capacity is, for a hub's stack, its Argo CD's load: planned (its hubCapacity output) and running; nil for a
	// shard's stack or one without the output.
	Capacity *Capacity `json:"capacity,omitempty"`
}

// Rollout is a `fleet rollout` as the stack config records it (provider/rollout's Record, as much as status shows).
type Rollout struct {
	// Field is what it moves: "" or "addonsRepoRevision" (an add-ons commit), or "version" (Kubernetes).
	Field string `json:"field,omitempty"`
	// Revision is the add-ons repository commit it takes to the fleet, or the Kubernetes version.
	Revision string `json:"revision"`
	// Wave is the wave it is at, or ended at.
	Wave int `json:"wave"`
	// State is "running", "done" or "failed".
	State string `json:"state"`
	// Cluster and Message are, for a failed rollout, the cluster whose gate failed and Argo CD's message.
	Cluster string `json:"cluster,omitempty"`
	Message string `json:"message,omitempty"`
}

// String is "[Kubernetes ]<revision> at wave N, <state>[: <cluster>: <message>]".
func (r Rollout) String() string {
	s := fmt.Sprintf("%s at wave %d, %s", r.Revision, r.Wave, r.State)
	if r.Field == "version" {
		s = "Kubernetes " + s
	}
	if r.Cluster != "" {
		s += ": " + r.Cluster + ": " + r.Message
	}
	return s
}

// Cluster is one cluster as its stack and the hub's Argo CD report it.
type Cluster struct {
	Name  string `json:"name"`
	Stack string `json:"stack"`
	// Shard is the shard of the hub's fleet its stack is ("" for the hub's own stack).
	Shard       string `json:"shard,omitempty"`
	Region      string `json:"region"`
	Role        string `json:"role"`
	Environment string `json:"environment"`
	// Wave is its rollout wave (its cluster secret's fleet_wave label): 0 for the hub, 1 or more for a spoke, lower
	// waves changing first; nil when its stack does not say (a stack last updated before waves).
	Wave *int `json:"wave,omitempty"`
	// AddonsRepoRevision is the add-ons repository revision its cluster secret names, the one `fleet rollout` moves.
	AddonsRepoRevision string `json:"addonsRepoRevision,omitempty"`
	KubernetesVersion  string `json:"kubernetesVersion"`
	// SecretName is its Argo CD cluster secret's name on the hub: the destination of its Applications.
	SecretName string `json:"secretName,omitempty"`
	// SecretNamespace is that secret's namespace: Argo CD's on the hub.
	SecretNamespace string `json:"secretNamespace,omitempty"`
	// NodeGroups are its managed node groups, as the stack built them.
	NodeGroups []NodeGroup `json:"nodeGroups,omitempty"`
	// EKS is what the EKS API says of it now; nil when EKS was not read (unknown).
	EKS *EKS `json:"eks,omitempty"`
	// Drifted are its resources whose cloud state differs from the stack's (their URN names), when its stack's drift
	// was checked (Stack.DriftChecked).
	Drifted []string `json:"drifted,omitempty"`
	// Decommissioned: its cluster secret carries fleet_decommission: "true" (its workloads are being removed).
	Decommissioned bool `json:"decommissioned"`
	// Addons are the add-ons its cluster secret enables, with their Applications' state.
	Addons []Addon `json:"addons"`
	// ArgoCD is whether the hub's Applications were read: "reachable" or "unknown" (then every add-on is unknown).
	ArgoCD string `json:"argocd"`
	// Connection is whether the hub's Argo CD reaches the cluster, as its application controller reports it:
	// Successful or Failed (ConnectionSuccessful, ConnectionFailed); Unknown when the controllers' metrics were not
	// read (a managed hub's: AWS runs its controller) or do not name it (no Application has made Argo CD watch it).
	Connection string `json:"connection"`
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
	// Version is the version its identity's policy is for, as the stack built it ("" when it has none).
	Version string `json:"version,omitempty"`
	// Deployed is the chart version Argo CD last compared its Application at: the Application's revisions that are
	// not Git commits (a multi-source add-on Application has its values' commit and its chart's version); "" when
	// Argo CD was not read or names commits only.
	Deployed string `json:"deployed,omitempty"`
	// IamRoleArn is its IAM role ("" when it calls no AWS API).
	IamRoleArn string `json:"iamRoleArn,omitempty"`
	// ThroughStack is true for a hub add-on its stack installs (argocd.stackAddons, a Helm v4 Chart; the clusters
	// output's throughStack): Argo CD has no Application of it, so Sync and Health are "" and its State is "stack".
	ThroughStack bool `json:"throughStack,omitempty"`
}

// NodeGroup is one managed node group of a cluster.
type NodeGroup struct {
	Name          string   `json:"name"`
	InstanceTypes []string `json:"instanceTypes"`
	MinSize       int      `json:"minSize"`
	DesiredSize   int      `json:"desiredSize"`
	MaxSize       int      `json:"maxSize"`
	CapacityType  string   `json:"capacityType"`
}

// NodeGroupsText is its node groups as shown: each NodeGroup's String, joined by "; ".
func (c Cluster) NodeGroupsText() string {
	groups := make([]string, len(c.NodeGroups))
	for i, g := range c.NodeGroups {
		groups[i] = g.String()
	}
	return strings.Join(groups, "; ")
}

// StackText is its stack as shown: "dev", or "shard-us (shard us)".
func (c Cluster) StackText() string {
	if c.Shard == "" {
		return c.Stack
	}
	return c.Stack + " (shard " + c.Shard + ")"
}

// WaveText is its wave as shown: "2", or "-" when its stack does not say.
func (c Cluster) WaveText() string {
	if c.Wave == nil {
		return "-"
	}
	return strconv.Itoa(*c.Wave)
}

// String is "name desired (min-max) types capacity": "system 2 (1-3) m6i.large ON_DEMAND".
func (g NodeGroup) String() string {
	return fmt.Sprintf("%s %d (%d-%d) %s %s", g.Name, g.DesiredSize, g.MinSize, g.MaxSize,
		strings.Join(g.InstanceTypes, ","), g.CapacityType)
}

// State is an add-on's state for colour: ok (Synced and Healthy), progressing (Argo CD is at it: Progressing,
// Missing, or OutOfSync with no failure said), failed (Degraded, a failed sync, anything else), or unknown (no
// source reported it; never shown as healthy).
func (a Addon) State() string {
	switch {
	case a.ThroughStack:
		return "stack"
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

// output is one entry of a fleet stack's `clusters` output (Fleet's ClusterSummary), as much of it as status shows.
type output struct {
	Region             string            `json:"region"`
	Role               string            `json:"role"`
	Environment        string            `json:"environment"`
	Wave               *int              `json:"wave"`
	AddonsRepoRevision string            `json:"addonsRepoRevision"`
	KubernetesVersion  string            `json:"kubernetesVersion"`
	SecretName         string            `json:"secretName"`
	SecretNamespace    string            `json:"secretNamespace"`
	Shard              string            `json:"shard"`
	NodeGroups         []NodeGroup       `json:"nodeGroups"`
	Labels             map[string]string `json:"labels"`
	Addons             map[string]struct {
		Version      string `json:"version"`
		IamRoleArn   string `json:"iamRoleArn"`
		ThroughStack bool   `json:"throughStack"`
	} `json:"addons"`
}

// implied is true for a label name that another add-on of the catalogue implies (aws_ebs_csi_resources, which the
// EBS CSI driver's Application is selected by): the add-on that implies it is the row, with its Application.
func implied(name string) bool {
	return slices.ContainsFunc(addons.All(), func(a addons.Addon) bool { return slices.Contains(a.Implies, name) })
}

// FromOutputs are the clusters of a fleet stack's `clusters` output (Fleet's: name -> region, role, environment,
// wave, kubernetesVersion, secretName, secretNamespace, shard, nodeGroups, addons and the cluster secret's labels),
// with the add-ons those labels enable (enable_<addon>: "true"; not those an add-on implies, implied), each with its
// version and role from the output's addons; every add-on's state unknown until Argo CD is read (WithApplications);
// and a hub's add-ons that its stack installs (the output's throughStack, labelled false), in state "stack". Sorted
// by name. An entry not of that shape counts as empty.
func FromOutputs(stack string, clusters map[string]any) []Cluster {
	var out []Cluster
	for _, name := range slices.Sorted(maps.Keys(clusters)) {
		var o output
		if data, err := json.Marshal(clusters[name]); err == nil {
			_ = json.Unmarshal(data, &o)
		}
		cl := Cluster{Name: name, Stack: stack, Shard: o.Shard, Region: o.Region, Role: o.Role,
			Environment: o.Environment, Wave: o.Wave, AddonsRepoRevision: o.AddonsRepoRevision,
			KubernetesVersion: o.KubernetesVersion, SecretName: cmp.Or(o.SecretName, name), SecretNamespace: o.SecretNamespace,
			NodeGroups: o.NodeGroups, ArgoCD: Unknown, Connection: Unknown, Decommissioned: o.Labels["fleet_decommission"] == "true",
			Addons: []Addon{}}
		for _, k := range slices.Sorted(maps.Keys(o.Labels)) {
			if addon, ok := strings.CutPrefix(k, "enable_"); ok && o.Labels[k] == "true" && !implied(addon) {
				cl.Addons = append(cl.Addons, Addon{Name: addon, Sync: Unknown, Health: Unknown,
					Version: o.Addons[addon].Version, IamRoleArn: o.Addons[addon].IamRoleArn})
			}
		}
		for _, addon := range slices.Sorted(maps.Keys(o.Addons)) {
			if a := o.Addons[addon]; a.ThroughStack && !implied(addon) {
				cl.Addons = append(cl.Addons, Addon{Name: addon, Version: a.Version, IamRoleArn: a.IamRoleArn, ThroughStack: true})
			}
		}
		slices.SortStableFunc(cl.Addons, func(a, b Addon) int { return strings.Compare(a.Name, b.Name) })
		out = append(out, cl)
	}
	return out
}

// WithApplications are clusters with the state of each add-on's Application, as Argo CD on the hub reports it:
// the Application whose destination is the cluster and whose name ends with the add-on's chart name (the GitOps
// Bridge ApplicationSets name theirs addon-<cluster>-<chart>: the catalogue's chart, aws-for-fluent-bit for
// aws_for_fluentbit; the add-on's name with hyphens for one the catalogue does not know). An add-on with no
// such Application stays unknown; one the hub's stack installs (ThroughStack) has none to read.
func WithApplications(clusters []Cluster, apps []Application) []Cluster {
	out := slices.Clone(clusters)
	for i, c := range out {
		c.ArgoCD, c.Addons = "reachable", slices.Clone(c.Addons)
		for j, a := range c.Addons {
			if a.ThroughStack {
				continue
			}
			chart := strings.ReplaceAll(a.Name, "_", "-")
			if known, ok := addons.Lookup(a.Name); ok && known.Chart != "" {
				chart = known.Chart
			}
			k := slices.IndexFunc(apps, func(app Application) bool {
				return app.Cluster == c.SecretName && (app.Name == chart || strings.HasSuffix(app.Name, "-"+chart))
			})
			if k < 0 {
				continue
			}
			app := apps[k]
			a.Application, a.Sync, a.Health, a.Message = app.Name, cmp.Or(app.Sync, Unknown), cmp.Or(app.Health, Unknown), app.Message
			a.Deployed = chartVersion(app.Revisions)
			c.Addons[j] = a
		}
		out[i] = c
	}
	return out
}

// chartVersion is the first of revisions that is not a Git commit (40 or 64 hexadecimal digits, SHA-1 or SHA-256);
// "" when there is none.
func chartVersion(revisions []string) string {
	for _, r := range revisions {
		if !commit.MatchString(r) {
			return r
		}
	}
	return ""
}

var commit = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

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
