package report

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
)

// writeShards writes the fleet beyond one stack against the one stack of the largest size: a shard's change
// loop beside the one stack's, and the whole fleet's first up as one stack, as shard stacks in sequence, and as
// shard stacks side by side on cpus CPUs.
func writeShards(p func(string, ...any), rows []Row, shards []engine.Run, cpus int) {
	if len(shards) == 0 {
		return
	}
	var par engine.Run
	var seq []engine.Run
	var hub engine.Run
	changes := map[engine.Op]engine.Run{}
	for _, r := range shards {
		switch {
		case r.Op == engine.ParallelUp:
			par = r
		case r.Stack == fleetgen.HubStack:
			hub = r
		case slices.Contains(engine.ChangeOps, r.Op):
			changes[r.Op] = r
		case r.Op == engine.Up:
			seq = append(seq, r)
		}
	}
	if len(seq) == 0 {
		return
	}
	k, size := len(seq), seq[0].Size
	one := k * size
	p("## A fleet beyond one stack: %d clusters as one stack, or %d shards of %d", one, k, size)
	p("")
	p("The fleet split as issue 26 splits it: a hub stack (the hub alone, %.1f s to bring up) and %d shard stacks", hub.Seconds, k)
	p("of %d spokes each, which join it through a stack reference (fleetgen.Sharded; %d clusters in all). Beside them,", size, one+1)
	p("the one stack of %d clusters measured above (the hub and %d spokes). The change loop runs on shard 1, on the", one, one-1)
	p("stack its up made: its toggle, then one more spoke, which the hub stack lists already.")
	p("")
	p("| op | one stack of %d: s | shard of %d: s | shard/one stack | peak MiB (one stack / shard) | changes (one stack / shard) |", one, size)
	p("|---|---:|---:|---:|---|---|")
	for _, op := range engine.ChangeOps {
		f, ok := find(rows, engine.Fleet, one, op)
		s, sok := changes[op]
		if !sok {
			continue
		}
		cell, ratioCell, peak, changed := "–", "–", "–", "–"
		if ok {
			cell, ratioCell = fmt.Sprintf("%.1f", f.Seconds), fmt.Sprintf("%.2fx", s.Seconds/f.Seconds)
			peak, changed = strconv.FormatInt(f.TreePeak>>20, 10), strconv.Itoa(f.Resources)
		}
		p("| %s | %s | %.1f | %s | %s / %d | %s / %d |", op, cell, s.Seconds, ratioCell, peak, s.PeakTree>>20,
			changed, s.Resources)
	}
	p("")
	var sum float64
	var seqPeak int64
	var resources int
	for _, r := range seq {
		sum += r.Seconds
		seqPeak = max(seqPeak, r.PeakTree)
		resources += r.Resources
	}
	f, _ := find(rows, engine.Fleet, one, engine.Up)
	p("The whole fleet's first up (the hub stack's up comes first in both sharded cases):")
	p("")
	p("| how | s | whole-tree peak MiB | resources |")
	p("|---|---:|---:|---:|")
	if f.Reps > 0 {
		p("| one stack of %d clusters | %.1f | %d | %d |", one, f.Seconds, f.TreePeak>>20, f.Resources)
	}
	p("| %d shard stacks in sequence (sum; peak of one) | %.1f | %d | %d |", k, sum, seqPeak>>20, resources)
	p("| %d shard stacks side by side (the slowest; peak of all at once) | %.1f | %d | %d |", k, par.Seconds, par.PeakTree>>20, par.Resources)
	p("")
	p("A shard's change loop reads and diffs its own %d clusters only, and a change in one shard locks and risks", size)
	p("that shard alone. Side by side, the %d shards' ups took %.1f s against %.1f s one after another, holding %d MiB",
		k, par.Seconds, sum, par.PeakTree>>20)
	p("at once against %d MiB for one at a time: they share this machine's %d CPUs. PKO on a hub runs each shard's",
		seqPeak>>20, cpus)
	p("Stack in a workspace pod of its own, so there they spread over the hub's nodes instead.")
	p("")
}
