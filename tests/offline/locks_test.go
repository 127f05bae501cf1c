package offline

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestClearStaleLocks: the lock of a process that is gone is removed, with the path reported; a live process's
// lock, another host's and another stack's stay.
func TestClearStaleLocks(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	// A process that has run and ended: its pid is free again (and not reused within the test).
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	gone := done.Process.Pid
	e := &Env{Dir: t.TempDir()}
	dir := filepath.Join(e.Dir, "state", ".pulumi", "locks", "organization", "fleet")
	write := func(stack, id string, pid int, hostname string) string {
		path := filepath.Join(dir, stack, id+".json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(map[string]any{"pid": pid, "hostname": hostname, "username": "root",
			"timestamp": "2026-11-25T00:00:00Z"})
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale := write("dev", "a", gone, host)
	live := write("dev", "b", os.Getpid(), host)
	remote := write("dev", "c", gone, host+"-elsewhere")
	other := write("prod", "d", gone, host)

	removed, err := e.ClearStaleLocks("dev")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{stale}) {
		t.Errorf("removed %v, want only %s", removed, stale)
	}
	for _, kept := range []string{live, remote, other} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s is still there", stale)
	}
}
