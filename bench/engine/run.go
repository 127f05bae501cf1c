package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/bench/procmem"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// Impl is a program the benchmarks compare.
type Impl string

const (
	// Fleet is examples/fleet: FleetCluster and GitOpsBridge through the Go SDK and pulumi-resource-fleet.
	Fleet Impl = "fleet"
	// Floor registers the fleet's custom resources directly (bench/floor).
	Floor Impl = "floor"
	// Peer is the fleet in TypeScript on @pulumi/eks and @pulumi/awsx, without pulumi-fleet (bench/peer).
	Peer Impl = "peer"
)

// Impls are the programs, in the order the report lists them.
var Impls = []Impl{Fleet, Floor, Peer}

// Op is a Pulumi operation.
type Op string

// The operations measured: a preview of an empty stack, then an up that creates everything.
const (
	Preview Op = "preview"
	Up      Op = "up"
)

// The change loop, run on the stack the up made: enabling one add-on on one spoke (fleetgen.WithToggledAddon),
// then adding one spoke (fleetgen.WithAddedSpoke), each a preview then an up.
const (
	TogglePreview Op = "toggle-preview"
	ToggleUp      Op = "toggle-up"
	AddPreview    Op = "add-preview"
	AddUp         Op = "add-up"
)

// ChangeOps are the change loop's operations, in order, after Ops.
var ChangeOps = []Op{TogglePreview, ToggleUp, AddPreview, AddUp}

// Verb is the Pulumi operation op runs: preview or up.
func (op Op) Verb() Op {
	if op == Preview || op == TogglePreview || op == AddPreview {
		return Preview
	}
	return Up
}

// change is the config edit an operation runs on (nil for the new stack's config).
func (op Op) change() func(fleetstack.Config) fleetstack.Config {
	switch op {
	case TogglePreview, ToggleUp:
		return fleetgen.WithToggledAddon
	case AddPreview, AddUp:
		return func(c fleetstack.Config) fleetstack.Config {
			return fleetgen.WithAddedSpoke(fleetgen.WithToggledAddon(c))
		}
	}
	return nil
}

// PlanFor is the fleet's stack export the floor registers for op: the one the fleet's up of the same config left.
func PlanFor(plan string, op Op) string {
	switch op {
	case TogglePreview, ToggleUp:
		return strings.TrimSuffix(plan, ".json") + "-toggle.json"
	case AddPreview, AddUp:
		return strings.TrimSuffix(plan, ".json") + "-add.json"
	}
	return plan
}

// StackName is the stack every run uses.
const StackName = "bench"

// Result is what a child reports on the last line of its output.
type Result struct {
	// Seconds is the wall time of the operation alone (not the program's or the CLI's start-up before it).
	Seconds float64 `json:"seconds"`
	// Resources is how many resources the operation changes (or would change): creates on a new stack.
	Resources int `json:"resources"`
}

// Run is one measured operation.
type Run struct {
	Impl Impl
	Size int
	Rep  int
	Op   Op
	// Stack is the stack of a sharded run (the hub's, a shard's, or AllShards); "" for the others, which run on
	// StackName.
	Stack string
	Result
	// Procs are the processes of the child's tree: the program, the CLI and the plugins.
	Procs []procmem.Process
	// PeakTree is the peak of the tree's total resident memory, in bytes.
	PeakTree int64
	// ControlPlanes is the resident memory of the run's Kubernetes control planes once the operation ended, in
	// bytes, and ControlPlaneCount how many there were (FleetReal only; they are not in the child's tree).
	ControlPlanes     int64
	ControlPlaneCount int
	// ArgoCD is Argo CD on the hub after the operation (FleetReal's Up only).
	ArgoCD *ArgoCDRun
}

