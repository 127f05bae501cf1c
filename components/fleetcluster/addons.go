package fleetcluster

import (
	"maps"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// KnownAddons lists every add-on name FleetClusterArgs.Addons accepts, sorted: the rows of the GitOps Bridge
// add-on contract (components/addons).
func KnownAddons() []string { return addons.Names() }

// enabledAddons are the contract rows of the enabled add-ons, sorted by name for a stable resource order.
func enabledAddons(enabled map[string]bool) []addons.Addon {
	var out []addons.Addon
	for _, name := range slices.Sorted(maps.Keys(enabled)) {
		if a, ok := addons.Lookup(name); ok && enabled[name] {
			out = append(out, a)
		}
	}
	return out
}
