package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCachedBuildsOncePerKey runs cached.sh as the Makefile does, over a make target that counts its runs: the first
// run builds and keeps the output; a clean clone elsewhere (another path) copies it back newer than what pins it, so
// make sees it up to date; a changed key file or recipe builds again and drops the older entry; TOOL_CACHE empty
// always builds.
func TestCachedBuildsOncePerKey(t *testing.T) {
	script, err := filepath.Abs("cached.sh")
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	clone := func(t *testing.T) string {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "Makefile"), "V ?= 1\nbuild-x:\n\techo run >> runs.log\n\tmkdir -p bin/x && echo $(V) > $(CURDIR)/bin/x/tool\n")
		write(t, filepath.Join(dir, "go.sum"), "example.com/x v1.0.0 h1:abc\n")
		return dir
	}
	run := func(t *testing.T, dir, cache string, env ...string) {
		t.Helper()
		cmd := exec.Command("bash", script, "x", "go.sum", "--", "bin/x/tool", "--", "build-x")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), append([]string{"TOOL_CACHE=" + cache}, env...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cached.sh: %v\n%s", err, out)
		}
	}
	runs := func(dir string) int {
		b, _ := os.ReadFile(filepath.Join(dir, "runs.log"))
		return strings.Count(string(b), "run\n")
	}
	entries := func() int {
		m, _ := filepath.Glob(filepath.Join(cache, "x-*"))
		return len(m)
	}
	tool := func(dir string) string {
		b, _ := os.ReadFile(filepath.Join(dir, "bin/x/tool"))
		return strings.TrimSpace(string(b))
	}

	first := clone(t)
	run(t, first, cache)
	if runs(first) != 1 || tool(first) != "1" || entries() != 1 {
		t.Fatalf("first run: %d builds, tool %q, %d entries; want one of each", runs(first), tool(first), entries())
	}

	second := clone(t)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(cache, mustGlob(t, cache, "x-*"), "files/bin/x/tool"), old, old); err != nil {
		t.Fatal(err)
	}
	run(t, second, cache)
	if runs(second) != 0 || tool(second) != "1" {
		t.Errorf("another clone: %d builds, tool %q; want it copied", runs(second), tool(second))
	}
	out, _ := os.Stat(filepath.Join(second, "bin/x/tool"))
	key, _ := os.Stat(filepath.Join(second, "go.sum"))
	if out == nil || key == nil || out.ModTime().Before(key.ModTime()) {
		t.Error("the copied tool is older than its go.sum: make would build it again")
	}

	write(t, filepath.Join(second, "go.sum"), "example.com/x v1.0.1 h1:def\n")
	run(t, second, cache)
	if runs(second) != 1 || entries() != 1 {
		t.Errorf("a new go.sum: %d builds, %d entries; want a build and only its entry", runs(second), entries())
	}
	run(t, second, cache, "V=2")
	if runs(second) != 2 || tool(second) != "2" {
		t.Errorf("a new recipe: %d builds, tool %q; want a second build", runs(second), tool(second))
	}

	run(t, first, "")
	run(t, first, "")
	if runs(first) != 3 {
		t.Errorf("without TOOL_CACHE: %d builds in all, want every run to build", runs(first))
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustGlob(t *testing.T, dir, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(m) != 1 {
		t.Fatalf("%s in %s: %v (%v)", pattern, dir, m, err)
	}
	return filepath.Base(m[0])
}
