package fleettest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// Options choose what an Env runs on.
type Options struct {
	// EmulatedKubernetes keeps the clusters' Kubernetes objects in the emulated store (tests/emulator/kubernetes)
	// instead of a real control plane behind each EKS cluster: for a run that never reaches a server (a preview, the
	// EKS Capabilities API). Default: real control planes and the real Kubernetes provider.
	EmulatedKubernetes bool
}

// skipCheckpoints has the engine save a stack's state at the end of each operation only: the per-step saves are
// durability against a crash, which only a test that kills the CLI exercises (Stack.Checkpoints), and they cost the
// engine most of its CPU on a fleet's first up (each rewrites the whole state file).
const skipCheckpoints = "PULUMI_SKIP_CHECKPOINTS"

// Env is one test's offline run: its backend, cloud, control planes, Argo CD and Git. Its methods report failures to
// the test it was made for (New) or bound to (For).
type Env struct {
	t   testing.TB
	run *run
}

// run is what the Envs bound to different tests of one run share.
type run struct {
	off  *offline.Env
	mark string

	mu     sync.Mutex
	argocd map[string]*ArgoCD // by control plane
}

var sweepOnce sync.Once

// WaitedFor starts the line a test logs when it waited for a run (gate): tests/testreport takes the wait off the
// test's time.
const WaitedFor = "fleettest: waited"

// New starts an offline run for t in a fresh temporary directory (`make offline` builds what it needs) and stops
// it, with every process it started, when t ends. The first New of a test binary sweeps what dead runs left running.
// A parallel test waits here for one of the harness's runs (ParallelEnv, Order).
func New(t testing.TB, opts Options) *Env {
	t.Helper()
	sweepOnce.Do(func() {
		for _, p := range Sweep() {
			t.Logf("killed a process an earlier test run left running: %d %s", p.PID, p.Command)
		}
	})
	waited, release := gate.enter(t.Name())
	t.Cleanup(release) // after the run's own cleanup, registered later
	if waited > time.Second {
		t.Logf("%s %.1fs for a run", WaitedFor, waited.Seconds())
	}
	e, err := start(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{t: t, run: e}
	t.Cleanup(func() { env.close() })
	return env
}

// start opens the run in dir.
func start(dir string, opts Options) (*run, error) {
	mark, err := newRun()
	if err != nil {
		return nil, err
	}
	root, err := offline.Root()
	if err != nil {
		return nil, err
	}
	off, err := offline.Open(root, dir, offline.Options{ControlPlanes: !opts.EmulatedKubernetes,
		Mark: map[string]string{RunEnv: mark}})
	if err != nil {
		return nil, err
	}
	off.Vars[skipCheckpoints] = "true"
	return &run{off: off, mark: mark, argocd: map[string]*ArgoCD{}}, nil
}

// For is the Env reporting to t: a subtest's.
func (e *Env) For(t testing.TB) *Env { return &Env{t: t, run: e.run} }

// T is the test the Env reports to.
func (e *Env) T() testing.TB { return e.t }

// Offline is the run underneath, for what the front door does not say.
func (e *Env) Offline() *offline.Env { return e.run.off }

// Root is the repository's root.
func (e *Env) Root() string { return e.run.off.Root }

// Dir is the run's work directory.
func (e *Env) Dir() string { return e.run.off.Dir }

// close stops Argo CD, deletes the control planes, stops the network, then kills whatever process of the run is
// still there after a grace period (a plugin the engine has not yet stopped), which it logs.
func (e *Env) close() {
	r := e.run
	r.mu.Lock()
	for _, a := range r.argocd {
		a.stop()
	}
	r.mu.Unlock()
	if r.off.Clusters != nil {
		if err := r.off.Clusters.DeleteAll(context.Background()); err != nil {
			e.t.Errorf("deleting the control planes: %v", err)
		}
	}
	_ = r.off.Close()
	mine := func(run string) bool { return run == r.mark }
	deadline := time.Now().Add(10 * time.Second)
	for len(Marked(mine)) > 0 && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
	}
	left := Marked(mine)
	for _, p := range left {
		e.t.Logf("killing a process of the run still there after its end: %d %s", p.PID, p.Command)
	}
	for _, p := range Kill(left) {
		e.t.Errorf("process %d of the run survives SIGKILL: %s", p.PID, p.Command)
	}
}

// progress is a log file in the run's directory for the output of op, whose end the test logs when it fails.
func (e *Env) progress(op string) *os.File {
	t := e.t
	t.Helper()
	f, err := os.CreateTemp(e.Dir(), strings.NewReplacer("/", "-", " ", "-").Replace(op)+"-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.Close()
		if t.Failed() {
			data, _ := os.ReadFile(f.Name())
			t.Logf("%s output (%s):\n%s", op, filepath.Base(f.Name()), offline.Tail(string(data), 60))
		}
	})
	return f
}

// Environ is the run's environment, for a program the test starts itself (a Node.js or Python program of the
// Automation API, the fleet command): the CLI, backend, secrets provider and offline network its operations use.
func (e *Env) Environ() []string {
	env := os.Environ()
	for k, v := range e.run.off.Vars {
		env = append(env, k+"="+v)
	}
	return env
}

// Pulumi runs the Pulumi CLI with args in dir, in the run's environment, and returns its standard output; a
// failure fails the test with its standard error.
func (e *Env) Pulumi(dir string, args ...string) string {
	e.t.Helper()
	stdout, stderr, err := e.run.off.Run(context.Background(), dir, args...)
	if err != nil {
		e.t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, offline.Tail(stdout+stderr, 40))
	}
	return stdout + stderr
}

// Tail is the last n lines of s, for a message that quotes a long output.
func Tail(s string, n int) string { return offline.Tail(s, n) }
