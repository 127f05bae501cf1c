package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/bench/floor"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
)

// Child runs op of a Go program (Fleet or Floor) on stack in projectDir as an inline program and returns its Result.
// The environment (PATH with the CLI and plugins, backend, store, proxy) is the one Measure gives the child.
// After the fleet's up, the stack export is written to plan (when given) for the floor; the floor reads its
// resources from plan.
func Child(ctx context.Context, root string, impl Impl, op Op, projectDir, stack, plan string) (Result, error) {
	var program pulumi.RunFunc
	switch impl {
	case Fleet, FleetReal:
		program = fleetstack.Run
	case Floor:
		data, err := os.ReadFile(plan)
		if err != nil {
			return Result{}, fmt.Errorf("the floor needs the fleet's stack export: %w", err)
		}
		var d apitype.UntypedDeployment
		if err := json.Unmarshal(data, &d); err != nil {
			return Result{}, fmt.Errorf("%s: %w", plan, err)
		}
		resources, err := floor.Plan(d)
		if err != nil {
			return Result{}, err
		}
		program = floor.Program(resources)
	default:
		return Result{}, fmt.Errorf("%s is not a Go program", impl)
	}
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: root, SkipVersionCheck: true})
	if err != nil {
		return Result{}, err
	}
	s, err := auto.UpsertStackInlineSource(ctx, stack, "", program, auto.WorkDir(projectDir),
		auto.Pulumi(cmd), auto.SecretsProvider("passphrase"))
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	var changed int
	switch op.Verb() {
	case Preview:
		res, err := s.Preview(ctx)
		if err != nil {
			return Result{}, err
		}
		changed = changes(res.ChangeSummary)
	case Up:
		res, err := s.Up(ctx)
		if err != nil {
			return Result{}, err
		}
		if res.Summary.ResourceChanges != nil {
			changed = changes(*res.Summary.ResourceChanges)
		}
	}
	result := Result{Seconds: time.Since(start).Seconds(), Resources: changed}
	if impl == Fleet && op.Verb() == Up && plan != "" {
		export, err := s.Export(ctx)
		if err != nil {
			return Result{}, err
		}
		data, err := json.Marshal(export)
		if err != nil {
			return Result{}, err
		}
		if err := os.WriteFile(plan, data, 0o600); err != nil {
			return Result{}, err
		}
	}
	return result, nil
}

// changes counts the resources an operation creates, updates, replaces or deletes: every entry but "same".
func changes[M ~map[K]int, K ~string](summary M) int {
	n := 0
	for op, count := range summary {
		if op != "same" {
			n += count
		}
	}
	return n
}
