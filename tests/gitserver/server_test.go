package gitserver

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishAndClone publishes a folder twice and clones it over HTTP with the git CLI, as Argo CD's repo server
// fetches: the clone has the second tree at the returned SHA, with the first commit as its parent; a push is refused
// and an unknown repository is not found.
func TestPublishAndClone(t *testing.T) {
	root, src := t.TempDir(), t.TempDir()
	srv := httptest.NewServer(must(Handler(root)))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	repoURL := "https://" + host + "/fleet/addons"
	write(t, filepath.Join(src, "bootstrap", "a.yaml"), "a: 1\n")
	first, err := Publish(root, repoURL, src, "first")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(src, "bootstrap", "a.yaml"), "a: 2\n")
	write(t, filepath.Join(src, "b.yaml"), "b: 1\n")
	second, err := Publish(root, repoURL, src, "second")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := Publish(root, repoURL, src, "again"); err != nil || again != second {
		t.Errorf("publishing the same tree again = %s, %v; want no new commit (%s)", again, err, second)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, "", "clone", "--quiet", srv.URL+"/fleet/addons.git", clone)
	if head := strings.TrimSpace(git(t, clone, "rev-parse", "HEAD")); head != second {
		t.Errorf("HEAD %s, want the second publish %s", head, second)
	}
	if parent := strings.TrimSpace(git(t, clone, "rev-parse", "HEAD^")); parent != first {
		t.Errorf("HEAD^ %s, want the first publish %s", parent, first)
	}
	if data, _ := os.ReadFile(filepath.Join(clone, "bootstrap", "a.yaml")); string(data) != "a: 2\n" {
		t.Errorf("a.yaml = %q, want the second tree's", data)
	}
	git(t, clone, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "--quiet", "--allow-empty", "-m", "evil")
	if out, err := exec.Command("git", "-C", clone, "push", "origin", "HEAD:main").CombinedOutput(); err == nil {
		t.Errorf("a push was accepted: %s", out)
	}
	if out, err := exec.Command("git", "ls-remote", srv.URL+"/fleet/nothing").CombinedOutput(); err == nil {
		t.Errorf("an unknown repository was served: %s", out)
	}
}

// TestBranchAndPublishBranch creates a branch from main, as GitHub's "create a branch" does, then publishes to it, as
// a promotion pushes a stage's branch: the branch starts at main's head, its publish is a child of that and leaves
// main as it was; a branch that exists is not created again, and one from a missing branch fails.
func TestBranchAndPublishBranch(t *testing.T) {
	root, src := t.TempDir(), t.TempDir()
	repoURL := "https://github.com/fleet/deploy"
	write(t, filepath.Join(src, "stacks", "dev", "stack.yaml"), "commit: \"\"\n")
	main, err := Publish(root, repoURL, src, "templates")
	if err != nil {
		t.Fatal(err)
	}
	if sha, err := Branch(root, repoURL, "main", "stage/dev"); err != nil || sha != main {
		t.Fatalf("Branch = %s, %v; want main's head %s", sha, err, main)
	}
	write(t, filepath.Join(src, "stacks", "dev", "stack.yaml"), "commit: abc\n")
	promoted, err := PublishBranch(root, repoURL, "stage/dev", src, "promote")
	if err != nil {
		t.Fatal(err)
	}
	bare := must(Dir(root, repoURL))
	if parent := strings.TrimSpace(git(t, "", "--git-dir="+bare, "rev-parse", promoted+"^")); parent != main {
		t.Errorf("the promotion's parent is %s, want main's head %s", parent, main)
	}
	if head := strings.TrimSpace(git(t, "", "--git-dir="+bare, "rev-parse", "refs/heads/main")); head != main {
		t.Errorf("main moved to %s", head)
	}
	if got := git(t, "", "--git-dir="+bare, "show", "stage/dev:stacks/dev/stack.yaml"); got != "commit: abc\n" {
		t.Errorf("stage/dev's stack.yaml = %q", got)
	}
	if _, err := Branch(root, repoURL, "main", "stage/dev"); err == nil {
		t.Error("an existing branch was created again")
	}
	if _, err := Branch(root, repoURL, "nothing", "stage/qa"); err == nil {
		t.Error("a branch was created from a missing one")
	}
	if _, err := PublishBranch(root, repoURL, "empty", t.TempDir(), "nothing yet"); err != nil {
		t.Errorf("a first publish of an empty tree: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func write(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}
