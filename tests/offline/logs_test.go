package offline

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNoAutomaticLogs: the pinned Pulumi CLI writes an automatic log to a home of its own, and none to a home
// noAutomaticLogs prepared (the file stays a file); a home with the folder already keeps it.
func TestNoAutomaticLogs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(root, "bin", "pulumi")
	if _, err := os.Stat(cli); err != nil {
		t.Fatalf("the Pulumi CLI: %v; build it with `make offline`", err)
	}
	// logs runs `pulumi version` with home as PULUMI_HOME and returns the log files it leaves there.
	logs := func(home string) []string {
		t.Helper()
		cmd := exec.Command(cli, "version")
		cmd.Env = append(os.Environ(), "PULUMI_HOME="+home, "PULUMI_SKIP_UPDATE_CHECK=true")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pulumi version: %v\n%s", err, out)
		}
		found, err := filepath.Glob(filepath.Join(home, "logs", "*.log"))
		if err != nil {
			t.Fatal(err)
		}
		return found
	}

	if got := logs(t.TempDir()); len(got) != 1 {
		t.Errorf("a home of its own: the CLI left %v, want one automatic log (if it no longer writes one, "+
			"noAutomaticLogs is not needed)", got)
	}

	home := t.TempDir()
	if err := noAutomaticLogs(home); err != nil {
		t.Fatal(err)
	}
	if got := logs(home); len(got) != 0 {
		t.Errorf("a home noAutomaticLogs prepared: the CLI left %v", got)
	}
	if fi, err := os.Stat(filepath.Join(home, "logs")); err != nil || fi.IsDir() {
		t.Errorf("a home noAutomaticLogs prepared: logs is %v (%v), want the empty file", fi, err)
	}
	if err := noAutomaticLogs(home); err != nil {
		t.Errorf("preparing the same home again: %v", err)
	}

	kept := t.TempDir()
	if err := os.Mkdir(filepath.Join(kept, "logs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := noAutomaticLogs(kept); err != nil {
		t.Fatal(err)
	}
	if got := logs(kept); len(got) != 1 {
		t.Errorf("a home with the folder already: the CLI left %v, want one automatic log", got)
	}
}
