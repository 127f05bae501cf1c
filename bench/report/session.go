package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/coldstart"
	"github.com/gitops-fleet/pulumi-fleet/bench/construct"
	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
)

// Session is everything one `make bench` measured.
type Session struct {
	// Date is when the session started; Elapsed how long it took.
	Date    time.Time
	Elapsed time.Duration
	Machine Machine
	// Construct are the mock construction results, by fleet size.
	Construct []construct.Result
	// ColdStart is the plugin's cold start.
	ColdStart coldstart.Result
	// Runs are the engine operations, in the order they ran.
	Runs []engine.Run
	// Shards are the runs of the fleet beyond one stack (engine.MeasureShards), in the order they ran.
	Shards []engine.Run
	// Real are the runs of the fleet on real Kubernetes API servers (engine.Measure of engine.FleetReal), in the order they ran.
	Real []engine.Run
	// Profiles are the profiles taken at the largest size: what they profile -> path from the repository root.
	Profiles map[string]string
	// Hotspots are the top entries of those profiles, as lines of text.
	Hotspots []string
	// AtSize are the targets at 100 to 200 clusters, judged from what the runs at size last wrote (AtSizeTargets).
	AtSize []Target
}

// Machine describes where the session ran.
type Machine struct {
	CPUs             int
	CPUModel         string
	MemoryGiB        float64
	GoVersion        string
	PulumiCLIVersion string
}

// String is the machine as the reports name it: "2 CPUs (model), 24 GiB memory; go1.26.0, Pulumi CLI 3.259.0".
func (m Machine) String() string {
	return fmt.Sprintf("%d CPUs (%s), %.0f GiB memory; %s, Pulumi CLI %s", m.CPUs, m.CPUModel, m.MemoryGiB, m.GoVersion,
		m.PulumiCLIVersion)
}

// Row is the median of the repetitions of one operation of one program at one size.
type Row struct {
	Impl engine.Impl
	Size int
	Op   engine.Op
	// Seconds is the median wall time of the operation; Reps how many runs it is the median of.
	Seconds float64
	Reps    int
	// Resources is how many resources the operation creates.
	Resources int
	// Peak is the largest peak resident memory of one process of each part (Part), in bytes, over the runs.
	Peak map[string]int64
	// Processes counts the processes of each part in one run (the largest count over the runs).
	Processes map[string]int
	// CPU is the median CPU time of each part, summed over its processes.
	CPU map[string]time.Duration
	// TreePeak is the largest total resident memory of the whole process tree at one sample, in bytes.
	TreePeak int64
}

// Part groups process labels into what the report shows: the program, the CLI, our plugin, pulumi-eks, and
// the emulated clouds' plugins.
func Part(label string) string {
	switch {
	case strings.HasPrefix(label, "program"):
		return "program"
	case label == "pulumi":
		return "pulumi CLI"
	case strings.HasPrefix(label, "pulumi-resource-"):
		return strings.TrimSuffix(label, " (Node.js)")
	default:
		return "other"
	}
}

// Parts are the parts in the order the report lists them.
var Parts = []string{"program", "pulumi CLI", "pulumi-resource-fleet", "pulumi-resource-eks", "pulumi-resource-awsx",
	"pulumi-resource-aws", "pulumi-resource-kubernetes", "pulumi-resource-github", "other"}

// Rows summarises runs by program, size and operation, in the order of engine.Impls, size, then preview and up.
func Rows(runs []engine.Run) []Row {
	type key struct {
		impl engine.Impl
		size int
		op   engine.Op
	}
	groups := map[key][]engine.Run{}
	for _, r := range runs {
		k := key{r.Impl, r.Size, r.Op}
		groups[k] = append(groups[k], r)
	}
	var rows []Row
	for k, rs := range groups {
		row := Row{Impl: k.impl, Size: k.size, Op: k.op, Reps: len(rs), Peak: map[string]int64{},
			Processes: map[string]int{}, CPU: map[string]time.Duration{}}
		var secs []float64
		cpus := map[string][]time.Duration{}
		for _, r := range rs {
			secs = append(secs, r.Seconds)
			row.Resources = r.Resources
			row.TreePeak = max(row.TreePeak, r.PeakTree)
			count, cpu := map[string]int{}, map[string]time.Duration{}
			for _, p := range r.Procs {
				part := Part(p.Label)
				row.Peak[part] = max(row.Peak[part], p.PeakRSS)
				count[part]++
				cpu[part] += p.CPU
			}
			for part, n := range count {
				row.Processes[part] = max(row.Processes[part], n)
				cpus[part] = append(cpus[part], cpu[part])
			}
		}
		row.Seconds = median(secs)
		for part, ds := range cpus {
			row.CPU[part] = median(ds)
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(slices.Index(engine.Impls, a.Impl), slices.Index(engine.Impls, b.Impl)),
			cmp.Compare(a.Size, b.Size), cmp.Compare(opOrder(a.Op), opOrder(b.Op)))
	})
	return rows
}

// opOrder is op's place in a run: Ops, then ChangeOps.
func opOrder(op engine.Op) int {
	return slices.Index(append(slices.Clone(engine.Ops), engine.ChangeOps...), op)
}

func median[T cmp.Ordered](vs []T) T {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s[len(s)/2]
}

// find returns the row of impl, size and op.
func find(rows []Row, impl engine.Impl, size int, op engine.Op) (Row, bool) {
	i := slices.IndexFunc(rows, func(r Row) bool { return r.Impl == impl && r.Size == size && r.Op == op })
	if i < 0 {
		return Row{}, false
	}
	return rows[i], true
}

// Sizes are the fleet sizes of rows, ascending.
func Sizes(rows []Row) []int {
	var out []int
	for _, r := range rows {
		if !slices.Contains(out, r.Size) {
			out = append(out, r.Size)
		}
	}
	slices.Sort(out)
	return out
}
