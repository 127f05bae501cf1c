package gitopsbridge

import (
	"strconv"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

// WaveLabel is the cluster secret's label that carries the cluster's rollout wave, a decimal number ("0", "1",
// ...): a change reaches wave 1 before wave 2, and so on. An ApplicationSet selects a wave with a cluster
// generator's matchExpressions ({key: fleet_wave, operator: In, values: ["1"]}), or copies it into its Applications'
// labels ('{{index .metadata.labels "fleet_wave"}}'), where Argo CD's progressive sync (RollingSync steps, which
// select Applications by their labels) orders its syncs by it. The hub's cluster-secret guard pins it like every
// other label of the secret, so a Git commit or an Argo CD writer cannot move a cluster into an earlier wave.
const WaveLabel = "fleet_wave"

// The waves a cluster gets by default (DefaultWave).
const (
	// HubWave is the hub's wave, on its own and first: the hub runs the Argo CD that gates every later wave, so a
	// change that breaks it shows before any spoke changes. A hub has no other wave.
	HubWave = 0
	// DevWave is the first spokes' wave: environments named dev*, or sandbox*.
	DevWave = 1
	// StagingWave follows dev: environments named test*, qa*, stag*, uat* or preprod*/pre-prod*.
	StagingWave = 2
	// ProductionWave is the last default wave: prod*, and every environment the rules above do not name, so
	// that an environment the product cannot place never goes before dev or staging.
	ProductionWave = 3
)

// wavePrefixes are the environment name prefixes of the default waves before production, in DefaultWave's order.
var wavePrefixes = []struct {
	wave     int
	prefixes []string
}{
	{DevWave, []string{"dev", "sandbox"}},
	{StagingWave, []string{"test", "qa", "stag", "uat", "preprod", "pre-prod"}},
}

// DefaultWave is the wave of a spoke in environment (case-insensitive prefixes): DevWave for dev*, sandbox*;
// StagingWave for test*, qa*, stag*, uat*, preprod*, pre-prod*; ProductionWave for every other name (prod*,
// production, and names none of these rules place). A cluster's own wave wins over it.
func DefaultWave(environment string) int {
	env := strings.ToLower(environment)
	for _, w := range wavePrefixes {
		for _, p := range w.prefixes {
			if strings.HasPrefix(env, p) {
				return w.wave
			}
		}
	}
	return ProductionWave
}

// WaveOf is the wave of a cluster: given when not nil, else HubWave for a hub, else DefaultWave(environment).
func WaveOf(given *int, hub bool, environment string) int {
	switch {
	case given != nil:
		return *given
	case hub:
		return HubWave
	}
	return DefaultWave(environment)
}

// WaveValue is wave as WaveLabel's value.
func WaveValue(wave int) string { return strconv.Itoa(wave) }

// CheckWave adds at field the problem of a wave given for a cluster: a hub's is HubWave only, a spoke's at least
// DevWave (wave 0 is the hub's alone). Nil (not given) is always fine.
func CheckWave(ps *problems.List, field string, wave *int, hub bool) {
	switch {
	case wave == nil:
	case hub && *wave != HubWave:
		ps.Add(field, "%d: the hub is wave %d, on its own (it runs the Argo CD that gates the later waves); leave "+
			"it unset", *wave, HubWave)
	case !hub && *wave < DevWave:
		ps.Add(field, "%d: a spoke's wave is %d or more (wave %d is the hub's); lower waves change first",
			*wave, DevWave, HubWave)
	}
}
