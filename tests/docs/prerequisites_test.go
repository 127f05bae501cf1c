package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrerequisitesNameWhatIsMissing: on a machine with Go, Node.js, Python and git but no JDK, Maven, Redis or
// Chromium, the check the README's commands start with fails naming each missing program and how to get it, at once.
func TestPrerequisitesNameWhatIsMissing(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"bash", "sed", "go", "node", "npm", "python3", "git"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not on this machine", tool)
		}
		if err := os.Symlink(path, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(filepath.Join(bin, "bash"), filepath.Join(root, "tests", "prerequisites.sh"), "chromium")
	cmd.Env = append(os.Environ(), "PATH="+bin)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the check passed with no JDK, Maven, Redis or Chromium:\n%s", out)
	}
	for _, want := range []string{"javac", "mvn", "redis-server (Argo CD's cache on the offline hubs): apt-get install redis-server",
		"chromium"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the check does not name %q:\n%s", want, out)
		}
	}
	for _, present := range []string{"node (", "git ("} {
		if strings.Contains(string(out), present) {
			t.Errorf("the check names %q, which is there:\n%s", present, out)
		}
	}
}
