package addons

import (
	"maps"
	"slices"
)

// WithImplied is the add-on map (GitOps Bridge name -> enabled) with the add-ons the enabled ones imply (the EBS
// CSI driver implies the template's aws_ebs_csi_resources storage classes): the map that becomes a cluster
// secret's enable_<addon> labels. enabled is not changed.
func WithImplied(enabled map[string]bool) map[string]bool {
	out := maps.Clone(enabled)
	if out == nil {
		out = map[string]bool{}
	}
	for _, name := range slices.Sorted(maps.Keys(enabled)) {
		if a, ok := Lookup(name); ok && enabled[name] {
			for _, implied := range a.Implies {
				out[implied] = true
			}
		}
	}
	return out
}

// ApplicationSets are the contract rows whose ApplicationSet selects a FleetCluster's cluster secret with these
// add-ons enabled (WithImplied applied): each makes one Application for the cluster (addon-<cluster>-<Chart>). A
// row is selected when its SelectLabel (default enable_<Name>) is "true" and its Requires hold for a secret that
// carries aws_cluster_name, as every FleetCluster's does (Alternatives, which require it absent, never select one).
// Sorted by name.
func ApplicationSets(enabled map[string]bool) []Addon {
	labels := map[string]bool{}
	for name, on := range WithImplied(enabled) {
		labels[EnableLabel(name)] = on
	}
	var out []Addon
	for _, a := range All() {
		selector := a.SelectLabel
		if selector == "" {
			selector = EnableLabel(a.Name)
		}
		if !labels[selector] || slices.ContainsFunc(a.Requires, func(r Requirement) bool {
			return r.Key == ClusterNameKey && r.Operator == "DoesNotExist"
		}) {
			continue
		}
		out = append(out, a)
	}
	return out
}
