package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// AtSizeLimits are the targets at 100 to 200 clusters (issue "A fleet of 200 clusters"), with their sources.
var AtSizeLimits = struct {
	// StatusSeconds: `fleet status` over 200 clusters (the goal).
	StatusSeconds float64
	// ExpressionCodePoints: the most code points of one CEL expression, cel-go's parser limit, which the API server
	// keeps (gitopsbridge.PinsCodePoints).
	ExpressionCodePoints int
	// PolicyBytes: the largest object the API server stores, etcd's request limit (--max-request-bytes 1572864).
	PolicyBytes int
}{StatusSeconds: 60, ExpressionCodePoints: 100_000, PolicyBytes: 1_572_864}

// AtSizeTargets judges what the runs at size last measured, from their files in dir (AtSizeData, ArgoCDAtSizeData,
// StatusBench, GuardsBench):
//   - for each size of the Argo CD bench, every Application Synced and Healthy, and each controller replica's peak
//     memory within the limit Fleet plans for it (twice gitopsbridge.ControllerMemoryMiB);
//   - a shard's whole-tree peak memory at the largest size of the fleet in shards, within Limits.TreePeak;
//   - `fleet status` of the largest fleet it read within AtSizeLimits.StatusSeconds (the median of its runs);
//   - the hub's cluster-secret guard at its most spokes: each expression and the whole policy within the API server's
//     limits.
//
// A file that is missing makes its targets "not measured", naming the make target that writes it; one that cannot be
// read is an error.
func AtSizeTargets(dir string) ([]Target, error) {
	var out []Target
	var errs []error
	for _, judge := range []func(string) ([]Target, error){argoCDTargets, shardTargets, statusTargets, guardTargets} {
		ts, err := judge(dir)
		out = append(out, ts...)
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}

// notMeasured is goal's target when make's target wrote no file yet.
func notMeasured(goal, target string) []Target {
	return []Target{{Goal: goal, Measured: "not measured (make " + target + ")"}}
}

func argoCDTargets(dir string) ([]Target, error) {
	var res ArgoCDAtSizeResults
	found, err := readData(dir, ArgoCDAtSizeData, &res)
	if err != nil || !found || len(res.Runs) == 0 {
		return notMeasured("Argo CD at 100 and 200 clusters: every Application Synced and Healthy",
			"bench-argocd-at-size"), err
	}
	date := res.Measured.UTC().Format("2006-01-02")
	var out []Target
	for _, r := range res.Runs {
		settled := Target{
			Goal: fmt.Sprintf("Argo CD with %d clusters registered: every Application Synced and Healthy", r.Size),
			Measured: fmt.Sprintf("%d of %d Applications (%d planned) in %.1f s, %d controller replicas; %s", r.Healthy,
				r.Applications, r.Planned, r.Seconds, r.Replicas, date),
			Known: true, Met: r.Healthy == r.Applications && r.Applications >= r.Planned}
		if !settled.Met {
			settled.Miss = fmt.Sprintf("%d not Synced and Healthy, %d of the planned not generated",
				r.Applications-r.Healthy, max(0, r.Planned-r.Applications))
		}
		peaks, limit := r.ControllerPeaks(), 2*r.RequestMiB
		memory := Target{Goal: fmt.Sprintf("Argo CD with %d clusters: each controller replica's peak within the memory "+
			"limit Fleet plans for it", r.Size), Measured: "no planned limit (one replica keeps the chart's resources)"}
		if limit > 0 && len(peaks) > 0 {
			largest := slices.Max(peaks)
			memory.Known, memory.Met = true, largest <= limit
			memory.Measured = fmt.Sprintf("largest %d MiB of %d replicas, against a limit of %d MiB (request %d MiB); %s",
				largest, len(peaks), limit, r.RequestMiB, date)
			if !memory.Met {
				memory.Miss = fmt.Sprintf("%d MiB over", largest-limit)
			}
		}
		out = append(out, settled, memory)
	}
	return out, nil
}

func shardTargets(dir string) ([]Target, error) {
	var res AtSizeResults
	found, err := readData(dir, AtSizeData, &res)
	goal := fmt.Sprintf("a shard's whole-tree peak memory at about 200 clusters at most %.1f GiB",
		float64(Limits.TreePeak)/(1<<30))
	if err != nil || !found || len(res.Rows) == 0 {
		return notMeasured(goal, "bench-at-size"), err
	}
	r := slices.MaxFunc(res.Rows, func(a, b AtSizeRow) int { return a.Clusters - b.Clusters })
	t := Target{Goal: fmt.Sprintf("a shard's whole-tree peak memory at %d clusters at most %.1f GiB", r.Clusters,
		float64(Limits.TreePeak)/(1<<30)),
		Measured: fmt.Sprintf("%d MiB, the largest of %d shards; %s", r.LargestTreeMiB, r.Shards,
			res.Measured.UTC().Format("2006-01-02")),
		Known: r.LargestTreeMiB > 0, Met: r.LargestTreeMiB > 0 && r.LargestTreeMiB<<20 <= Limits.TreePeak}
	if t.Known && !t.Met {
		t.Miss = fmt.Sprintf("%d MiB over", r.LargestTreeMiB-Limits.TreePeak>>20)
	}
	return []Target{t}, nil
}

func statusTargets(dir string) ([]Target, error) {
	goal := fmt.Sprintf("fleet status of 200 clusters in %.0f s or less", AtSizeLimits.StatusSeconds)
	results, found, err := readBench(dir, StatusBench, "CollectAtSize")
	if err != nil || !found || len(results) == 0 {
		return notMeasured(goal, "bench-status"), err
	}
	var secs []float64
	clusters := 0.0
	for _, r := range results {
		secs = append(secs, value(r, "sec/op"))
		clusters = max(clusters, value(r, "clusters"))
	}
	s := median(secs)
	t := Target{Goal: fmt.Sprintf("fleet status of %.0f clusters in %.0f s or less", clusters, AtSizeLimits.StatusSeconds),
		Known: true, Met: s <= AtSizeLimits.StatusSeconds,
		Measured: fmt.Sprintf("%.1f s (the median of %d runs, through the CLI)", s, len(secs))}
	if !t.Met {
		t.Miss = fmt.Sprintf("%.1f s over", s-AtSizeLimits.StatusSeconds)
	}
	return []Target{t}, nil
}

func guardTargets(dir string) ([]Target, error) {
	goal := "the hub's cluster-secret guard at 200 spokes within the API server's limits"
	results, found, err := readBench(dir, GuardsBench, "ClusterSecretAdmission")
	if err != nil || !found || len(results) == 0 {
		return notMeasured(goal, "bench-guards"), err
	}
	spokes := func(r *benchfmt.Result) int {
		_, parts := r.Name.Parts()
		for _, p := range parts {
			if v, ok := strings.CutPrefix(string(p), "/spokes="); ok {
				n, _ := strconv.Atoi(v)
				return n
			}
		}
		return 0
	}
	most := slices.MaxFunc(results, func(a, b *benchfmt.Result) int { return spokes(a) - spokes(b) })
	n := spokes(most)
	var latency []float64
	for _, r := range results {
		if spokes(r) == n {
			latency = append(latency, value(r, "sec/op"))
		}
	}
	points, size := int(value(most, "largest-expression-codepoints")), int(value(most, "policy-bytes"))
	t := Target{Goal: fmt.Sprintf("the hub's cluster-secret guard at %d spokes: each expression under %d code points "+
		"(cel-go's limit), the policy under %d bytes (etcd's request limit)", n, AtSizeLimits.ExpressionCodePoints,
		AtSizeLimits.PolicyBytes), Known: points > 0 && size > 0,
		Measured: fmt.Sprintf("%d code points, %d bytes (%.0f%% of the limit); one admission %.2f ms, the median of %d",
			points, size, 100*float64(size)/float64(AtSizeLimits.PolicyBytes), median(latency)*1000, len(latency))}
	t.Met = t.Known && points < AtSizeLimits.ExpressionCodePoints && size < AtSizeLimits.PolicyBytes
	if t.Known && !t.Met {
		var over []string
		if points >= AtSizeLimits.ExpressionCodePoints {
			over = append(over, fmt.Sprintf("an expression %d code points over", points-AtSizeLimits.ExpressionCodePoints+1))
		}
		if size >= AtSizeLimits.PolicyBytes {
			over = append(over, fmt.Sprintf("the policy %d bytes over", size-AtSizeLimits.PolicyBytes+1))
		}
		t.Miss = strings.Join(over, ", ")
	}
	return []Target{t}, nil
}

// readBench reads the results of benchmark base (its name without "Benchmark", as benchfmt gives it; its
// sub-benchmarks included) from dir/name, `go test -bench` output; found is false when there is no such file.
func readBench(dir, name, base string) (results []*benchfmt.Result, found bool, err error) {
	f, err := os.Open(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	r := benchfmt.NewReader(f, name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			if bytes.Equal(rec.Name.Base(), []byte(base)) {
				results = append(results, rec.Clone())
			}
		case *benchfmt.SyntaxError:
			return nil, true, rec
		}
	}
	return results, true, r.Err()
}

// value is r's measurement in unit, as benchfmt tidies units (ns/op is sec/op); 0 when r has none.
func value(r *benchfmt.Result, unit string) float64 {
	v, _ := r.Value(unit)
	return v
}
