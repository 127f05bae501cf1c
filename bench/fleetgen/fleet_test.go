package fleetgen

import (
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	sdk "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// check runs Fleet's validation over the config as the plugin receives it (its values, the schema's shape).
func check(cfg fleetstack.Config) error {
	values, err := cfg.Values()
	if err != nil {
		return err
	}
	inputs := map[string]any{}
	for k, v := range values {
		inputs[strings.TrimPrefix(k, fleetstack.Namespace+":")] = v
	}
	raw, err := json.Marshal(inputs)
	if err != nil {
		return err
	}
	var args fleet.FleetArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	return fleet.Check(args, "bench")
}

func TestFleetIsValidAndSpreadOverRegions(t *testing.T) {
	cases := map[string]struct {
		reason    string
		n         int
		perRegion map[string]int
	}{
		"hub only":   {"the smallest fleet is a hub alone", 1, map[string]int{"us-east-1": 1}},
		"three":      {"one cluster per region", 3, map[string]int{"us-east-1": 1, "us-east-2": 1, "us-west-2": 1}},
		"forty-five": {"the largest benchmarked fleet spreads evenly", 45, map[string]int{"us-east-1": 15, "us-east-2": 15, "us-west-2": 15}},
		"max":        {"250 /16 CIDRs fit in 10.0.0.0/8 without overlap", MaxClusters, map[string]int{"us-east-1": 84, "us-east-2": 83, "us-west-2": 83}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := Fleet(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if err := check(cfg); err != nil {
				t.Fatalf("%s: Fleet refuses the generated config: %v", tc.reason, err)
			}
			got := map[string]int{}
			hubs := 0
			for _, c := range cfg.Clusters {
				got[c.Region]++
				if c.Role == fleetstack.Hub {
					hubs++
				}
			}
			if len(cfg.Clusters) != tc.n || hubs != 1 {
				t.Errorf("%s: %d clusters with %d hubs, want %d with 1", tc.reason, len(cfg.Clusters), hubs, tc.n)
			}
			for region, want := range tc.perRegion {
				if got[region] != want {
					t.Errorf("%s: %d clusters in %s, want %d", tc.reason, got[region], region, want)
				}
			}
		})
	}
}

func TestFleetRejectsSizesOutOfRange(t *testing.T) {
	for _, n := range []int{0, -1, MaxClusters + 1} {
		if _, err := Fleet(n); err == nil || !strings.Contains(err.Error(), "want 1 to 250") {
			t.Errorf("Fleet(%d) error = %v, want the allowed range", n, err)
		}
	}
}

func TestStackFileRoundTrips(t *testing.T) {
	cfg, err := Fleet(4)
	if err != nil {
		t.Fatal(err)
	}
	data, err := StackFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Config struct {
			Clusters []sdk.ClusterSpec `json:"gitops-fleet:clusters"`
			Region   string            `json:"aws:region"`
		} `json:"config"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Config.Clusters) != 4 || *file.Config.Clusters[3].VpcCidr != "10.4.0.0/16" || file.Config.Region != "us-east-1" {
		t.Errorf("stack file does not carry the fleet:\n%s", data)
	}
}

func TestChangesAreValidAndSmall(t *testing.T) {
	cfg, err := Fleet(15)
	if err != nil {
		t.Fatal(err)
	}
	toggled, added := WithToggledAddon(cfg), WithAddedSpoke(WithToggledAddon(cfg))
	for name, c := range map[string]fleetstack.Config{"toggled": toggled, "added": added} {
		if err := check(c); err != nil {
			t.Errorf("%s: Fleet refuses it: %v", name, err)
		}
	}
	if !toggled.Clusters[1].Addons[ToggledAddon] || cfg.Clusters[1].Addons[ToggledAddon] {
		t.Error("the toggle must enable the add-on on the first spoke and leave the original config alone")
	}
	if len(added.Clusters) != 16 || len(cfg.Clusters) != 15 {
		t.Errorf("the added fleet has %d clusters, the original %d", len(added.Clusters), len(cfg.Clusters))
	}
}
