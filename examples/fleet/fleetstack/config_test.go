package fleetstack

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// TestStackFilesReadIntoTheSDKTypes: every stack file of the example is read by Load into the Go SDK's types and
// written back by Values with nothing lost or added: each gitops-fleet key of the file is a field of those types
// (a key the SDK does not know would be dropped here, and the Fleet would never see it).
func TestStackFilesReadIntoTheSDKTypes(t *testing.T) {
	files, err := filepath.Glob("../Pulumi.*.yaml")
	if err != nil || len(files) < 8 {
		t.Fatalf("stack files %v (%v)", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var stack struct {
				Config map[string]any `json:"config"`
			}
			if err := yaml.Unmarshal(raw, &stack); err != nil {
				t.Fatal(err)
			}
			given, env := map[string]any{}, map[string]string{}
			for k, v := range stack.Config {
				if !strings.HasPrefix(k, Namespace+":") {
					continue
				}
				given[k] = v
				text, _ := v.(string)
				if _, isString := v.(string); !isString {
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					text = string(b)
				}
				env[k] = text
			}
			b, _ := json.Marshal(env)
			t.Setenv("PULUMI_CONFIG", string(b))
			var cfg Config
			err = pulumi.RunErr(func(ctx *pulumi.Context) error {
				var err error
				cfg, err = Load(ctx)
				return err
			}, pulumi.WithMocks(mocks.Project, mocks.Stack, mocks.New()))
			if err != nil {
				t.Fatal(err)
			}
			back, err := cfg.Values()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalized(t, given), normalized(t, back)); diff != "" {
				t.Errorf("the stack config as read into the SDK's types (-file +read):\n%s", diff)
			}
		})
	}
}

// normalized is v through JSON (numbers as float64), without what a file may leave out and the SDK's types read
// as their zero value: empty strings, false and empty lists or maps.
func normalized(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	var prune func(any) (any, bool)
	prune = func(v any) (any, bool) {
		switch x := v.(type) {
		case map[string]any:
			m := map[string]any{}
			for k, e := range x {
				if p, ok := prune(e); ok {
					m[k] = p
				}
			}
			return m, len(m) > 0
		case []any:
			l := make([]any, 0, len(x))
			for _, e := range x {
				p, _ := prune(e)
				l = append(l, p)
			}
			return l, len(l) > 0
		case string:
			return x, x != ""
		case bool:
			return x, x
		default:
			return x, x != nil
		}
	}
	p, _ := prune(out)
	return p
}

// TestManagedHubNamesTheDelivery: the StackDelivery of a stack whose argocd.mode is managed names the hub cluster
// (hubName), and of any other stack nothing (the in-cluster server).
func TestManagedHubNamesTheDelivery(t *testing.T) {
	managed, selfManaged := "managed", "selfManaged"
	clusters := []fleet.ClusterSpec{{Name: "spoke-a", Role: "spoke"}, {Name: "platform", Role: "hub"}}
	for name, tc := range map[string]struct {
		argocd *fleet.Hub
		want   string
	}{
		"managed":      {&fleet.Hub{Mode: &managed}, "platform"},
		"self-managed": {&fleet.Hub{Mode: &selfManaged}, ""},
		"no mode":      {&fleet.Hub{}, ""},
		"no argocd":    {nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			c := Config{Clusters: clusters, Argocd: tc.argocd}
			if got := c.managedHub(); got != tc.want {
				t.Errorf("managedHub() = %q, want %q", got, tc.want)
			}
		})
	}
}
