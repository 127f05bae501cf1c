package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// event is the part of a test2json event the report reads (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// waited is the line a test of the harness logs when it waited for a run (fleettest.WaitedFor): that wait is not the
// test's own time, as Go leaves out a parallel test's wait for its turn.
var waited = regexp.MustCompile(`fleettest: waited ([0-9.]+)s for a run`)

// timing is one package's or test's elapsed seconds and its outcome.
type timing struct {
	name    string
	seconds float64
	action  string
}

func main() {
	n := flag.Int("n", 15, "how many packages and tests to list")
	steps := flag.String("steps", "", "file of `<step> <seconds>` lines, the steps of make test")
	flag.Parse()
	if err := run(os.Stdout, *n, *steps, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, n int, stepsFile string, files []string) error {
	var packages, tests []timing
	var events []string
	for _, f := range files {
		if info, err := os.Stat(f); err != nil {
			continue
		} else if !info.IsDir() {
			events = append(events, f)
			continue
		}
		in, err := filepath.Glob(filepath.Join(f, "*.json"))
		if err != nil {
			return err
		}
		events = append(events, in...)
	}
	for _, f := range events {
		p, t, err := read(f)
		if err != nil {
			return err
		}
		packages, tests = append(packages, p...), append(tests, t...)
	}
	fmt.Fprintln(w, "== make test: where the time went (seconds)")
	if _, err := os.Stat(stepsFile); stepsFile != "" && err == nil {
		steps, err := readSteps(stepsFile)
		if err != nil {
			return err
		}
		table(w, "step", steps, len(steps), false)
	}
	table(w, "package", packages, n, true)
	table(w, "test", tests, n, true)
	return nil
}

// read is the packages' and top-level tests' timings in the events file f.
func read(f string) (packages, tests []timing, err error) {
	file, err := os.Open(f)
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	scan := bufio.NewScanner(file)
	scan.Buffer(make([]byte, 1<<20), 16<<20)
	waits := map[string]float64{} // package and test -> seconds waited for a run
	for scan.Scan() {
		var e event
		if json.Unmarshal(scan.Bytes(), &e) != nil {
			continue
		}
		name := path.Base(e.Package) + " " + e.Test
		if m := waited.FindStringSubmatch(e.Output); m != nil && e.Action == "output" {
			w, _ := strconv.ParseFloat(m[1], 64)
			waits[name] += w
		}
		if e.Action != "pass" && e.Action != "fail" && e.Action != "skip" {
			continue
		}
		switch {
		case e.Test == "" && e.Action != "skip":
			packages = append(packages, timing{e.Package, e.Elapsed, e.Action})
		case e.Test != "" && !strings.Contains(e.Test, "/"):
			tests = append(tests, timing{name, e.Elapsed - waits[name], e.Action})
		}
	}
	return packages, tests, scan.Err()
}

// readSteps is the steps file: `<step> <seconds>` per line, in order.
func readSteps(f string) ([]timing, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var steps []timing
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, secs, ok := strings.Cut(line, " ")
		s, err := strconv.ParseFloat(strings.TrimSpace(secs), 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s: want `<step> <seconds>`, got %q", f, line)
		}
		steps = append(steps, timing{name, s, "pass"})
	}
	return steps, nil
}

// table writes the n longest of rows (or all of them in their order, unsorted), with a total.
func table(w io.Writer, what string, rows []timing, n int, sorted bool) {
	if len(rows) == 0 {
		return
	}
	total := 0.0
	for _, r := range rows {
		total += r.seconds
	}
	if sorted {
		rows = slices.Clone(rows)
		slices.SortStableFunc(rows, func(a, b timing) int { return int(b.seconds*1000) - int(a.seconds*1000) })
	}
	width := len(what)
	for _, r := range rows[:min(n, len(rows))] {
		width = max(width, len(r.name))
	}
	fmt.Fprintf(w, "\n%-*s  %8s\n", width, what, "seconds")
	for _, r := range rows[:min(n, len(rows))] {
		mark := ""
		if r.action == "fail" {
			mark = "  FAIL"
		}
		fmt.Fprintf(w, "%-*s  %8.1f%s\n", width, r.name, r.seconds, mark)
	}
	fmt.Fprintf(w, "%-*s  %8.1f  (%d %ss)\n", width, "all", total, len(rows), what)
}
