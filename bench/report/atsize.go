package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
)

// AtSizeRow is one size of the fleet at size (fleet-bench -at-size): the hub stack's up, the shards' previews and
// ups one after another (their sum, the slowest, the largest process tree), the resources, and shard 1's change
// loop. Seconds are wall time; Clusters counts the hub.
type AtSizeRow struct {
	Clusters, Shards, Resources     int
	HubUp, Previews, Ups, SlowestUp float64
	LargestTreeMiB                  int64
	ToggleUp, AddUp                 float64
}

// AtSizeRows summarises each set of runs (engine.MeasureShards of one size, without the side-by-side run).
func AtSizeRows(sets [][]engine.Run) []AtSizeRow {
	var out []AtSizeRow
	for _, runs := range sets {
		var row AtSizeRow
		var peak int64
		for _, r := range runs {
			peak = max(peak, r.PeakTree)
			switch {
			case r.Stack == fleetgen.HubStack:
				row.HubUp = r.Seconds
				row.Resources += r.Resources
			case r.Op == engine.ToggleUp:
				row.ToggleUp = r.Seconds
			case r.Op == engine.AddUp:
				row.AddUp = r.Seconds
			case r.Op == engine.Preview:
				row.Previews += r.Seconds
			case r.Op == engine.Up:
				row.Ups += r.Seconds
				row.SlowestUp = max(row.SlowestUp, r.Seconds)
				row.Shards++
				row.Clusters += r.Size
				row.Resources += r.Resources
			}
		}
		row.Clusters++ // the hub
		row.LargestTreeMiB = peak >> 20
		out = append(out, row)
	}
	return out
}

// AtSize is the report of the fleet at size (fleet-bench -at-size), a row of AtSizeRows for each size. measured is
// when the session started; took how long it ran.
func AtSize(rows []AtSizeRow, m Machine, measured time.Time, took time.Duration) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# The fleet at size, in shards (make bench-at-size)")
	p("")
	p("Measured %s in %s on %s.", measured.UTC().Format("2006-01-02 15:04 MST"), took.Round(time.Second), m)
	p("")
	p("Each fleet is a hub stack (the hub alone) and shard stacks of generated spokes that join it through a stack")
	p("reference (fleetgen.Sharded), on the offline cloud with the emulated Kubernetes API, as report.md's fleet. They")
	p("run one stack after another, never side by side: one stack of these sizes does not fit this machine (the whole")
	p("tree of one stack of 45 clusters peaks at about 5 GiB in report.md, and grows with the clusters), and a shard's")
	p("tree is what a shard's `up` holds. The change loop is shard 1's: an add-on toggled on a spoke, then one spoke")
	p("added (which the hub stack lists already).")
	p("")
	p("| clusters | shards | hub up: s | shards' previews: s (sum) | shards' ups: s (sum) | slowest shard up: s | largest tree: MiB | resources | toggle-up: s | add-up: s |")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		p("| %d | %d | %.1f | %.1f | %.1f | %.1f | %d | %d | %.1f | %.1f |", r.Clusters, r.Shards, r.HubUp, r.Previews,
			r.Ups, r.SlowestUp, r.LargestTreeMiB, r.Resources, r.ToggleUp, r.AddUp)
	}
	p("")
	p("Clusters count the hub. The whole fleet's first up is the hub's, then the shards' ups one after another; side")
	p("by side on more machines (PKO runs each shard's Stack in a workspace pod of its own) it takes about the slowest")
	p("shard's. A change touches one shard's stack: its loop costs what a shard of that size costs, whatever the fleet's")
	p("size. What this leaves unproven: Argo CD and the Kubernetes API servers at these sizes (the API is emulated here;")
	p("docs/performance.md), and the hub's guard, which bench/results/guards.txt measures through Kubernetes' own")
	p("admission code at 200 spokes.")
	return b.String()
}
