package procmem

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// allocEnv makes the test binary, run as a child, hold that many MiB resident for a while and exit.
const allocEnv = "PROCMEM_TEST_ALLOC_MIB"

func TestMain(m *testing.M) {
	if mib, err := strconv.Atoi(os.Getenv(allocEnv)); err == nil {
		buf := make([]byte, mib<<20)
		for i := range buf { // touch every page so it is resident
			buf[i] = byte(i)
		}
		time.Sleep(400 * time.Millisecond)
		runtime.KeepAlive(buf)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSamplerSeesTheChildsPeakMemoryAndCPU(t *testing.T) {
	const mib = 96
	cmd := exec.Command("sh", "-c", `"$0" -test.run '^$'`, os.Args[0])
	cmd.Env = append(os.Environ(), allocEnv+"="+strconv.Itoa(mib))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := Start(cmd.Process.Pid, 20*time.Millisecond, nil)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	procs, tree := s.Stop()
	var child *Process
	for i, p := range procs {
		if p.Label == "procmem.test" {
			child = &procs[i]
		}
	}
	if child == nil {
		t.Fatalf("the grandchild procmem.test was not seen; saw %+v", procs)
	}
	if child.PeakRSS < mib<<20 {
		t.Errorf("peak RSS of the child = %d MiB, want at least the %d MiB it touched", child.PeakRSS>>20, mib)
	}
	if child.CPU <= 0 {
		t.Errorf("CPU time of the child = %v, want some (it wrote %d MiB)", child.CPU, mib)
	}
	if tree < mib<<20 {
		t.Errorf("peak tree RSS = %d MiB, want at least %d", tree>>20, mib)
	}
}

func TestLabel(t *testing.T) {
	cases := map[string]struct {
		argv []string
		want string
	}{
		"binary":       {[]string{"/w/bin/pulumi", "up"}, "pulumi"},
		"plugin":       {[]string{"/w/bin/emulator/pulumi-resource-aws"}, "pulumi-resource-aws"},
		"node script":  {[]string{"node", "--max-old-space-size=4096", "/w/node_modules/@pulumi/eks/cmd/provider/index.js", "9000"}, "node index.js"},
		"shell script": {[]string{"/bin/sh", "/w/tools/pulumi-resource-eks"}, "sh pulumi-resource-eks"},
		"none":         {nil, "?"},
	}
	for name, tc := range cases {
		if got := Label(tc.argv); got != tc.want {
			t.Errorf("%s: Label(%q) = %q, want %q", name, tc.argv, got, tc.want)
		}
	}
}

// TestDescendants: a shell's backgrounded grandchild is under the test's child, and the child itself is not.
func TestDescendants(t *testing.T) {
	cmd := exec.Command("sh", "-c", `sleep 5 & echo $!; wait`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var sleep int
	if _, err := fmt.Fscan(out, &sleep); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(sleep, syscall.SIGKILL) }()
	got := Descendants(cmd.Process.Pid)
	if !slices.Contains(got, sleep) || slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("Descendants(%d) = %v, want the sleep %d and not the shell itself", cmd.Process.Pid, got, sleep)
	}
	if mine := Descendants(os.Getpid()); !slices.Contains(mine, sleep) {
		t.Errorf("Descendants of the test process %v lack its grandchild %d", mine, sleep)
	}
}