// Runner starts the children of one benchmark session.
type Runner struct {
	// Root is the repository root; Work the directory runs keep their state in.
	Root, Work string
	// Self is the fleet-bench binary, started with Child's flags for the Go programs.
	Self string
	// Interval is how often the process tree is sampled.
	Interval time.Duration
	// Checkpoints keeps the file backend's intermediate checkpoints. Without them (the default) the engine saves
	// the state once at the end (PULUMI_SKIP_CHECKPOINTS): the file backend rewrites the whole state after every
	// step, which grows with the square of the stack's size and swamps what is measured, while Pulumi Cloud
	// journals each step instead.
	Checkpoints bool
	// Env is added to the children's environment (profiling switches).
	Env []string
}

// Dir is the work directory of impl at size, repetition rep.
func (r Runner) Dir(impl Impl, size, rep int) string {
	return filepath.Join(r.Work, fmt.Sprintf("%s-%d-r%d", impl, size, rep))
}

// PlanFile is where the fleet's up at size, repetition rep, leaves its stack export for the floor.
func (r Runner) PlanFile(size, rep int) string {
	return filepath.Join(r.Dir(Fleet, size, rep), "deployment.json")
}

// prepare empties the run directory of impl at size and writes its project: Pulumi.yaml from examples/fleet and
// a Pulumi.bench.yaml with the generated fleet of size clusters.
func (r Runner) prepare(impl Impl, size, rep int) error {
	return r.writeProject(impl, size, rep, nil, true)
}

// writeProject writes the project of impl at size (after emptying the run directory when fresh), its stack
// file with the generated fleet edited by change (when not nil).
func (r Runner) writeProject(impl Impl, size, rep int, change func(fleetstack.Config) fleetstack.Config, fresh bool) error {
	dir := r.Dir(impl, size, rep)
	if err := r.newProject(dir, fresh); err != nil {
		return err
	}
	cfg, err := fleetgen.Fleet(size)
	if err != nil {
		return err
	}
	if impl == FleetReal {
		cfg = offlineAddons(cfg)
	}
	if change != nil {
		cfg = change(cfg)
	}
	return writeStack(dir, StackName, cfg)
}

