package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/report"
)

// atSizeReport is the report of -at-size, in -out.
const atSizeReport = "at-size.md"

// atSizeSession measures the fleet at each size of list ("<shards>x<spokes per shard>", comma-separated) as a hub
// stack and its shard stacks, one stack after another (engine.MeasureShards without the side-by-side run, which
// would hold every shard's process tree at once), and writes report.AtSize.
func atSizeSession(ctx context.Context, root, list, work, out string) error {
	r, machine, err := newRunner(root, work)
	if err != nil {
		return err
	}
	start := time.Now()
	var sets [][]engine.Run
	for _, spec := range strings.Split(list, ",") {
		k, size, err := shardsOf(strings.TrimSpace(spec))
		if err != nil {
			return err
		}
		runs, err := r.MeasureShards(ctx, k, size, false)
		if err != nil {
			return fmt.Errorf("the fleet of %d shards of %d: %w", k, size, err)
		}
		for _, run := range runs {
			logf("%-7s %-14s %-10s %3d clusters: %6.1f s, %5d resources", run.Impl, run.Op, run.Stack, run.Size, run.Seconds, run.Resources)
		}
		sets = append(sets, runs)
	}
	rows := report.AtSizeRows(sets)
	if err := report.WriteData(out, report.AtSizeData, report.AtSizeResults{Measured: start, Rows: rows}); err != nil {
		return err
	}
	path, err := writeReport(out, atSizeReport, report.AtSize(rows, machine, start, time.Since(start)))
	if err == nil {
		logf("report: %s", path)
	}
	return err
}
