// Command fleet-bench is `make bench`: it measures component construction under mocks, the plugin's cold
// start, and preview and up of fleets of 3, 15 and 45 clusters through the real engine for the fleet, the floor
// and the TypeScript peer, interleaved in one session; then the same 45 clusters as a hub stack and 3 shard stacks
// of 15 (in sequence, the change loop of one shard, side by side); then the fleet of 3 and 15 clusters on real
// Kubernetes API servers (a control plane per cluster, the real Kubernetes provider); then it profiles the fleet's up at the largest
// size and writes the report to bench/results.
//
// With -child it is instead one measured operation of a Go program (bench/engine starts it so); with -rollout, the
// time `fleet rollout` takes over a fleet on real API servers with Argo CD (bench/results/rollout.md); with -at-size,
// the fleet at about 100 and 200 clusters as a hub stack and shard stacks, one after another
// (bench/results/at-size.md); with -argocd-at-size, Argo CD's own controllers on a hub with 100 and 200 clusters
// registered (bench/results/argocd-at-size.md).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/coldstart"
	"github.com/gitops-fleet/pulumi-fleet/bench/construct"
	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/report"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// options are the session's flags.
type options struct {
	sizes, constructSizes []int
	// realSizes are the sizes of the fleet measured on real Kubernetes API servers (engine.FleetReal).
	realSizes      []int
	reps, coldRuns int
	// shards and shardSize are the sharded fleet (0 shards: none).
	shards, shardSize int
	work, out         string
	profile           bool
}

func main() {
	child := flag.String("child", "", "run one operation of this Go program (fleet or floor) and print its result")
	op := flag.String("op", "", "with -child: preview or up")
	dir := flag.String("dir", "", "with -child: the project directory")
	plan := flag.String("plan", "", "with -child: the fleet's stack export (written by the fleet's up, read by the floor)")
	stack := flag.String("stack", engine.StackName, "with -child: the stack")
	sizes := flag.String("sizes", "3,15,45", "fleet sizes (clusters) run through the engine, comma-separated")
	constructSizes := flag.String("construct-sizes", "1,10,100", "fleet sizes built under mocks, comma-separated")
	reps := flag.Int("reps", 1, "repetitions of each engine operation (the report shows the median)")
	coldRuns := flag.Int("cold-runs", 20, "plugin cold starts to time")
	work := flag.String("work", ".work/bench", "work directory (state of every run, profiles)")
	out := flag.String("out", "bench/results", "where the report goes")
	profile := flag.Bool("profile", true, "profile the fleet's up at the largest size after the measured runs")
	sharded := flag.String("shards", "3x15", "the fleet beyond one stack: <shards>x<spokes per shard>, or \"\" for none")
	realSizes := flag.String("real-sizes", "3,15", "fleet sizes run on real Kubernetes API servers (a control plane "+
		"per cluster), comma-separated, or \"\" for none")
	rolloutSize := flag.Int("rollout", 0, "instead of the session: time fleet rollout over a fleet of this many clusters "+
		"on real API servers with Argo CD, in 3 waves, and write "+rolloutReport+" into -out")
	atSize := flag.String("at-size", "", "instead of the session: the fleet as a hub stack and shard stacks of "+
		"<shards>x<spokes per shard>, for each of these comma-separated sizes, one stack after another, and write "+
		atSizeReport+" into -out")
	argoCDAtSize := flag.String("argocd-at-size", "", "instead of the session: Argo CD's own controllers on a hub with "+
		"each of these comma-separated numbers of clusters registered, and write "+argoCDAtSizeReport+" into -out")
	flag.Parse()

	ctx := context.Background()
	root, err := offline.Root()
	switch {
	case err != nil:
	case *rolloutSize > 0:
		err = rolloutSession(ctx, root, *rolloutSize, *work, *out)
	case *atSize != "":
		err = atSizeSession(ctx, root, *atSize, *work, *out)
	case *argoCDAtSize != "":
		var sizes []int
		if sizes, err = ints("-argocd-at-size", *argoCDAtSize); err == nil {
			err = argoCDAtSizeSession(ctx, root, sizes, *work, *out)
		}
	case *child != "":
		var res engine.Result
		if res, err = engine.Child(ctx, root, engine.Impl(*child), engine.Op(*op), *dir, *stack, *plan); err == nil {
			err = json.NewEncoder(os.Stdout).Encode(res)
		}
	default:
		o := options{reps: *reps, coldRuns: *coldRuns, work: *work, out: *out, profile: *profile}
		o.shards, o.shardSize, err = shardsOf(*sharded)
		if err == nil {
			o.sizes, err = ints("-sizes", *sizes)
		}
		if err == nil && *realSizes != "" {
			o.realSizes, err = ints("-real-sizes", *realSizes)
		}
		if err == nil {
			if o.constructSizes, err = ints("-construct-sizes", *constructSizes); err == nil {
				err = session(ctx, root, o)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleet-bench:", err)
		os.Exit(1)
	}
}

// shardsOf reads -shards: "<shards>x<spokes per shard>", or "" for none (0, 0).
func shardsOf(flagValue string) (int, int, error) {
	if flagValue == "" {
		return 0, 0, nil
	}
	kn, err := ints("-shards", strings.Replace(flagValue, "x", ",", 1))
	if err == nil && len(kn) != 2 {
		err = fmt.Errorf("-shards: %q is not <shards>x<spokes per shard>", flagValue)
	}
	if err != nil {
		return 0, 0, err
	}
	return kn[0], kn[1], nil
}

// ints parses a comma-separated list of positive numbers; "" is none (to measure only what other flags ask for).
func ints(flagName, list string) ([]int, error) {
	var out []int
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive number", flagName, s)
		}
		out = append(out, n)
	}
	return out, nil
}

