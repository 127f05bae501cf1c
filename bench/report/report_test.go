package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/coldstart"
	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/bench/procmem"
)

// run is an operation that took secs, with a fleet plugin of pluginMiB when impl is the fleet.
func run(impl engine.Impl, size int, op engine.Op, secs float64, pluginMiB int64) engine.Run {
	procs := []procmem.Process{{PID: 1, Label: "pulumi", PeakRSS: 200 << 20, CPU: time.Second}}
	if impl == engine.Fleet {
		procs = append(procs, procmem.Process{PID: 2, Label: "pulumi-resource-fleet", PeakRSS: pluginMiB << 20})
	}
	return engine.Run{Impl: impl, Size: size, Op: op, Result: engine.Result{Seconds: secs, Resources: size * 70}, Procs: procs,
		PeakTree: int64(size) * 60 << 20}
}

func session(fleet45 float64, pluginMiB int64, coldMedian time.Duration) Session {
	var runs []engine.Run
	for _, op := range engine.Ops {
		runs = append(runs,
			run(engine.Fleet, 3, op, 3, pluginMiB), run(engine.Floor, 3, op, 2.5, 0), run(engine.Peer, 3, op, 3.5, 0),
			run(engine.Fleet, 45, op, fleet45, pluginMiB), run(engine.Floor, 45, op, 30, 0), run(engine.Peer, 45, op, 40, 0))
	}
	for _, op := range engine.ChangeOps {
		runs = append(runs, run(engine.Fleet, 45, op, 5, pluginMiB), run(engine.Peer, 45, op, 6, 0))
	}
	return Session{Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), Runs: runs,
		ColdStart: coldstart.Result{Runs: 20, Min: coldMedian, Median: coldMedian, P90: coldMedian, Max: coldMedian}}
}

func TestTargets(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      Session
		missed []string
	}{
		"all met": {"33 s is 1.1x the floor, under the peer, 11x the 3-cluster cost", session(33, 120, 40*time.Millisecond), nil},
		"slow fleet": {"60 s at 45 is 2x the floor, 1.5x the peer and 20x the 3-cluster cost", session(60, 120, 40*time.Millisecond),
			[]string{"preview: fleet within 1.3x of the floor at 45", "preview: fleet no slower than the peer at 45",
				"preview: fleet at 45 clusters at most 16x", "up: fleet within 1.3x of the floor at 45",
				"up: fleet no slower than the peer at 45", "up: fleet at 45 clusters at most 16x"}},
		"heavy plugin, slow start": {"the plugin at 400 MiB and a 150 ms cold start", session(33, 400, 150*time.Millisecond),
			[]string{"pulumi-resource-fleet peak memory", "plugin cold start median"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var missed []string
			for _, target := range Targets(tc.s) {
				if !target.Known {
					t.Errorf("%s: %q not judged", tc.reason, target.Goal)
				}
				if !target.Met {
					if target.Miss == "" {
						t.Errorf("%s: %q missed without saying by how much", tc.reason, target.Goal)
					}
					missed = append(missed, target.Goal)
				}
			}
			if len(missed) != len(tc.missed) {
				t.Fatalf("%s: missed %q, want %d missed", tc.reason, missed, len(tc.missed))
			}
			for i, want := range tc.missed {
				if !strings.HasPrefix(missed[i], want) {
					t.Errorf("%s: missed[%d] = %q, want %q...", tc.reason, i, missed[i], want)
				}
			}
		})
	}
}

func TestWriteProducesReportCSVAndPlot(t *testing.T) {
	dir := t.TempDir()
	s := session(60, 120, 40*time.Millisecond)
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 45 | up | 60.0 | 30.0 | 40.0 | 2.00x | 1.50x |", "**missed**: 54% over", "![wall time"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	f, err := os.ReadFile(filepath.Join(dir, CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1+len(s.Runs) || records[0][0] != "impl" || len(records[1]) != len(csvHeader) {
		t.Errorf("CSV has %d records (want a header and %d runs) of %d fields", len(records), len(s.Runs), len(records[1]))
	}
	png, err := os.ReadFile(filepath.Join(dir, PlotFile))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("plot is not a PNG (%v)", err)
	}
}

// TestShardsSection: the sharded runs are reported beside the one stack of as many clusters: the shard's change
// loop against the one stack's, and the whole fleet's up as one stack, in sequence (summed) and side by side.
func TestShardsSection(t *testing.T) {
	s := session(20, 150, 80*time.Millisecond)
	s.Machine.CPUs = 2
	for _, op := range engine.Ops {
		s.Runs = append(s.Runs, run(engine.Fleet, 45, op, 20, 150))
	}
	shard := func(stack string, size int, op engine.Op, secs float64) engine.Run {
		r := run(engine.Sharded, size, op, secs, 150)
		r.Stack = stack
		return r
	}
	s.Shards = []engine.Run{shard("hub", 1, engine.Up, 3)}
	for _, stack := range []string{"shard-1", "shard-2", "shard-3"} {
		s.Shards = append(s.Shards, shard(stack, 15, engine.Preview, 6), shard(stack, 15, engine.Up, 8))
	}
	for _, op := range engine.ChangeOps {
		s.Shards = append(s.Shards, shard("shard-1", 15, op, 2.5))
	}
	s.Shards = append(s.Shards, shard(engine.AllShards, 45, engine.ParallelUp, 14))
	md := Markdown(s)
	for _, want := range []string{
		"## A fleet beyond one stack: 45 clusters as one stack, or 3 shards of 15",
		"| toggle-preview | 5.0 | 2.5 | 0.50x | 2700 / 900 | 3150 / 1050 |",
		"| 3 shard stacks in sequence (sum; peak of one) | 24.0 | 900 | 3150 |",
		"| 3 shard stacks side by side (the slowest; peak of all at once) | 14.0 | 2700 | 3150 |",
		"took 14.0 s against 24.0 s one after another",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report has no %q:\n%s", want, md)
		}
	}
}

