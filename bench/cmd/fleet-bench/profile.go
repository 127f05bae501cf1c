package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/hotspots"
	"github.com/gitops-fleet/pulumi-fleet/bench/report"
)

// profileFleet runs the fleet's preview and up of size clusters once more, not timed, with a pprof CPU profile
// of pulumi-resource-fleet and V8 CPU profiles of the Node.js processes (pulumi-eks), and adds the profiles and
// their top functions to s.
func profileFleet(ctx context.Context, r engine.Runner, size int, s *report.Session) error {
	const rep = 99 // a run directory of its own
	dir := filepath.Join(r.Work, "profiles")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "node"), 0o755); err != nil {
		return err
	}
	pprofFiles := filepath.Join(dir, "pulumi-resource-fleet.*.pprof")
	r.Env = append(r.Env, "PULUMI_FLEET_CPU_PROFILE="+filepath.Join(dir, "pulumi-resource-fleet.{pid}.pprof"),
		"FLEET_EKS_NODE_FLAGS=--cpu-prof --cpu-prof-dir="+filepath.Join(dir, "node")+
			" --require="+filepath.Join(r.Root, "tests", "emulator", "tools", "exit-on-signal.js"))
	// Every plugin process writes a file of its own; pprof merges them.
	if _, err := r.Measure(ctx, engine.Fleet, size, rep, r.PlanFile(size, rep)); err != nil {
		return fmt.Errorf("profiled run: %w", err)
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(r.Root, p); err == nil {
			return r
		}
		return p
	}
	profiles, err := filepath.Glob(pprofFiles)
	if err != nil || len(profiles) == 0 {
		return fmt.Errorf("profiled run: no %s (%v)", pprofFiles, err)
	}
	s.Profiles["pulumi-resource-fleet, fleet runs (pprof, one file per process; `go tool pprof bin/pulumi-resource-fleet <files>`)"] = rel(pprofFiles)
	s.Profiles["pulumi-resource-eks (Node.js), fleet preview and up (V8 .cpuprofile; Chrome DevTools)"] = rel(filepath.Join(dir, "node"))
	top, err := hotspots.Pprof(filepath.Join(r.Root, "bin", "pulumi-resource-fleet"), profiles, 12)
	if err != nil {
		return err
	}
	s.Hotspots = append(s.Hotspots, fmt.Sprintf("pulumi-resource-fleet, fleet runs of %d clusters, every process (go tool pprof -top):", size))
	s.Hotspots = append(s.Hotspots, top...)
	v8, err := hotspots.V8(filepath.Join(dir, "node"), 15)
	if err != nil {
		return err
	}
	s.Hotspots = append(s.Hotspots, "", fmt.Sprintf("pulumi-resource-eks (Node.js), fleet preview and up of %d clusters, self time:", size))
	s.Hotspots = append(s.Hotspots, v8...)
	return nil
}
