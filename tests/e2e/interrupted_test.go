package e2e

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"

	"github.com/gitops-fleet/pulumi-fleet/bench/procmem"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// interruptedUp is `make demo` killed during its first `up` of stack, then run again, as a new user would: the CLI
// and its plugins are killed (SIGKILL) once the first EKS cluster exists, while the others are being created. The
// next plain `up` fails on the stack's lock, as Pulumi's file backend says; offline's Recover (what the demo runner
// does before every run) clears that lock, whose process is gone, and settles the pending creates; then `up`
// converges, the next preview plans nothing, and the offline cloud holds each resource of the state once and nothing
// else. The killed up saves the stack's state after every step (Stack.Checkpoints), as a user's does, so the kill
// leaves what it would leave a user; the up that converges after it saves at its end, as every other run of the
// harness does (what a run converges to does not depend on when it saves).
func interruptedUp(t *testing.T, env *fleettest.Env, stack *fleettest.Stack) {
	ctx := context.Background()
	off := env.Offline()

	stream := make(chan events.EngineEvent)
	killed := make(chan int, 1)
	go func() {
		for e := range stream {
			if e.ResOutputsEvent == nil || e.ResOutputsEvent.Metadata.Type != "aws:eks/cluster:Cluster" || len(killed) > 0 {
				continue
			}
			// The CLI that holds the lock and every process under it (its plugins, node for pulumi-eks, a kwokctl
			// at work), as a terminal kills a job; it shares the test's process group, so not by group. The control
			// planes kwokctl started are in sessions of their own and stay, as they would.
			if locks, _ := off.Locks(stack.Name()); len(locks) > 0 && locks[0].Pid > 0 {
				pid := locks[0].Pid
				killed <- pid // before the kill: Up returns as soon as the CLI dies
				for _, p := range append(procmem.Descendants(pid), pid) {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}
		}
	}()
	if _, err := stack.TryUp("killed-up", optup.EventStreams(stream)); err == nil {
		t.Fatal("the killed up succeeded")
	}
	if len(killed) == 0 {
		t.Fatal("up ended before any EKS cluster was created: nothing was killed")
	}

	// The kill may land between a checkpoint and its fileblob sidecar; the backend writes none (see offline's Env).
	_ = filepath.WalkDir(filepath.Join(env.Dir(), "state"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".attrs") {
			t.Errorf("the backend wrote a sidecar a kill can tear: %s", path)
		}
		return nil
	})
	if _, err := stack.TryUp("locked-up"); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("up after the kill: %v, want the stack's lock", err)
	}
	var said bytes.Buffer
	if err := off.Recover(ctx, stack.Auto, &said); err != nil {
		t.Fatalf("recover: %v\n%s", err, said.String())
	}
	for _, line := range strings.Split(said.String(), "\n") {
		if strings.HasPrefix(line, "cleared") || strings.HasPrefix(line, "settling") {
			t.Logf("recover: %s", line)
		}
	}
	// Whether the state still records pending creates depends on when the kill lands between two checkpoints: the
	// lock is always there, the settling refresh only then.
	if !strings.Contains(said.String(), "cleared the lock of an interrupted run whose process is gone") {
		t.Errorf("recover said:\n%s", fleettest.Tail(said.String(), 20))
	}
	stack.Checkpoints(false)
	stack.Up("up")
	stack.Settled()

	// Nothing lost or duplicated: every record of the offline cloud is a resource of the state, once.
	_, deployment := stack.Export(false)
	inState := map[string]bool{}
	for _, r := range deployment.Resources {
		inState[string(r.URN)] = true
	}
	seen := map[string]int{}
	for _, r := range env.Cloud().Records("", "") {
		seen[r.URN]++
		if !inState[r.URN] {
			t.Errorf("%s %s is in the cloud but not in the state (an orphan of the killed run)", r.Type, r.ID)
		}
	}
	for urn, n := range seen {
		if n > 1 {
			t.Errorf("%s made %d resources", urn, n)
		}
	}
	for _, o := range stateObjects(env, stack) {
		if _, err := o.get(ctx, env); err != nil {
			t.Errorf("%s %s/%s: %v", o.kind, o.namespace, o.name, err)
		}
	}
}
