package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
)

// The files the runs at size leave in bench/results beside their reports, which report.md's targets read
// (AtSizeTargets). Each make target writes its own, so a report.md written after them judges what they last measured.
const (
	// AtSizeData is `make bench-at-size`'s (fleet-bench -at-size): AtSizeResults as JSON.
	AtSizeData = "at-size.json"
	// ArgoCDAtSizeData is `make bench-argocd-at-size`'s (fleet-bench -argocd-at-size): ArgoCDAtSizeResults as JSON.
	ArgoCDAtSizeData = "argocd-at-size.json"
	// StatusBench is `make bench-status`'s: `go test -bench` output of provider/status (BenchmarkCollectAtSize).
	StatusBench = "status.txt"
	// GuardsBench is `make bench-guards`'s: `go test -bench` output of tests/contract
	// (BenchmarkClusterSecretAdmission).
	GuardsBench = "guards.txt"
)

// AtSizeResults are the fleet at size in shards (fleet-bench -at-size): when the session started, and each size's
// row.
type AtSizeResults struct {
	Measured time.Time
	Rows     []AtSizeRow
}

// ArgoCDAtSizeResults are Argo CD's own controllers with clusters registered at each size (fleet-bench
// -argocd-at-size): when the session started, and each size's run.
type ArgoCDAtSizeResults struct {
	Measured time.Time
	Runs     []engine.ArgoCDAtSizeRun
}

// WriteData writes v as indented JSON to dir/name.
func WriteData(dir, name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644)
}

// readData reads dir/name into v; found is false when there is no such file.
func readData(dir, name string, v any) (found bool, err error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return false, nil
	}
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return true, fmt.Errorf("%s: %w", name, err)
	}
	return true, nil
}
