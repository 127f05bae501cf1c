package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/report"
)

// newRunner is the engine runner of a session of this binary in root, its state under work (made absolute), and the
// machine it runs on.
func newRunner(root, work string) (engine.Runner, report.Machine, error) {
	self, err := os.Executable()
	if err != nil {
		return engine.Runner{}, report.Machine{}, err
	}
	if work, err = filepath.Abs(work); err != nil {
		return engine.Runner{}, report.Machine{}, err
	}
	machine, err := describeMachine(root)
	if err != nil {
		return engine.Runner{}, report.Machine{}, err
	}
	return engine.Runner{Root: root, Work: work, Self: self, Interval: 200 * time.Millisecond}, machine, nil
}

// writeReport writes text to the file name in dir out (made if missing) and returns its path.
func writeReport(out, name, text string) (string, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(out, name)
	return path, os.WriteFile(path, []byte(text), 0o644)
}

// describeMachine reads the CPU count and model and the memory size from /proc, and the Go and CLI versions.
func describeMachine(root string) (report.Machine, error) {
	m := report.Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				m.MemoryGiB = kb / (1 << 20)
			}
		}
	}
	out, err := exec.Command(filepath.Join(root, "bin", "pulumi"), "version").Output()
	if err != nil {
		return m, err
	}
	m.PulumiCLIVersion = strings.TrimSpace(string(out))
	return m, nil
}
