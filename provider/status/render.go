package status

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// ANSI colours of the states on a terminal.
var colours = map[string]string{"ok": "\x1b[32m", "stack": "\x1b[36m", "progressing": "\x1b[33m", "failed": "\x1b[31m", "unknown": "\x1b[90m"}

// Table writes one row per cluster: name (decommissioned said), stack (and shard), region, role, wave, Kubernetes
// version, node groups, what EKS says, drift, whether Argo CD was read and whether it reaches the cluster
// (Connection), and its add-ons as a count per state with the failed ones named (Cluster.AddonsText), coloured when
// colour is set (a terminal); then each hub stack's Argo CD load (Capacity), each stack's rollout (fleet rollout's
// record) and what could not be read.
func Table(w io.Writer, r Report, colour bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CLUSTER\tSTACK\tREGION\tROLE\tWAVE\tK8S\tNODES\tEKS\tDRIFT\tARGO CD\tCONNECTION\tADD-ONS")
	for _, c := range r.Clusters {
		name := c.Name
		if c.Decommissioned {
			name += " (decommissioned)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, c.StackText(), c.Region, c.Role,
			c.WaveText(), c.KubernetesVersion, c.NodeGroupsText(), c.EKS, r.DriftOf(c), c.ArgoCD,
			paint(colour, c.ConnectionState(), cmp.Or(c.Connection, Unknown)), c.AddonsText(colour))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, st := range r.Stacks {
		if st.Capacity != nil {
			if _, err := fmt.Fprintf(w, "hub of stack %s: %s\n", st.Name, st.Capacity); err != nil {
				return err
			}
		}
		if st.Rollout != nil {
			if _, err := fmt.Fprintf(w, "rollout of stack %s: %s\n", st.Name, st.Rollout); err != nil {
				return err
			}
		}
	}
	for _, u := range r.Unreachable {
		if _, err := fmt.Fprintf(w, "unreachable: %s\n", u); err != nil {
			return err
		}
	}
	return nil
}

// AddonTable writes one row per cluster and add-on: its state, the version its identity's policy is for, the chart
// version Argo CD deployed, Argo CD's sync and health and its message; "-" for what is not known (fleet status
// -addons).
func AddonTable(w io.Writer, r Report, colour bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CLUSTER\tADD-ON\tSTATE\tVERSION\tDEPLOYED\tSYNC\tHEALTH\tMESSAGE")
	dash := func(s string) string { return cmp.Or(s, "-") }
	for _, c := range r.Clusters {
		for _, a := range c.Addons {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, a.Name, paint(colour, a.State(), a.State()), dash(a.Version), dash(a.Deployed),
				dash(a.Sync), dash(a.Health), dash(a.Message))
		}
	}
	return tw.Flush()
}

// DriftOf is c's drift as shown: "unchecked" (its stack's drift was not checked or could not be), "none", or how
// many of its resources drifted.
func (r Report) DriftOf(c Cluster) string {
	i := slices.IndexFunc(r.Stacks, func(s Stack) bool { return s.Name == c.Stack })
	switch {
	case i < 0 || !r.Stacks[i].DriftChecked:
		return "unchecked"
	case len(c.Drifted) == 0:
		return "none"
	}
	return fmt.Sprintf("%d resource(s)", len(c.Drifted))
}

// JSON writes the report as indented JSON.
func JSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// HTML writes the report as one self-contained page (no external asset): a cluster x add-on matrix, after each
// cluster's columns and its Argo CD connection (coloured as a state: Successful ok, Failed failed), each add-on cell
// coloured by the add-on's state and linking to its details below, then what could not be read. refresh, when
// positive, makes a browser reload the page that often (fleet status --watch rewrites it).
func HTML(w io.Writer, r Report, refresh time.Duration) error {
	return page.Execute(w, struct {
		Report
		Refresh int
	}{r, int(refresh.Seconds())})
}

var page = template.Must(template.New("status").Funcs(template.FuncMap{
	"cell": func(c Cluster, name string) *Addon {
		if a, ok := c.Addon(name); ok {
			return &a
		}
		return nil
	},
	"id": func(cluster, addon string) string { return "d-" + cluster + "-" + addon },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">{{if gt .Refresh 0}}<meta http-equiv="refresh" content="{{.Refresh}}">{{end}}<title>Fleet status</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em}
table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
td.ok{background:#c8f7c5}td.stack{background:#c5e4f7}td.progressing{background:#fdf1b8}td.failed{background:#f8c4c4}td.unknown{background:#e4e4e4}
td.none{background:#fff;color:#999}
</style></head><body>
<h1>Fleet status</h1>
<p>At {{.At.Format "2006-01-02 15:04:05 MST"}}: {{len .Clusters}} clusters.</p>
{{$addons := .Addons}}{{$r := .Report}}
<table id="matrix"><thead><tr><th>Cluster</th><th>Stack</th><th>Region</th><th>Role</th><th>Wave</th><th>Kubernetes</th><th>Node groups</th><th>EKS</th><th>Drift</th><th>Argo CD connection</th>{{range $addons}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range $c := .Clusters}}<tr data-cluster="{{$c.Name}}"><th>{{$c.Name}}{{if $c.Decommissioned}} (decommissioned){{end}}</th><td>{{$c.StackText}}</td><td>{{$c.Region}}</td><td>{{$c.Role}}</td><td>{{$c.WaveText}}</td><td>{{$c.KubernetesVersion}}</td><td>{{$c.NodeGroupsText}}</td><td class="eks">{{$c.EKS}}</td><td class="drift">{{$r.DriftOf $c}}</td><td class="connection {{$c.ConnectionState}}" data-connection="{{or $c.Connection "Unknown"}}">{{or $c.Connection "Unknown"}}</td>
{{range $a := $addons}}{{with cell $c $a}}<td class="{{.State}}" data-addon="{{$a}}"><a href="#{{id $c.Name $a}}">{{.State}}</a></td>{{else}}<td class="none" data-addon="{{$a}}">-</td>{{end}}{{end}}</tr>
{{end}}</tbody></table>
<h2>Details</h2>
{{range $c := .Clusters}}{{range .Addons}}<section id="{{id $c.Name .Name}}"><h3>{{$c.Name}}: {{.Name}}</h3>
{{if .ThroughStack}}<p>Installed by the hub's stack (argocd.stackAddons): no Argo CD Application</p>{{else}}<p>Application {{if .Application}}{{.Application}}{{else}}not found{{end}}; sync {{.Sync}}, health {{.Health}}{{if .Message}}: {{.Message}}{{end}}</p>{{end}}
{{if .Version}}<p>Version {{.Version}}</p>{{end}}{{if .Deployed}}<p>Deployed chart {{.Deployed}}</p>{{end}}{{if .IamRoleArn}}<p>IAM role {{.IamRoleArn}}</p>{{end}}</section>
{{end}}{{with .EKS}}{{range .Insights}}<p>{{$c.Name}}: upgrade insight {{.Name}}: {{.Status}} {{.Reason}}</p>{{end}}{{range .Capabilities}}<p>{{$c.Name}}: capability {{.}}</p>{{end}}{{end}}{{range .Drifted}}<p>{{$c.Name}}: drifted {{.}}</p>{{end}}{{end}}
{{if .Unreachable}}<h2>Unreachable</h2><ul>{{range .Unreachable}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body></html>
`))
