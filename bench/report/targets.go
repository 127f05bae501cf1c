package report

import (
	"fmt"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
)

// Target is one of the performance targets, judged on a session.
type Target struct {
	// Goal says what is wanted, Measured what was found.
	Goal, Measured string
	// Met is whether the goal holds; Known is false when the session lacks the runs to judge it.
	Met, Known bool
	// Miss says by how much a missed goal is missed.
	Miss string
}

// Verdict is the target's verdict as the report writes it: met, missed by how much, or not judged.
func (t Target) Verdict() string {
	switch {
	case t.Known && t.Met:
		return "met"
	case t.Known:
		return "**missed**: " + t.Miss
	}
	return "not judged"
}

// Limits are the targets' thresholds (issue "Benchmarks": targets).
var Limits = struct {
	FloorRatio, PeerRatio, Growth float64
	ColdStart                     time.Duration
	PluginPeak, TreePeak          int64
}{FloorRatio: 1.3, PeerRatio: 1.0, Growth: 16, ColdStart: 100 * time.Millisecond, PluginPeak: 300 << 20,
	TreePeak: 4608 << 20}

// Targets judges the session against Limits: for each operation, fleet/floor at the largest size, fleet/peer at
// every size and the fleet's growth from the smallest to the largest size; then the plugin's cold start median
// and its peak memory at the largest size, the fleet's whole-tree peak memory there, and the change loop against
// the peer at the largest size.
func Targets(s Session) []Target {
	rows := Rows(s.Runs)
	sizes := Sizes(rows)
	var out []Target
	if len(sizes) > 0 {
		small, large := sizes[0], sizes[len(sizes)-1]
		for _, op := range engine.Ops {
			out = append(out, ratioTarget(rows, op, large, engine.Floor, Limits.FloorRatio))
			for _, n := range sizes {
				out = append(out, ratioTarget(rows, op, n, engine.Peer, Limits.PeerRatio))
			}
			out = append(out, growthTarget(rows, op, small, large))
		}
		var peak int64
		for _, op := range engine.Ops {
			if r, ok := find(rows, engine.Fleet, large, op); ok {
				peak = max(peak, r.Peak["pulumi-resource-fleet"])
			}
		}
		t := Target{Goal: fmt.Sprintf("pulumi-resource-fleet peak memory at %d clusters under %d MiB", large, Limits.PluginPeak>>20),
			Measured: mib(peak), Known: peak > 0, Met: peak > 0 && peak < Limits.PluginPeak}
		if t.Known && !t.Met {
			t.Miss = fmt.Sprintf("%s over", mib(peak-Limits.PluginPeak))
		}
		out = append(out, t, treePeakTarget(rows, large))
		for _, op := range engine.ChangeOps {
			if _, ok := find(rows, engine.Fleet, large, op); ok {
				out = append(out, ratioTarget(rows, op, large, engine.Peer, Limits.PeerRatio))
			}
		}
	}
	cs := s.ColdStart
	t := Target{Goal: fmt.Sprintf("plugin cold start median under %d ms", Limits.ColdStart.Milliseconds()),
		Measured: fmt.Sprintf("%s (min %s, p90 %s, max %s; %d runs)", ms(cs.Median), ms(cs.Min), ms(cs.P90), ms(cs.Max), cs.Runs),
		Known:    cs.Runs > 0, Met: cs.Runs > 0 && cs.Median < Limits.ColdStart}
	if t.Known && !t.Met {
		t.Miss = fmt.Sprintf("%s over", ms(cs.Median-Limits.ColdStart))
	}
	return append(out, t)
}

func ratioTarget(rows []Row, op engine.Op, size int, other engine.Impl, limit float64) Target {
	goal := fmt.Sprintf("%s: fleet within %.1fx of the %s at %d clusters", op, limit, other, size)
	if other == engine.Peer {
		goal = fmt.Sprintf("%s: fleet no slower than the peer at %d clusters", op, size)
	}
	f, ok1 := find(rows, engine.Fleet, size, op)
	o, ok2 := find(rows, other, size, op)
	if !ok1 || !ok2 || o.Seconds <= 0 {
		return Target{Goal: goal, Measured: "not measured"}
	}
	ratio := f.Seconds / o.Seconds
	t := Target{Goal: goal, Known: true, Met: ratio <= limit,
		Measured: fmt.Sprintf("%.2fx (%.1f s against %.1f s)", ratio, f.Seconds, o.Seconds)}
	if !t.Met {
		t.Miss = fmt.Sprintf("%.0f%% over (%.1f s slower than %.1fx would allow)", (ratio/limit-1)*100,
			f.Seconds-limit*o.Seconds, limit)
	}
	return t
}

// treePeakTarget judges the fleet's whole-tree peak memory (program, CLI and every plugin) over its runs at size,
// beside the floor's: what the same resources cost without any component code.
func treePeakTarget(rows []Row, size int) Target {
	peaks := map[engine.Impl]int64{}
	for _, r := range rows {
		if r.Size == size {
			peaks[r.Impl] = max(peaks[r.Impl], r.TreePeak)
		}
	}
	peak := peaks[engine.Fleet]
	t := Target{Goal: fmt.Sprintf("whole-tree peak memory of the fleet at %d clusters at most %.1f GiB", size,
		float64(Limits.TreePeak)/(1<<30)), Measured: mib(peak), Known: peak > 0, Met: peak > 0 && peak <= Limits.TreePeak}
	if floor := peaks[engine.Floor]; floor > 0 {
		t.Measured += fmt.Sprintf(" (the floor, the same resources without component code, %s)", mib(floor))
	}
	if t.Known && !t.Met {
		t.Miss = fmt.Sprintf("%s over", mib(peak-Limits.TreePeak))
	}
	return t
}

func growthTarget(rows []Row, op engine.Op, small, large int) Target {
	goal := fmt.Sprintf("%s: fleet at %d clusters at most %.0fx its cost at %d", op, large, Limits.Growth, small)
	a, ok1 := find(rows, engine.Fleet, small, op)
	b, ok2 := find(rows, engine.Fleet, large, op)
	if !ok1 || !ok2 || a.Seconds <= 0 || small == large {
		return Target{Goal: goal, Measured: "not measured"}
	}
	g := b.Seconds / a.Seconds
	t := Target{Goal: goal, Known: true, Met: g <= Limits.Growth,
		Measured: fmt.Sprintf("%.1fx (%.1f s against %.1f s; %dx the clusters)", g, b.Seconds, a.Seconds, large/small)}
	if !t.Met {
		t.Miss = fmt.Sprintf("%.0f%% over", (g/Limits.Growth-1)*100)
	}
	return t
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
