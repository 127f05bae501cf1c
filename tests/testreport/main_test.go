package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport: the table lists the steps in their order, then the slowest packages and top-level tests (subtests and
// output lines left out, a failure marked, a test's wait for a run of the harness taken off its time), from events
// files and folders; a step that failed before its tests ran leaves no events file, and the report is made all the
// same.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	events := `{"Action":"run","Package":"example.com/m/a","Test":"TestFast"}
{"Action":"output","Package":"example.com/m/a","Test":"TestFast","Output":"ok\n"}
{"Action":"pass","Package":"example.com/m/a","Test":"TestFast","Elapsed":0.5}
{"Action":"pass","Package":"example.com/m/a","Test":"TestSlow/sub","Elapsed":90}
{"Action":"output","Package":"example.com/m/a","Test":"TestSlow","Output":"    env.go:60: fleettest: waited 10.5s for a run\n"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestSlow","Elapsed":130.75}
{"Action":"fail","Package":"example.com/m/a","Elapsed":121}
{"Action":"pass","Package":"example.com/m/b","Elapsed":3}
{"Action":"skip","Package":"example.com/m/c"}
not json: a line go test printed itself
`
	if err := os.WriteFile(filepath.Join(dir, "product.json"), []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := filepath.Join(dir, "steps.txt")
	if err := os.WriteFile(steps, []byte("vet 60\ngo-test 130\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, 1, steps, []string{dir, filepath.Join(dir, "missing.json")}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"step      seconds\nvet          60.0\ngo-test     130.0\nall         190.0  (2 steps)",
		"example.com/m/a     121.0  FAIL",
		"a TestSlow     120.2  FAIL\nall            120.8  (2 tests)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks\n%s\nin\n%s", want, got)
		}
	}
	for _, absent := range []string{"TestSlow/sub", "example.com/m/c", "TestFast"} {
		if strings.Contains(got, absent) {
			t.Errorf("the report (top 1) shows %s:\n%s", absent, got)
		}
	}
}
