package construct

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

func TestProgramBuildsEveryClusterWithItsBridge(t *testing.T) {
	cases := map[string]struct {
		reason string
		n      int
	}{
		"hub only":   {"the hub alone needs no spoke wiring", 1},
		"hub+spokes": {"spokes take the hub's role and kubeconfig", 4},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := fleetgen.Fleet(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			cloud := mocks.New()
			if err := cloud.Run(Program(cfg)); err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			types := map[string]int{}
			for _, r := range cloud.Resources() {
				types[r.Type]++
			}
			want := map[string]int{"fleet:index:FleetCluster": tc.n, "fleet:index:GitOpsBridge": tc.n,
				"kubernetes:helm.sh/v3:Release": 1, "kubernetes:core/v1:Secret": tc.n}
			for typ, n := range want {
				if types[typ] != n {
					t.Errorf("%s: %d of %s, want %d", tc.reason, types[typ], typ, n)
				}
			}
		})
	}
}

// BenchmarkFleet builds a fleet of 10 clusters under mocks; `make bench` reports 1, 10 and 100 through Measure.
func BenchmarkFleet(b *testing.B) {
	cfg, err := fleetgen.Fleet(10)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := mocks.New().Run(Program(cfg)); err != nil {
			b.Fatal(err)
		}
	}
}
