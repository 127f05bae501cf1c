package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestBadStackConfigFailsBeforeAnyResource breaks the dev config one way at a time. `preview` fails naming the
// Fleet's input and leaves no state at all; `up` fails the same way with the cloud still empty, and the stack
// holds only Pulumi's root pulumi:pulumi:Stack (which the SDK registers before the program runs) and the default
// fleet provider the engine started to construct the Fleet.
func TestBadStackConfigFailsBeforeAnyResource(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	dev, err := os.ReadFile(filepath.Join(env.FleetDir(), "Pulumi.dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		break_  func(clusters []map[string]any)
		wantKey string
		want    string
	}{
		{"invalid CIDR", func(cs []map[string]any) { cs[1]["vpcCidr"] = "10.20.0.0/33" },
			"clusters[1].vpcCidr", "not a CIDR"},
		{"overlapping CIDRs", func(cs []map[string]any) { cs[2]["vpcCidr"] = "10.20.128.0/17" },
			"clusters[2].vpcCidr", "overlaps clusters[1].vpcCidr"},
		{"malformed region", func(cs []map[string]any) { cs[1]["region"] = "useast2" },
			"clusters[1].region", "not an AWS region"},
		{"spoke with no hub", func(cs []map[string]any) { cs[0]["role"] = "spoke" },
			"clusters[1].role", "no hub to register into"},
		{"duplicate names", func(cs []map[string]any) { cs[2]["name"] = "spoke-use2" },
			"clusters[2].name", "also the name of clusters[1]"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := env.For(t)
			var doc map[string]map[string]any
			if err := yaml.Unmarshal(dev, &doc); err != nil {
				t.Fatal(err)
			}
			var clusters []map[string]any
			raw, _ := yaml.Marshal(doc["config"]["gitops-fleet:clusters"])
			if err := yaml.Unmarshal(raw, &clusters); err != nil {
				t.Fatal(err)
			}
			tc.break_(clusters)
			doc["config"]["gitops-fleet:clusters"] = clusters
			stackName := "bad" + string(rune('a'+i))
			project := t.TempDir()
			out, _ := yaml.Marshal(doc)
			pulumiYAML, _ := os.ReadFile(filepath.Join(env.FleetDir(), "Pulumi.yaml"))
			for name, data := range map[string][]byte{"Pulumi.yaml": pulumiYAML, "Pulumi." + stackName + ".yaml": out} {
				if err := os.WriteFile(filepath.Join(project, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stack := env.Stack(project, stackName, fleetstack.Run)
			checkConfigError(t, "preview", stack.TryPreview("preview"), tc.wantKey, tc.want)
			if _, dep := stack.Export(false); len(dep.Resources) != 0 {
				t.Errorf("after the failed preview the stack holds %d resources", len(dep.Resources))
			}
			_, err = stack.TryUp("up")
			checkConfigError(t, "up", err, tc.wantKey, tc.want)
			if all := env.Cloud().Records("", ""); len(all) > 0 {
				t.Errorf("the cloud has %d resources, first %s %s", len(all), all[0].Type, all[0].ID)
			}
			_, dep := stack.Export(false)
			for _, r := range dep.Resources {
				// The root stack, and the default provider the engine started to construct the Fleet: no cloud resource.
				if r.Type != "pulumi:pulumi:Stack" && r.Type != "pulumi:providers:fleet" {
					t.Errorf("after the failed up the stack holds %s %s", r.Type, r.URN)
				}
			}
		})
	}
}

func checkConfigError(t *testing.T, op string, err error, key, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s succeeded", op)
	}
	if msg := err.Error(); !strings.Contains(msg, "property "+key+" ") || !strings.Contains(msg, want) {
		t.Errorf("%s failed with\n%s\nwant %q about %s", op, fleettest.Tail(msg, 15), want, key)
	}
}