// TestRealSection: the fleet's runs on real API servers are reported apart, with the control planes' memory.
func TestRealSection(t *testing.T) {
	s := session(20, 150, 80*time.Millisecond)
	up := run(engine.FleetReal, 3, engine.Up, 41.5, 150)
	up.ControlPlanes, up.ControlPlaneCount = 2048<<20, 3
	s.Real = []engine.Run{up}
	md := Markdown(s)
	for _, want := range []string{"## Real Kubernetes API servers: the fleet alone", "| 3 | up | 41.5 |", "| 3 | 2048 MiB |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report has no %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| 3 | up | 41.5 | 30.0") {
		t.Error("the real servers' run is among the fleet/floor/peer comparison")
	}
	if strings.Contains(md, "Argo CD to settled") {
		t.Error("the report has an Argo CD table without an Argo CD run")
	}
	up.ArgoCD = &engine.ArgoCDRun{Seconds: 12.25, Applications: 7, Healthy: 6,
		Memory: map[string]int{"application-controller": 350, "applicationset-controller": 140, "repo-server": 120, "redis": 12}}
	s.Real = []engine.Run{up}
	if md := Markdown(s); !strings.Contains(md, "| 3 | 12.2 | 7 | 6 | 350 MiB | 140 MiB | 120 MiB | 12 MiB |") {
		t.Errorf("the report has no Argo CD row for the up:\n%s", md)
	}
}

// TestTreePeakTarget: the fleet's whole-tree peak at the largest size is judged against 4.5 GiB and shown beside the
// floor's, which registers the same resources without component code.
func TestTreePeakTarget(t *testing.T) {
	for name, tc := range map[string]struct {
		fleet, floor int64 // MiB
		met          bool
		measured     string
	}{
		"under":           {fleet: 4000, floor: 3500, met: true, measured: "4000 MiB (the floor, the same resources without component code, 3500 MiB)"},
		"at the goal":     {fleet: 4608, floor: 4000, met: true, measured: "4608 MiB (the floor, the same resources without component code, 4000 MiB)"},
		"over":            {fleet: 5111, floor: 4338, measured: "5111 MiB (the floor, the same resources without component code, 4338 MiB)"},
		"no floor, under": {fleet: 3000, met: true, measured: "3000 MiB"},
	} {
		t.Run(name, func(t *testing.T) {
			rows := []Row{{Impl: engine.Fleet, Size: 45, Op: engine.Up, TreePeak: tc.fleet << 20},
				{Impl: engine.Fleet, Size: 3, Op: engine.Up, TreePeak: 9000 << 20}}
			if tc.floor > 0 {
				rows = append(rows, Row{Impl: engine.Floor, Size: 45, Op: engine.Up, TreePeak: tc.floor << 20})
			}
			got := treePeakTarget(rows, 45)
			if got.Met != tc.met || got.Measured != tc.measured || !strings.Contains(got.Goal, "at most 4.5 GiB") {
				t.Errorf("%+v, want met %v, measured %q", got, tc.met, tc.measured)
			}
			if !got.Met && got.Miss != fmt.Sprintf("%d MiB over", tc.fleet-4608) {
				t.Errorf("miss %q", got.Miss)
			}
		})
	}
}

// TestAtSize: each size's row sums its shards' previews and ups, names the slowest shard and the largest tree, and
// counts the hub with the clusters and its resources with theirs.
func TestAtSize(t *testing.T) {
	shard := func(stack string, op engine.Op, secs float64, mib int64) engine.Run {
		return engine.Run{Impl: engine.Sharded, Stack: stack, Size: 15, Op: op,
			Result: engine.Result{Seconds: secs, Resources: 1000}, PeakTree: mib << 20}
	}
	runs := []engine.Run{
		{Impl: engine.Sharded, Stack: fleetgen.HubStack, Size: 1, Op: engine.Up, Result: engine.Result{Seconds: 3, Resources: 70}, PeakTree: 900 << 20},
		shard("s1", engine.Preview, 8, 2000), shard("s1", engine.Up, 10, 2300),
		shard("s2", engine.Preview, 9, 2100), shard("s2", engine.Up, 12, 2400),
		shard("s1", engine.TogglePreview, 9, 2200), shard("s1", engine.ToggleUp, 11, 2250),
		shard("s1", engine.AddPreview, 9, 2200), shard("s1", engine.AddUp, 13, 2350),
	}
	got := AtSize(AtSizeRows([][]engine.Run{runs}), Machine{CPUs: 2}, time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC), time.Minute)
	if want := "| 31 | 2 | 3.0 | 17.0 | 22.0 | 12.0 | 2400 | 2070 | 11.0 | 13.0 |"; !strings.Contains(got, want) {
		t.Errorf("no row %q in:\n%s", want, got)
	}
}
