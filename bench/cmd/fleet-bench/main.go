// Command fleet-bench is `make bench`: it measures component construction under mocks, the plugin's cold
// start, and preview and up of fleets of 3, 15 and 45 clusters through the real engine for the fleet, the floor
// and the TypeScript peer, interleaved in one session, then writes the report to bench/results.
//
// With -child it is instead one measured operation of a Go program (the engine package starts it so).
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

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

func main() {
	child := flag.String("child", "", "run one operation of this Go program (fleet or floor) and print its result")
	op := flag.String("op", "", "with -child: preview or up")
	dir := flag.String("dir", "", "with -child: the project directory")
	plan := flag.String("plan", "", "with -child: the fleet's stack export (written by the fleet's up, read by the floor)")
	sizes := flag.String("sizes", "3,15,45", "fleet sizes (clusters), comma-separated")
	impls := flag.String("impls", "fleet,floor,peer", "programs to compare, comma-separated")
	work := flag.String("work", ".work/bench", "work directory (state of every run)")
	flag.Parse()

	ctx := context.Background()
	root, err := offline.Root()
	if err == nil && *child != "" {
		var res engine.Result
		if res, err = engine.Child(ctx, root, engine.Impl(*child), engine.Op(*op), *dir, *plan); err == nil {
			err = json.NewEncoder(os.Stdout).Encode(res)
		}
	} else if err == nil {
		err = session(ctx, root, *work, *sizes, *impls)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleet-bench:", err)
		os.Exit(1)
	}
}

func session(ctx context.Context, root, work, sizeList, implList string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	work, err = filepath.Abs(work)
	if err != nil {
		return err
	}
	r := engine.Runner{Root: root, Work: work, Self: self, Interval: 200 * time.Millisecond}
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-sizes: %q is not a number", s)
		}
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		for _, impl := range strings.Split(implList, ",") {
			if err := r.Prepare(engine.Impl(impl), n, 0); err != nil {
				return err
			}
			for _, op := range []engine.Op{engine.Preview, engine.Up} {
				run, err := r.Measure(ctx, engine.Impl(impl), n, 0, op, r.PlanFile(n, 0))
				if err != nil {
					return err
				}
				fmt.Printf("%-5s %-7s %3d clusters: %7.1f s, %5d resources, tree peak %d MiB\n", impl, op, n, run.Seconds, run.Resources, run.PeakTree>>20)
				for _, p := range run.Procs {
					fmt.Printf("    %-32s %6d MiB %7.1f s CPU\n", p.Label, p.PeakRSS>>20, p.CPU.Seconds())
				}
			}
		}
	}
	return nil
}
