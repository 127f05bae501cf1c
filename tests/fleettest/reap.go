package fleettest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// RunEnv is the variable that marks every process of a harness run: the CLI and its plugins, the control planes'
// etcd, API servers, controllers, kwok and authenticators (kwokctl starts them with its own environment), Argo CD's
// processes and Redis. Its value is `<pid>-<n>`: the test binary's process and the run's number in it.
const RunEnv = "PULUMI_FLEET_HARNESS_RUN"

var (
	runs       atomic.Int64
	reaperOnce sync.Once
	reaperErr  error
)

// newRun is a fresh mark for a run of this process. The first starts the reaper.
func newRun() (string, error) {
	reaperOnce.Do(func() { reaperErr = startReaper() })
	return fmt.Sprintf("%d-%d", os.Getpid(), runs.Add(1)), reaperErr
}

// reaperScript waits until its standard input ends, which happens when the test binary, the only holder of the
// pipe's other end, exits in any way (a panic on -timeout, SIGKILL), then kills every process marked with one of the
// binary's runs ($1 is `<pid>-`) three times over, a second apart, for what a dying parent was starting.
const reaperScript = `cat >/dev/null
for round in 1 2 3; do
  for e in /proc/[0-9]*/environ; do
    if grep -qz "^` + RunEnv + `=$1" "$e" 2>/dev/null; then p=${e#/proc/}; kill -9 "${p%/environ}" 2>/dev/null; fi
  done
  sleep 1
done`

// startReaper starts the reaper of this test binary: a shell in a process group of its own (a terminal's Ctrl-C or
// go test's signals reach the test binary, not it) holding the read end of a pipe whose write end only this process
// has (os/exec gives children no other descriptor).
func startReaper() error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command("sh", "-c", reaperScript, "reaper", fmt.Sprintf("%d-", os.Getpid()))
	cmd.Stdin, cmd.Env = r, []string{"PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("the harness's reaper: %w", err)
	}
	r.Close()
	keep = w // never closed: the process's exit closes it
	go func() { _ = cmd.Wait() }()
	return nil
}

// keep holds the reaper's pipe for the life of the process.
var keep *os.File

// Process is a process of a harness run.
type Process struct {
	PID     int
	Run     string // its mark
	Command string // its command line, for messages
}

// Marked are the processes whose environment marks them with a run for which owned says true.
func Marked(owned func(run string) bool) []Process {
	entries, _ := filepath.Glob("/proc/[0-9]*/environ")
	var out []Process
	prefix := []byte(RunEnv + "=")
	for _, e := range entries {
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(e)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		data, err := os.ReadFile(e)
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(data, []byte{0}) {
			if run, ok := bytes.CutPrefix(kv, prefix); ok && owned(string(run)) {
				cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
				out = append(out, Process{PID: pid, Run: string(run),
					Command: strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))})
				break
			}
		}
	}
	return out
}

// Kill kills procs (SIGKILL) and waits up to a few seconds for them to be gone; it returns those still there.
func Kill(procs []Process) []Process {
	for _, p := range procs {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var left []Process
		for _, p := range procs {
			if alive(p.PID) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// alive says whether pid is a live process (a zombie, dead but not waited for, is not).
func alive(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// Sweep kills what earlier harness runs left running: the processes marked with a run whose test binary is gone (a
// binary killed before its reaper could act, or a reaper killed with it). It returns what it killed.
func Sweep() []Process {
	stale := Marked(func(run string) bool {
		owner, _, _ := strings.Cut(run, "-")
		pid, err := strconv.Atoi(owner)
		return err == nil && pid != os.Getpid() && !alive(pid)
	})
	Kill(stale)
	return stale
}
