package provider

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// TestConfigChangeUpdatesTheProvider: setting drainForce is a change, and no replacement of the provider (which
// would replace, so delete, so run, every ClusterDrain it serves).
func TestConfigChangeUpdatesTheProvider(t *testing.T) {
	s := server(t, mocks.New())
	for _, tc := range []struct {
		name     string
		old, new property.Map
		changes  bool
	}{
		{"set", property.NewMap(nil), property.NewMap(map[string]property.Value{"drainForce": property.New(true)}), true},
		{"unset", property.NewMap(map[string]property.Value{"drainForce": property.New(true)}), property.NewMap(nil), true},
		{"same", property.NewMap(nil), property.NewMap(nil), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := s.DiffConfig(pReq(tc.old, tc.new))
			if err != nil {
				t.Fatal(err)
			}
			if resp.HasChanges != tc.changes {
				t.Errorf("HasChanges = %v, want %v", resp.HasChanges, tc.changes)
			}
			for k, d := range resp.DetailedDiff {
				if strings.Contains(string(d.Kind), "replace") || resp.DeleteBeforeReplace {
					t.Errorf("%s: %s replaces the provider", k, d.Kind)
				}
			}
		})
	}
}

func pReq(old, new property.Map) p.DiffRequest {
	return p.DiffRequest{Urn: "urn:pulumi:s::p::pulumi:providers:fleet::default", State: old, OldInputs: old, Inputs: new}
}