// newProject writes the example's Pulumi.yaml into dir's project, after emptying dir when fresh.
func (r Runner) newProject(dir string, fresh bool) error {
	if fresh {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(projectDir(dir), 0o755); err != nil {
		return err
	}
	project, err := os.ReadFile(filepath.Join(r.Root, "examples", "fleet", "Pulumi.yaml"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(projectDir(dir), "Pulumi.yaml"), project, 0o644)
}

// writeStack writes the stack file of stack, the generated config cfg, in dir's project.
func writeStack(dir, stack string, cfg fleetstack.Config) error {
	data, err := fleetgen.StackFile(cfg)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(projectDir(dir), "Pulumi."+stack+".yaml"), data, 0o644)
}

// openReal is a new run in dir on real control planes: its project, and the offline cloud with them.
func (r Runner) openReal(dir string) (*offline.Env, error) {
	if err := r.newProject(dir, true); err != nil {
		return nil, err
	}
	return offline.Open(r.Root, dir, offline.Options{ControlPlanes: true})
}

// upFleet writes cfg as the stack file of the run in dir and runs the fleet program's up on env: the fleet a
// measurement on real control planes starts from.
func upFleet(ctx context.Context, env *offline.Env, dir string, cfg fleetstack.Config) (auto.Stack, error) {
	if err := writeStack(dir, StackName, cfg); err != nil {
		return auto.Stack{}, err
	}
	stack, err := env.Stack(ctx, projectDir(dir), StackName, fleetstack.Run)
	if err != nil {
		return auto.Stack{}, err
	}
	if _, err := stack.Up(ctx); err != nil {
		return auto.Stack{}, fmt.Errorf("the fleet's up: %w", err)
	}
	return stack, nil
}

func projectDir(dir string) string { return filepath.Join(dir, "project") }

// Ops are the operations Measure runs on each new stack, in order (then ChangeOps).
var Ops = []Op{Preview, Up}

// Measure runs each of Ops of impl at size on a new stack against a new offline cloud in the run's directory
// (emptied first), then each of ChangeOps on that stack (the stack file rewritten for each change), each in a
// child process whose process tree is sampled while it runs. plan is the fleet's stack export the floor
// registers (PlanFor each operation). FleetReal runs on real control planes (openEnv), deleted at the end, and
// each of its runs notes their resident memory once it ends (Run.ControlPlanes).
func (r Runner) Measure(ctx context.Context, impl Impl, size, rep int, plan string) (runs []Run, err error) {
	if err := r.prepare(impl, size, rep); err != nil {
		return nil, err
	}
	dir := r.Dir(impl, size, rep)
	env, err := r.openEnv(impl, dir)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeEnv(env)) }()
	for _, op := range append(slices.Clone(Ops), ChangeOps...) {
		if change := op.change(); change != nil {
			if err := r.writeProject(impl, size, rep, change, false); err != nil {
				return nil, err
			}
			if err := r.withPlugins(env, dir); err != nil {
				return nil, err
			}
		}
		run, err := r.measure(ctx, env, impl, size, rep, op, PlanFor(plan, op))
		if err != nil {
			return nil, err
		}
		run.ControlPlanes, run.ControlPlaneCount = controlPlanesMemory(env)
		if impl == FleetReal && op == Up {
			if run.ArgoCD, err = runArgoCD(ctx, env); err != nil {
				return nil, err
			}
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// measure runs op in a child with env's environment and samples the child's process tree.
func (r Runner) measure(ctx context.Context, env *offline.Env, impl Impl, size, rep int, op Op, plan string) (Run, error) {
	dir := r.Dir(impl, size, rep)
	var argv []string
	switch impl {
	case Fleet, Floor, FleetReal:
		argv = []string{r.Self, "-child", string(impl), "-op", string(op), "-dir", projectDir(dir), "-plan", plan}
	case Peer:
		argv = []string{"node", filepath.Join(r.Root, "bench", "peer", "bin", "run.js"), string(op.Verb()), projectDir(dir), StackName}
	default:
		return Run{}, fmt.Errorf("unknown program %q", impl)
	}
	res, procs, tree, err := r.child(ctx, env, argv)
	if err != nil {
		return Run{}, fmt.Errorf("%s %s of %d clusters: %w", impl, op, size, err)
	}
	return Run{Impl: impl, Size: size, Rep: rep, Op: op, Result: res[len(res)-1], Procs: procs, PeakTree: tree}, nil
}

// child runs argv with env's environment, samples its process tree while it runs, and reads the Results the
// tree's programs print, one JSON line each (one program, or several side by side under a shell).
func (r Runner) child(ctx context.Context, env *offline.Env, argv []string) ([]Result, []procmem.Process, int64, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = r.Root
	cmd.Env = os.Environ()
	for k, v := range env.Vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if !r.Checkpoints {
		cmd.Env = append(cmd.Env, "PULUMI_SKIP_CHECKPOINTS=true")
	}
	cmd.Env = append(cmd.Env, r.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, 0, err
	}
	sampler := procmem.Start(cmd.Process.Pid, r.Interval, label)
	err := cmd.Wait()
	procs, tree := sampler.Stop()
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%w\n%s", err, tail(stderr.String(), 30))
	}
	var results []Result
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	for _, line := range lines {
		var res Result
		if json.Unmarshal([]byte(line), &res) == nil {
			results = append(results, res)
		}
	}
	if len(results) == 0 {
		return nil, nil, 0, fmt.Errorf("no result in the output, last line %q\n%s", lines[len(lines)-1], tail(stderr.String(), 30))
	}
	return results, procs, tree, nil
}

// label names the processes of a run by their part: the program, the CLI, a plugin.
func label(argv []string) string {
	switch l := procmem.Label(argv); l {
	case "fleet-bench":
		return "program (Go)"
	case "node run.js":
		return "program (Node.js)"
	case "node index.js":
		return "pulumi-resource-eks (Node.js)"
	default:
		return l
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
