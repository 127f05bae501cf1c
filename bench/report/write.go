package report

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
)

// Files are the names Write gives its outputs in the results directory.
const (
	MarkdownFile = "report.md"
	CSVFile      = "results.csv"
	PlotFile     = "walltime.png"
)

// Write writes the report, the CSV and the plot of s into dir (created if needed).
func Write(dir string, s Session) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeCSV(filepath.Join(dir, CSVFile), slices.Concat(s.Runs, s.Shards, s.Real)); err != nil {
		return err
	}
	if err := writePlot(filepath.Join(dir, PlotFile), Rows(s.Runs)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, MarkdownFile), []byte(Markdown(s)), 0o644)
}

// csvHeader: one row per measured operation; memory in MiB, times in seconds.
var csvHeader = []string{"impl", "stack", "clusters", "op", "rep", "seconds", "resources", "tree_peak_mib",
	"cli_peak_mib", "fleet_plugin_peak_mib", "eks_peak_mib", "program_peak_mib", "plugin_processes",
	"cpu_seconds_total", "cpu_seconds_cli", "cpu_seconds_fleet_plugin", "cpu_seconds_eks", "cpu_seconds_program",
	"control_planes", "control_planes_rss_mib"}

func writeCSV(path string, runs []engine.Run) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write(csvHeader)
	for _, r := range runs {
		row := Rows([]engine.Run{r})[0]
		var total float64
		plugins := 0
		for part, d := range row.CPU {
			total += d.Seconds()
			if strings.HasPrefix(part, "pulumi-resource-") {
				plugins += row.Processes[part]
			}
		}
		num := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
		peak := func(part string) string { return strconv.FormatInt(row.Peak[part]>>20, 10) }
		cpu := func(part string) string { return num(row.CPU[part].Seconds()) }
		_ = w.Write([]string{string(r.Impl), r.Stack, strconv.Itoa(r.Size), string(r.Op), strconv.Itoa(r.Rep), num(r.Seconds),
			strconv.Itoa(r.Resources), strconv.FormatInt(r.PeakTree>>20, 10), peak("pulumi CLI"),
			peak("pulumi-resource-fleet"), peak("pulumi-resource-eks"), peak("program"), strconv.Itoa(plugins),
			num(total), cpu("pulumi CLI"), cpu("pulumi-resource-fleet"), cpu("pulumi-resource-eks"), cpu("program"),
			strconv.Itoa(r.ControlPlaneCount), strconv.FormatInt(r.ControlPlanes>>20, 10)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Markdown is the report.
func Markdown(s Session) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	rows := Rows(s.Runs)
	sizes := Sizes(rows)
	m := s.Machine
	p("# pulumi-fleet benchmarks")
	p("")
	p("Measured %s by `make bench` in %s on %s.", s.Date.UTC().Format("2006-01-02 15:04 MST"), s.Elapsed.Round(1e9), m)
	p("Generated with the figures; CSV: [%s](%s), plot: [%s](%s).", CSVFile, CSVFile, PlotFile, PlotFile)
	p("")
	p("## Targets")
	p("")
	p("| target | measured | verdict |")
	p("|---|---|---|")
	for _, t := range Targets(s) {
		p("| %s | %s | %s |", t.Goal, t.Measured, t.Verdict())
	}
	p("")
	if len(s.AtSize) > 0 {
		p("At 100 to 200 clusters, from what `make bench`'s runs at size last measured (each dated; `fleet status` and the")
		p("guard from [%s](%s) and [%s](%s), the fleet in shards from [at-size.md](at-size.md), Argo CD from", StatusBench,
			StatusBench, GuardsBench, GuardsBench)
		p("[argocd-at-size.md](argocd-at-size.md)):")
		p("")
		p("| target | measured | verdict |")
		p("|---|---|---|")
		for _, t := range s.AtSize {
			p("| %s | %s | %s |", t.Goal, t.Measured, t.Verdict())
		}
		p("")
	}
	p("## Real engine, offline cloud: wall time (s)")
	p("")
	reps := 0
	for _, r := range rows {
		reps = max(reps, r.Reps)
	}
	p("Each cell is the median of %d repetition(s). Runs were interleaved: for each size the fleet, the floor and the", reps)
	p("peer ran one after another (preview, then up, of a new stack each), the order rotating with each repetition.")
	p("")
	p("| clusters | op | fleet | floor | peer | fleet/floor | fleet/peer | resources (fleet/floor/peer) |")
	p("|---:|---|---:|---:|---:|---:|---:|---|")
	for _, n := range sizes {
		for _, op := range engine.Ops {
			f, _ := find(rows, engine.Fleet, n, op)
			fl, _ := find(rows, engine.Floor, n, op)
			pe, _ := find(rows, engine.Peer, n, op)
			p("| %d | %s | %s | %s | %s | %s | %s | %d / %d / %d |", n, op, secs(f), secs(fl), secs(pe),
				ratio(f, fl), ratio(f, pe), f.Resources, fl.Resources, pe.Resources)
		}
	}
	p("")
	p("![wall time against fleet size](%s)", PlotFile)
	p("")
	if len(sizes) > 1 {
		small, large := sizes[0], sizes[len(sizes)-1]
		p("### Growth from %d to %d clusters (%dx the clusters)", small, large, large/small)
		p("")
		p("| program | preview | up |")
		p("|---|---:|---:|")
		for _, impl := range engine.Impls {
			var cells []string
			for _, op := range engine.Ops {
				a, ok1 := find(rows, impl, small, op)
				z, ok2 := find(rows, impl, large, op)
				cell := "–"
				if ok1 && ok2 && a.Seconds > 0 {
					cell = fmt.Sprintf("%.1fx", z.Seconds/a.Seconds)
				}
				cells = append(cells, cell)
			}
			p("| %s | %s | %s |", impl, cells[0], cells[1])
		}
		p("")
	}
	writeChangeLoop(p, rows, sizes)
	writeShards(p, rows, s.Shards, s.Machine.CPUs)
	if len(sizes) > 0 {
		large := sizes[len(sizes)-1]
		p("## Where the CPU goes: up of %d clusters (CPU seconds by part)", large)
		p("")
		p("The peer runs pulumi-eks inside its program (the npm package is its implementation); the fleet runs it")
		p("as the pulumi-resource-eks plugin, as every non-Node.js user of pulumi-eks does.")
		p("")
		p("| part | fleet | floor | peer |")
		p("|---|---:|---:|---:|")
		var totals [3]float64
		for _, part := range Parts {
			var cells [3]string
			shown := false
			for i, impl := range engine.Impls {
				r, _ := find(rows, impl, large, engine.Up)
				cells[i] = "–"
				if r.Processes[part] > 0 {
					cells[i] = fmt.Sprintf("%.1f", r.CPU[part].Seconds())
					totals[i] += r.CPU[part].Seconds()
					shown = true
				}
			}
			if shown {
				p("| %s | %s | %s | %s |", part, cells[0], cells[1], cells[2])
			}
		}
		p("| **all** | **%.1f** | **%.1f** | **%.1f** |", totals[0], totals[1], totals[2])
		p("")
	}
	p("## Memory and CPU by process (up)")
	p("")
	p("Peak resident memory (VmHWM) of the largest process of each part, in MiB, and CPU time summed over its")
	p("processes, in seconds; sampled from /proc every 200 ms. Every provider resource runs its own plugin process.")
	p("")
	p("| clusters | program | part | processes | peak MiB | CPU s |")
	p("|---:|---|---|---:|---:|---:|")
	for _, n := range sizes {
		for _, impl := range engine.Impls {
			r, ok := find(rows, impl, n, engine.Up)
			if !ok {
				continue
			}
			for _, part := range Parts {
				if r.Processes[part] == 0 {
					continue
				}
				p("| %d | %s | %s | %d | %d | %.1f |", n, impl, part, r.Processes[part], r.Peak[part]>>20, r.CPU[part].Seconds())
			}
			p("| %d | %s | whole tree (peak of the sum) | | %d | |", n, impl, r.TreePeak>>20)
		}
	}
	p("")
	if len(s.Real) > 0 {
		writeReal(p, s.Real)
	}
	if len(s.Construct) > 0 {
		p("## Component construction under mocks (no engine)")
		p("")
		p("FleetCluster + GitOpsBridge per cluster, in process against tests/mocks (`testing.Benchmark`).")
		p("")
		p("| clusters | time per cluster | allocations per cluster | bytes per cluster | resources per build |")
		p("|---:|---:|---:|---:|---:|")
		for _, c := range s.Construct {
			p("| %d | %.2f ms | %.0f | %.1f MiB | %d |", c.Clusters, c.NsPerCluster/1e6, c.AllocsPerCluster,
				c.BytesPerCluster/(1<<20), c.Resources)
		}
		p("")
	}
	if len(s.Profiles) > 0 || len(s.Hotspots) > 0 {
		p("## Where the time goes (profiles at the largest size)")
		p("")
		for what, path := range s.Profiles {
			p("- %s: `%s`", what, path)
		}
		if len(s.Hotspots) > 0 {
			p("")
			p("```")
			for _, h := range s.Hotspots {
				p("%s", h)
			}
			p("```")
		}
		p("")
	}
	return b.String()
}

// writeReal is the section of the fleet on real Kubernetes API servers.
func writeReal(p func(string, ...any), runs []engine.Run) {
	p("## Real Kubernetes API servers: the fleet alone")
	p("")
	p("The fleet's program again, on a new stack, with a real control plane behind each EKS cluster (etcd,")
	p("kube-apiserver, kube-controller-manager, kube-scheduler, kwok, aws-iam-authenticator; `tests/controlplane`)")
	p("and every Kubernetes object written by the real Kubernetes provider: the rows above keep the emulated Kubernetes")
	p("API (so the floor and the peer compare like for like). Each control plane is created when its EKS cluster is,")
	p("inside the up. Control planes' memory is their processes' resident memory once the operation ended, outside the")
	p("process tree measured.")
	p("")
	p("| clusters | op | fleet on real servers (s) | resources | tree peak | control planes | their memory |")
	p("|---:|---|---:|---:|---:|---:|---:|")
	for _, r := range runs {
		p("| %d | %s | %.1f | %d | %d MiB | %d | %d MiB |", r.Size, r.Op, r.Seconds, r.Resources, r.PeakTree>>20,
			r.ControlPlaneCount, r.ControlPlanes>>20)
	}
	p("")
	var argocd []engine.Run
	for _, r := range runs {
		if r.ArgoCD != nil {
			argocd = append(argocd, r)
		}
	}
	if len(argocd) == 0 {
		return
	}
	p("After each up, Argo CD's own controllers (`tests/argocdhub`, v3.5.7) start on the hub, with the offline add-ons")
	p("repository (the load balancer controller's and metrics-server's ApplicationSets, the two add-ons every generated")
	p("cluster enables): the time until every Application had been reconciled and settled, how many were Synced and")
	p("Healthy, and the controllers' peak resident memory.")
	p("")
	p("| clusters | Argo CD to settled (s) | Applications | Synced and Healthy | application controller | ApplicationSet controller | repo server | Redis |")
	p("|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range argocd {
		a := r.ArgoCD
		p("| %d | %.1f | %d | %d | %d MiB | %d MiB | %d MiB | %d MiB |", r.Size, a.Seconds, a.Applications, a.Healthy,
			a.Memory["application-controller"], a.Memory["applicationset-controller"], a.Memory["repo-server"], a.Memory["redis"])
	}
	p("")
}

func secs(r Row) string {
	if r.Reps == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", r.Seconds)
}

func ratio(a, b Row) string {
	if a.Reps == 0 || b.Reps == 0 || b.Seconds <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2fx", a.Seconds/b.Seconds)
}

// writeChangeLoop writes the change loop's table: each change's preview and up on the stack the full up made,
// with the resources each changes and the whole tree's peak memory.
func writeChangeLoop(p func(string, ...any), rows []Row, sizes []int) {
	if len(sizes) == 0 {
		return
	}
	if _, ok := find(rows, engine.Fleet, sizes[len(sizes)-1], engine.ChangeOps[0]); !ok {
		return
	}
	p("## The change loop: wall time (s) and whole-tree peak memory (MiB)")
	p("")
	p("On the stack the up made: `toggle` enables %s on the first spoke, `add` then adds one spoke; each is a", fleetgen.ToggledAddon)
	p("preview, then an up. Changes are the resources the operation creates, updates or deletes.")
	p("")
	p("| clusters | op | fleet | floor | peer | fleet/peer | changes (fleet/floor/peer) | peak MiB (fleet/floor/peer) |")
	p("|---:|---|---:|---:|---:|---:|---|---|")
	for _, n := range sizes {
		for _, op := range engine.ChangeOps {
			f, _ := find(rows, engine.Fleet, n, op)
			fl, _ := find(rows, engine.Floor, n, op)
			pe, _ := find(rows, engine.Peer, n, op)
			p("| %d | %s | %s | %s | %s | %s | %d / %d / %d | %d / %d / %d |", n, op, secs(f), secs(fl), secs(pe),
				ratio(f, pe), f.Resources, fl.Resources, pe.Resources, f.TreePeak>>20, fl.TreePeak>>20, pe.TreePeak>>20)
		}
	}
	p("")
}
