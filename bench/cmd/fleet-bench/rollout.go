package main

import (
	"context"
	"fmt"
	"os"
	"time"
)

// rolloutReport is the report of -rollout, in -out.
const rolloutReport = "rollout.md"

// rolloutSession times `fleet rollout` over a fleet of size clusters (engine.MeasureRollout) and writes its report.
func rolloutSession(ctx context.Context, root string, size int, work, out string) error {
	r, machine, err := newRunner(root, work)
	if err != nil {
		return err
	}
	start := time.Now()
	run, err := r.MeasureRollout(ctx, size)
	if err != nil {
		return fmt.Errorf("the rollout over %d clusters: %w", size, err)
	}
	report := fmt.Sprintf(`# fleet rollout over %d clusters (make bench-rollout)

%s, on %s; the session took %s.

The fleet of %d clusters (bench/fleetgen) on real Kubernetes API servers (a control plane per cluster), its %d
spokes round-robin in %d waves, the hub (wave 0) with no add-on, Argo CD's own controllers (tests/argocdhub) on the
hub and the offline add-ons repository pinned to a commit. `+"`fleet rollout`"+` (provider/rollout, bake 0, polling
every 2 s) takes a good commit to every wave, then a bad one: a pod label value no API server takes, so its sync
fails on every cluster it reaches. Each wave is one `+"`up`"+` of the whole fleet's program. Goals (issue 57): at most
5 min to every wave Synced and Healthy, at most 4 min to the failed wave reverted and Healthy.

| rollout | seconds | ups | outcome |
|---|---:|---:|---|
| a good commit, to every wave Synced and Healthy | %.1f | %d | done |
| a bad commit, to the failed wave back on the good one, Synced and Healthy | %.1f | %d | %s |

Not measured above: the fleet's first up and Argo CD's first settling, %.1f s.
`, size, start.Format("2006-01-02"), machine, time.Since(start).Round(time.Second), size, size-1, run.Waves,
		run.Good, run.GoodUps, run.Bad, run.BadUps, run.Failed, run.Setup)
	path, err := writeReport(out, rolloutReport, report)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "fleet-bench: good %.1f s (%d ups), bad %.1f s (%d ups); report: %s\n", run.Good, run.GoodUps,
		run.Bad, run.BadUps, path)
	return nil
}
