// Command testreport ends `make test` with its cost: the slowest packages and tests, in seconds, from the events of
// every `go test -json` run of make test (gotestsum's --jsonfile), and the wall time of each step of make test (one
// `<step> <seconds>` line each in the steps file). The figures are measurements for the reader, never a test: the
// budget is in CONTRIBUTING.md.
//
//	testreport [-n 15] [-steps steps.txt] events.json...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
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
}

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
	for _, f := range files {
		p, t, err := read(f)
		if err != nil {
			return err
		}
		packages, tests = append(packages, p...), append(tests, t...)
	}
	fmt.Fprintln(w, "== make test: where the time went (seconds)")
	if stepsFile != "" {
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
	for scan.Scan() {
		var e event
		if json.Unmarshal(scan.Bytes(), &e) != nil || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
			continue
		}
		switch {
		case e.Test == "" && e.Action != "skip":
			packages = append(packages, timing{e.Package, e.Elapsed, e.Action})
		case e.Test != "" && !strings.Contains(e.Test, "/"):
			tests = append(tests, timing{path.Base(e.Package) + " " + e.Test, e.Elapsed, e.Action})
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
