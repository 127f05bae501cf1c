package fleettest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// helperEnv tells the test binary, run again by TestReaperReapsADeadRun, to play a run that dies: it is the folder
// where the dying run writes its mark.
const helperEnv = "FLEETTEST_DYING_RUN"

// TestReaperReapsADeadRun kills a run's test binary in each way a test binary dies, with a real control plane (etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler, kwok: kwokctl starts them detached, in sessions of their
// own) and a detached process of the run running: within seconds nothing of the run is left.
func TestReaperReapsADeadRun(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("the dying run itself (TestDyingRun)")
	}
	root, err := offline.Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "kube", "kwokctl")); err != nil {
		t.Fatalf("%v: build the control plane first with `make kube`", err)
	}
	cases := map[string]struct {
		reason string
		args   []string
		kill   bool
	}{
		"SIGKILL": {reason: "a kill leaves the binary no code to run", kill: true},
		"timeout": {reason: "go test's -timeout panics, and no Cleanup runs", args: []string{"-test.timeout=40s"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestDyingRun$"}, c.args...)...)
			cmd.Env = append(os.Environ(), helperEnv+"="+dir)
			out, err := os.Create(filepath.Join(dir, "out.log"))
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			mark := waitForFile(t, filepath.Join(dir, "mark"), 2*time.Minute, cmd)
			running := Marked(func(run string) bool { return run == mark })
			if len(running) < 6 {
				t.Fatalf("the dying run has %d processes, want its control plane's and its own: %v", len(running), running)
			}
			if c.kill {
				_ = cmd.Process.Kill()
			}
			_ = cmd.Wait()
			deadline := time.Now().Add(15 * time.Second)
			for time.Now().Before(deadline) && len(Marked(func(run string) bool { return run == mark })) > 0 {
				time.Sleep(200 * time.Millisecond)
			}
			if left := Marked(func(run string) bool { return run == mark }); len(left) > 0 {
				Kill(left)
				log, _ := os.ReadFile(out.Name())
				t.Errorf("%s (%s): still running 15 s after the run died: %v\n%s", name, c.reason, left, log)
			}
		})
	}
}

// TestDyingRun is the run TestReaperReapsADeadRun kills: it starts a control plane and a detached process with its
// mark, writes the mark, and waits to die.
func TestDyingRun(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("run by TestReaperReapsADeadRun")
	}
	mark, err := newRun()
	if err != nil {
		t.Fatal(err)
	}
	root, err := offline.Root()
	if err != nil {
		t.Fatal(err)
	}
	clusters := controlplane.Clusters{Workdir: filepath.Join(dir, "clusters"), Bin: filepath.Join(root, "bin", "kube"),
		Network: map[string]string{RunEnv: mark}}
	if err := clusters.Create(context.Background(), "dying", nil); err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command("sleep", "600")
	sleeper.Env = append(os.Environ(), RunEnv+"="+mark)
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mark"), []byte(mark), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Minute)
}

// TestSweepKillsWhatADeadBinaryLeft: a process marked with a run whose test binary is gone (its reaper gone with it)
// is killed by the next binary's sweep; a run of a live binary is left alone.
func TestSweepKillsWhatADeadBinaryLeft(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	start := func(owner int) *exec.Cmd {
		cmd := exec.Command("sleep", "600")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d-1", RunEnv, owner))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	orphan := start(dead.Process.Pid)
	live := exec.Command("sleep", "600")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = live.Process.Kill(); _ = live.Wait() })
	kept := start(live.Process.Pid)
	exited := make(chan struct{})
	go func() { _ = orphan.Wait(); close(exited) }()

	swept := Sweep()
	var pids []string
	for _, p := range swept {
		pids = append(pids, strconv.Itoa(p.PID))
	}
	if !strings.Contains(" "+strings.Join(pids, " ")+" ", fmt.Sprintf(" %d ", orphan.Process.Pid)) {
		t.Errorf("the sweep killed %v, not the orphan %d", pids, orphan.Process.Pid)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Error("the orphan still runs 5 s after the sweep")
	}
	if !alive(kept.Process.Pid) {
		t.Error("the sweep killed a process of a live binary's run")
	}
}

// waitForFile is the content of file once it exists; the test fails if cmd ends first or timeout passes.
func waitForFile(t *testing.T, file string, timeout time.Duration, cmd *exec.Cmd) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(file); err == nil {
			return string(data)
		}
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no %s within %s", file, timeout)
	return ""
}
