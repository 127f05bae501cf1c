package drain

import (
	"slices"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

// DrainOptions are the knobs of a cluster's drain as given: Fleet's `drain` (in defaults and on each cluster) and
// ClusterDrain's inputs.
type DrainOptions struct {
	// Enabled runs the drain when the cluster is removed. false removes the cluster as before: its secret, add-on
	// roles, cluster and VPC at once, leaving whatever the add-on controllers made. Default: true.
	Enabled *bool `pulumi:"enabled,optional"`
	// Timeout bounds the whole drain, as a Go duration ("20m", "1h30m"), at least 10s. Default: "20m".
	Timeout string `pulumi:"timeout,optional"`
	// Force lets a drain that times out succeed, leaving the resources it names (logged as a warning), so the
	// cluster and VPC are deleted anyway (the VPC may then fail with DependencyViolation). Out of time, a forced
	// drain still deletes the later kinds and asks AWS, for one poll interval (10s) each. Default: false.
	Force bool `pulumi:"force,optional"`
	// Keep are kinds the drain leaves alone: ingresses, gateways, loadBalancerServices, persistentVolumeClaims,
	// nodePools, nodeClaims (for example persistentVolumeClaims, when volumes are kept by a later step).
	// Default: none.
	Keep []string `pulumi:"keep,optional"`
}

// Merge is o with every unset field taken from base (a cluster's drain over the fleet's defaults).
func (o DrainOptions) Merge(base DrainOptions) DrainOptions {
	if o.Enabled == nil {
		o.Enabled = base.Enabled
	}
	if o.Timeout == "" {
		o.Timeout = base.Timeout
	}
	o.Force = o.Force || base.Force
	if o.Keep == nil {
		o.Keep = base.Keep
	}
	return o
}

// On tells whether the drain runs (Enabled, default true).
func (o DrainOptions) On() bool { return o.Enabled == nil || *o.Enabled }

// Check adds a problem for each bad field, under field (the options' path, for example "clusters[2].drain";
// "" for ClusterDrain's own inputs).
func (o DrainOptions) Check(ps *problems.List, field string) {
	if field != "" {
		field += "."
	}
	if o.Timeout != "" {
		if d, err := time.ParseDuration(o.Timeout); err != nil || d < 10*time.Second {
			ps.Add(field+"timeout", "%q is not a Go duration of at least 10s, like \"20m\" or \"1h30m\"", o.Timeout)
		}
	}
	for i, k := range o.Keep {
		if !slices.ContainsFunc(Steps, func(s Step) bool { return string(s.Kind) == k }) {
			ps.Add(problems.Index(field+"keep", i), "%q is not a kind the drain deletes; one of %s", k, kindNames())
		}
	}
}

// Settings are the options as a Drainer takes them; call Check first.
func (o DrainOptions) Settings() Settings {
	s := Settings{Force: o.Force}
	if o.Timeout != "" {
		s.Timeout, _ = time.ParseDuration(o.Timeout)
	}
	for _, k := range o.Keep {
		s.Keep = append(s.Keep, Kind(k))
	}
	return s
}

func kindNames() string {
	names := make([]string, len(Steps))
	for i, s := range Steps {
		names[i] = string(s.Kind)
	}
	return strings.Join(names, ", ")
}