func session(ctx context.Context, root string, o options) error {
	start := time.Now()
	r, machine, err := newRunner(root, o.work)
	if err != nil {
		return err
	}
	s := report.Session{Date: start, Machine: machine, Profiles: map[string]string{}}

	for _, n := range o.constructSizes {
		res, err := construct.Measure(n)
		if err != nil {
			return fmt.Errorf("construction of %d clusters under mocks: %w", n, err)
		}
		logf("construct %3d clusters: %.2f ms, %.0f allocs per cluster", n, res.NsPerCluster/1e6, res.AllocsPerCluster)
		s.Construct = append(s.Construct, res)
	}
	plugin := filepath.Join(root, "bin", "pulumi-resource-fleet")
	if s.ColdStart, err = coldstart.Measure(plugin, o.coldRuns); err != nil {
		return fmt.Errorf("cold start of %s: %w", plugin, err)
	}
	logf("cold start: median %v over %d runs", s.ColdStart.Median, s.ColdStart.Runs)

	for _, n := range o.sizes {
		for rep := range o.reps {
			for i := range engine.Impls {
				// Rotate the order each repetition; the fleet comes first in the first, for the floor's plan.
				impl := engine.Impls[(i+len(engine.Impls)-rep%len(engine.Impls))%len(engine.Impls)]
				runs, err := r.Measure(ctx, impl, n, rep, r.PlanFile(n, 0))
				if err != nil {
					return err
				}
				for _, run := range runs {
					logf("%-5s %-7s %3d clusters (rep %d): %6.1f s, %5d resources", impl, run.Op, n, rep, run.Seconds, run.Resources)
				}
				s.Runs = append(s.Runs, runs...)
			}
		}
	}
	if o.shards > 0 {
		if s.Shards, err = r.MeasureShards(ctx, o.shards, o.shardSize, true); err != nil {
			return err
		}
		for _, run := range s.Shards {
			logf("%-7s %-14s %-10s %3d clusters: %6.1f s, %5d resources", run.Impl, run.Op, run.Stack, run.Size, run.Seconds, run.Resources)
		}
	}
	for _, n := range o.realSizes {
		runs, err := r.Measure(ctx, engine.FleetReal, n, 0, "")
		if err != nil {
			return fmt.Errorf("the fleet of %d clusters on real API servers: %w", n, err)
		}
		for _, run := range runs {
			logf("%-10s %-14s %3d clusters: %6.1f s, %5d resources, control planes %d MiB", run.Impl, run.Op, n,
				run.Seconds, run.Resources, run.ControlPlanes>>20)
			if a := run.ArgoCD; a != nil {
				logf("%-10s %-14s %3d clusters: Argo CD settled in %.1f s, %d of %d Applications Synced and Healthy; "+
					"the others: %v", "argocd", "after up", n, a.Seconds, a.Healthy, a.Applications, a.Others)
			}
		}
		s.Real = append(s.Real, runs...)
	}
	if o.profile {
		if err := profileFleet(ctx, r, o.sizes[len(o.sizes)-1], &s); err != nil {
			return err
		}
	}
	// The runs at size come first in make bench, each writing its own files into -out.
	if s.AtSize, err = report.AtSizeTargets(o.out); err != nil {
		return err
	}
	s.Elapsed = time.Since(start)
	if err := report.Write(o.out, s); err != nil {
		return err
	}
	logf("report: %s", filepath.Join(o.out, report.MarkdownFile))
	return nil
}

func logf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
