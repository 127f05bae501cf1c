package gitopsbridge

import "testing"

func TestDefaultWave(t *testing.T) {
	cases := []struct {
		environment string
		want        int
	}{
		{"dev", DevWave},
		{"development", DevWave},
		{"dev-eu", DevWave},
		{"Sandbox", DevWave},
		{"test", StagingWave},
		{"qa", StagingWave},
		{"staging", StagingWave},
		{"stage-us", StagingWave},
		{"uat", StagingWave},
		{"preprod", StagingWave},
		{"pre-prod", StagingWave},
		{"prod", ProductionWave},
		{"production", ProductionWave},
		{"prod-us", ProductionWave},
		// A name no rule places goes last, never ahead of dev or staging.
		{"fleet", ProductionWave},
		{"eu-central", ProductionWave},
		{"", ProductionWave},
	}
	for _, tc := range cases {
		if got := DefaultWave(tc.environment); got != tc.want {
			t.Errorf("DefaultWave(%q) = %d, want %d", tc.environment, got, tc.want)
		}
	}
}

func TestWaveOf(t *testing.T) {
	cases := []struct {
		name        string
		given       *int
		hub         bool
		environment string
		want        int
	}{
		{"a hub, whatever its environment", nil, true, "dev", HubWave},
		{"a spoke from its environment", nil, false, "staging", StagingWave},
		{"a spoke's own wave wins", new(7), false, "dev", 7},
	}
	for _, tc := range cases {
		if got := WaveOf(tc.given, tc.hub, tc.environment); got != tc.want {
			t.Errorf("%s: WaveOf = %d, want %d", tc.name, got, tc.want)
		}
	}
}
