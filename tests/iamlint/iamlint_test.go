package iamlint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// root is the repository's, from this package's directory (where go test runs it).
const root = "../.."

// finding is one line of tests/tools/iamlint/lint.py's output.
type finding struct {
	Policy, Tool, Issue, Severity, Detail string
}

// lint runs both linters over policies through bin/iamlint's Python (make iamlint).
func lint(t *testing.T, policies []Policy) []finding {
	t.Helper()
	python := filepath.Join(root, "bin", "iamlint", "bin", "python")
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("the IAM linters are not installed (%v): run make iamlint", err)
	}
	var in bytes.Buffer
	for _, p := range policies {
		line, err := json.Marshal(map[string]any{"name": p.Name, "kind": p.Kind, "document": json.RawMessage(p.Doc.JSON())})
		if err != nil {
			t.Fatal(err)
		}
		in.Write(append(line, '\n'))
	}
	cmd := exec.Command(python, filepath.Join(root, "tests", "tools", "iamlint", "lint.py"))
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lint.py: %v\n%s", err, stderr.String())
	}
	var found []finding
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var f finding
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("lint.py printed %q: %v", sc.Text(), err)
		}
		found = append(found, f)
	}
	return found
}

// TestLinters: every policy the fleet can write, through parliament and cloudsplaining; each finding is one
// Accepted lists, and each entry still matches a finding.
func TestLinters(t *testing.T) {
	found := lint(t, All())
	used := make([]int, len(Accepted))
	for _, f := range found {
		i := accepted(f)
		if i < 0 {
			t.Errorf("%s: %s %s (%s): %s", f.Policy, f.Tool, f.Issue, f.Severity, f.Detail)
			continue
		}
		used[i]++
	}
	for i, n := range used {
		if n == 0 {
			a := Accepted[i]
			t.Errorf("Accepted lists %s %s for %s*, which no policy has any more: remove the entry", a.Tool, a.Issue, a.Policies)
		}
	}
}

// accepted is the index of the entry of Accepted that covers f, or -1.
func accepted(f finding) int {
	for i, a := range Accepted {
		if strings.HasPrefix(f.Policy, a.Policies) && a.Tool == f.Tool && a.Issue == f.Issue {
			return i
		}
	}
	return -1
}

// TestLintersFind: the linters run and judge: a policy that grants iam:PassRole on every role is found by both.
func TestLintersFind(t *testing.T) {
	p := Policy{Name: "evil", Kind: Identity,
		Doc: iampolicy.New(iampolicy.Allow("", []string{"iam:PassRole", "ec2:RunInstances"}, []string{"*"}))}
	tools := map[string]bool{}
	for _, f := range lint(t, []Policy{p}) {
		if accepted(f) >= 0 {
			t.Errorf("Accepted covers %+v", f)
		}
		tools[f.Tool] = true
	}
	if !tools["parliament"] || !tools["cloudsplaining"] {
		t.Errorf("findings from %v; want both linters to flag iam:PassRole on *", tools)
	}
}
