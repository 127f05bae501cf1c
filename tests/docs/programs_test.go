package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/provider/docinclude"
)

// TestProgramsAreIncluded: every program in the README, CONTRIBUTING.md and docs/ is included from an example file
// that the tests compile or type-check (examples/api), and is that file as it is (docinclude.Problems).
func TestProgramsAreIncluded(t *testing.T) {
	read := func(path string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(path))) }
	for _, p := range pages(t) {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range docinclude.Problems(string(data), read) {
			t.Errorf("%s %s", p, problem)
		}
	}
}

// datedFigure is a measured figure in prose: a duration, a size or a date.
var datedFigure = regexp.MustCompile(`\b\d+(\.\d+)? ?(ms|s|min|minutes|seconds|MiB|GiB|MB|GB)\b|\b20\d\d-\d\d-\d\d\b`)

// TestREADMEHasNoMeasurements: the README's prose carries no measured figures (durations, sizes, dates), which
// go stale; they live in bench/results and the docs page that cites it (docs/performance.md).
func TestREADMEHasNoMeasurements(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	inCode := false
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if m := datedFigure.FindString(codeSpan.ReplaceAllString(line, "")); m != "" {
			t.Errorf("README.md:%d: %q is a measurement; cite docs/performance.md or bench/results instead", i+1, m)
		}
	}
}

// date is a calendar date; seed is a reference to the planning notes the project started from ("seed 004").
var (
	date = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	seed = regexp.MustCompile(`(?i)\bseeds? \d{3}\b`)
)

// TestDocsHaveNoDates: the pages of docs/ and tests/README.md carry no date and name no seed. Dated figures live
// in docs/performance.md and bench/results, which say when and where they were measured; a date elsewhere is a
// figure going stale, or a lab note. CONTRIBUTING.md's test budget keeps one date per measured run.
func TestDocsHaveNoDates(t *testing.T) {
	for _, p := range pages(t) {
		if p == "CONTRIBUTING.md" || p == filepath.Join("docs", "performance.md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := date.FindString(line); m != "" {
				t.Errorf("%s:%d: the date %s; a dated figure belongs in docs/performance.md or bench/results", p, i+1, m)
			}
			if m := seed.FindString(line); m != "" {
				t.Errorf("%s:%d: %q names a planning note; say what it is instead", p, i+1, m)
			}
		}
	}
}

// TestPagesStartWithTheTask: every page of docs/ but the Registry's two opens, under its title, with what the
// reader wants to do ("*You want to* ..."); the how follows.
func TestPagesStartWithTheTask(t *testing.T) {
	for _, p := range pages(t)[2:] {
		if strings.HasSuffix(p, "_index.md") || strings.HasSuffix(p, "installation-configuration.md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(data), "\n", 4)
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || !strings.HasPrefix(lines[2], "*You want to* ") {
			t.Errorf("%s does not open with its title and then \"*You want to* ...\"", p)
		}
	}
}
