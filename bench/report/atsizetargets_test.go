package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
)

const statusOut = `goos: linux
goarch: amd64
BenchmarkCollectAtSize-2   	       3	7059368811 ns/op	       201.0 clusters
BenchmarkCollectAtSize-2   	       3	%s ns/op	       201.0 clusters
BenchmarkCollectAtSize-2   	       3	6873974553 ns/op	       201.0 clusters
BenchmarkWithEKSAtSize/clusters=200-2        	       3	1310721583 ns/op	        16.00 max-in-flight
`

const guardsOut = `goos: linux
BenchmarkClusterSecretAdmission/spokes=10-2         	     200	   1140747 ns/op	     61065 largest-expression-codepoints	     69785 policy-bytes
BenchmarkClusterSecretAdmission/spokes=200-2        	     200	    856026 ns/op	     85645 largest-expression-codepoints	   %[1]s policy-bytes
BenchmarkClusterSecretAdmission/spokes=200-2        	     200	    893545 ns/op	     85645 largest-expression-codepoints	   %[1]s policy-bytes
BenchmarkClusterSecretAdmission/spokes=200-2        	     200	    854427 ns/op	     85645 largest-expression-codepoints	   %[1]s policy-bytes
`

// TestAtSizeTargets: the targets at size judged from the files the runs at size leave: each Argo CD size settled and
// its replicas within their planned limit, a shard's tree, fleet status's median, the guard at its most spokes; a
// missing file is "not measured" with the make target that writes it, a broken one an error.
func TestAtSizeTargets(t *testing.T) {
	measured := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	argo := func(healthy, peak, request int) ArgoCDAtSizeResults {
		return ArgoCDAtSizeResults{Measured: measured, Runs: []engine.ArgoCDAtSizeRun{{Size: 200, Replicas: 4,
			Planned: 399, Applications: 399, Healthy: healthy, Seconds: 564.1, RequestMiB: request,
			Memory: map[string]int{"application-controller": 1900, "application-controller-1": peak,
				"applicationset-controller": 9000, "repo-server": 150}}}}
	}
	shards := AtSizeResults{Measured: measured, Rows: []AtSizeRow{{Clusters: 101, Shards: 10, LargestTreeMiB: 9000},
		{Clusters: 211, Shards: 14, LargestTreeMiB: 2399}}}
	for _, tc := range []struct {
		name  string
		files map[string]any // name -> JSON value, or text for the bench outputs
		want  []want
	}{
		{"nothing measured", nil, []want{
			{"not judged", "every Application", "not measured (make bench-argocd-at-size)"},
			{"not judged", "whole-tree peak", "not measured (make bench-at-size)"},
			{"not judged", "fleet status", "not measured (make bench-status)"},
			{"not judged", "guard", "not measured (make bench-guards)"},
		}},
		{"all met", map[string]any{
			ArgoCDAtSizeData: argo(399, 2478, 2312), AtSizeData: shards,
			StatusBench: strings.Replace(statusOut, "%s", "6872253436", 1),
			GuardsBench: strings.ReplaceAll(guardsOut, "%[1]s", "1282863"),
		}, []want{
			{"met", "with 200 clusters registered: every Application", "399 of 399 Applications (399 planned) in 564.1 s, 4 controller replicas; 2026-11-29"},
			{"met", "within the memory limit", "largest 2478 MiB of 2 replicas, against a limit of 4624 MiB (request 2312 MiB)"},
			{"met", "at 211 clusters at most 4.5 GiB", "2399 MiB, the largest of 14 shards"},
			{"met", "fleet status of 201 clusters in 60 s", "6.9 s (the median of 3 runs"},
			{"met", "guard at 200 spokes", "85645 code points, 1282863 bytes (82% of the limit); one admission 0.86 ms, the median of 3"},
		}},
		{"missed", map[string]any{
			ArgoCDAtSizeData: argo(390, 5000, 2312),
			StatusBench:      strings.Replace(statusOut, "%s", "90000000000", 1),
			GuardsBench:      strings.ReplaceAll(guardsOut, "%[1]s", "1600000"),
		}, []want{
			{"**missed**: 9 not Synced and Healthy, 0 of the planned not generated", "every Application", ""},
			{"**missed**: 376 MiB over", "within the memory limit", ""},
			{"not judged", "whole-tree peak", "not measured"},
			{"met", "fleet status", "7.1 s"}, // the median of three, one of them slow
			{"**missed**: the policy 27137 bytes over", "guard at 200 spokes", ""},
		}},
		{"one replica", map[string]any{ArgoCDAtSizeData: argo(399, 900, 0)}, []want{
			{"met", "every Application", ""},
			{"not judged", "within the memory limit", "no planned limit"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, v := range tc.files {
				if text, ok := v.(string); ok {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				} else if err := WriteData(dir, name, v); err != nil {
					t.Fatal(err)
				}
			}
			got, err := AtSizeTargets(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !containsTarget(got, w) {
					t.Errorf("no target %+v in:\n%s", w, targetLines(got))
				}
			}
		})
	}
}

// TestAtSizeTargetsBrokenFile: a file that is there but cannot be read is an error, not "not measured".
func TestAtSizeTargetsBrokenFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ArgoCDAtSizeData), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := AtSizeTargets(dir); err == nil || !strings.Contains(err.Error(), ArgoCDAtSizeData) {
		t.Errorf("err = %v, want one naming %s", err, ArgoCDAtSizeData)
	}
}

// want is a target expected among AtSizeTargets': its verdict, and fragments of its goal and of what it measured.
type want struct{ verdict, goal, measured string }

func containsTarget(ts []Target, w want) bool {
	for _, t := range ts {
		if t.Verdict() == w.verdict && strings.Contains(t.Goal, w.goal) && strings.Contains(t.Measured, w.measured) {
			return true
		}
	}
	return false
}

func targetLines(ts []Target) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Verdict() + " | " + t.Goal + " | " + t.Measured + "\n")
	}
	return b.String()
}
