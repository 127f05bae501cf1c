package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// Sharded is the fleet beyond one stack: the example's hub stack and its shard stacks (fleetgen.Sharded), each
// run by the fleet program.
const Sharded Impl = "sharded"

// AllShards is the Stack of the run that brings every shard up side by side.
const AllShards = "all shards"

// ParallelUp is the up of every shard stack at once, each in a program of its own, started together.
const ParallelUp Op = "parallel-up"

// MeasureShards runs a fleet of k shards of size spokes through the engine, against an offline cloud of its own
// (one backend, so the stack references resolve):
//   - the hub stack's up, then each shard's preview and up, one after another (in sequence);
//   - the change loop (ChangeOps) on shard 1: its toggle, then its added spoke (which the hub lists already);
//   - with sideBySide, in a second directory, the hub stack's up (not reported), then every shard's up at once
//     (ParallelUp), the process trees of all of them sampled as one: its Seconds are the slowest shard's.
func (r Runner) MeasureShards(ctx context.Context, k, size int, sideBySide bool) ([]Run, error) {
	hub, shards, err := fleetgen.Sharded(k, size)
	if err != nil {
		return nil, err
	}
	var runs []Run
	sequence := r.shardsDir(k, size, "sequence")
	env, err := r.shardProject(sequence, hub, shards)
	if err != nil {
		return nil, err
	}
	defer env.Close()
	run := func(stack string, clusters int, op Op) error {
		res, procs, tree, err := r.child(ctx, env, r.fleetChild(sequence, stack, op))
		if err != nil {
			return fmt.Errorf("%s %s of stack %s: %w", Sharded, op, stack, err)
		}
		runs = append(runs, Run{Impl: Sharded, Size: clusters, Op: op, Stack: stack, Result: res[0], Procs: procs, PeakTree: tree})
		return nil
	}
	if err := run(fleetgen.HubStack, 1, Up); err != nil {
		return nil, err
	}
	for i := range shards {
		for _, op := range Ops {
			if err := run(fleetgen.ShardStack(i+1), size, op); err != nil {
				return nil, err
			}
		}
	}
	for _, op := range ChangeOps {
		cfg := fleetgen.WithToggledAddon(shards[0])
		if op == AddPreview || op == AddUp {
			cfg = fleetgen.ShardWithAddedSpoke(1)(cfg)
		}
		if err := writeStack(sequence, fleetgen.ShardStack(1), cfg); err != nil {
			return nil, err
		}
		if err := run(fleetgen.ShardStack(1), size, op); err != nil {
			return nil, err
		}
	}
	if !sideBySide {
		return runs, nil
	}
	parallel, err := r.parallel(ctx, hub, shards, size)
	if err != nil {
		return nil, err
	}
	return append(runs, parallel), nil
}

// parallel brings the hub stack up, then every shard stack at once under one shell, whose process tree is
// sampled as one.
func (r Runner) parallel(ctx context.Context, hub fleetstack.Config, shards []fleetstack.Config, size int) (Run, error) {
	dir := r.shardsDir(len(shards), size, "parallel")
	env, err := r.shardProject(dir, hub, shards)
	if err != nil {
		return Run{}, err
	}
	defer env.Close()
	if _, _, _, err := r.child(ctx, env, r.fleetChild(dir, fleetgen.HubStack, Up)); err != nil {
		return Run{}, fmt.Errorf("%s up of the hub stack: %w", Sharded, err)
	}
	var script []string
	for i := range shards {
		script = append(script, "'"+strings.Join(r.fleetChild(dir, fleetgen.ShardStack(i+1), Up), "' '")+"' &")
	}
	script = append(script, "wait")
	res, procs, tree, err := r.child(ctx, env, []string{"sh", "-c", strings.Join(script, "\n")})
	if err != nil {
		return Run{}, fmt.Errorf("%s %s: %w", Sharded, ParallelUp, err)
	}
	if len(res) != len(shards) {
		return Run{}, fmt.Errorf("%s %s: %d of %d shard ups reported a result", Sharded, ParallelUp, len(res), len(shards))
	}
	out := Run{Impl: Sharded, Size: len(shards) * size, Op: ParallelUp, Stack: AllShards, Procs: procs, PeakTree: tree}
	for _, x := range res {
		out.Seconds = max(out.Seconds, x.Seconds)
		out.Resources += x.Resources
	}
	return out, nil
}

// fleetChild is the command of a child that runs op of the fleet program on stack in dir's project.
func (r Runner) fleetChild(dir, stack string, op Op) []string {
	return []string{r.Self, "-child", string(Fleet), "-op", string(op), "-dir", projectDir(dir), "-stack", stack}
}

// shardsDir is the work directory of a sharded fleet's runs of one kind.
func (r Runner) shardsDir(k, size int, kind string) string {
	return filepath.Join(r.Work, fmt.Sprintf("%s-%dx%d-%s", Sharded, k, size, kind))
}

// shardProject empties dir, writes the example's project with the hub's and the shards' stack files, and starts
// an offline cloud there.
func (r Runner) shardProject(dir string, hub fleetstack.Config, shards []fleetstack.Config) (*offline.Env, error) {
	if err := r.newProject(dir, true); err != nil {
		return nil, err
	}
	if err := writeStack(dir, fleetgen.HubStack, hub); err != nil {
		return nil, err
	}
	for i, cfg := range shards {
		if err := writeStack(dir, fleetgen.ShardStack(i+1), cfg); err != nil {
			return nil, err
		}
	}
	return offline.New(r.Root, dir)
}
