package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/eks"
	"golang.org/x/term"

	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// options are fleet status's flags.
type options struct {
	dir, kubeconfig, html string
	hubStack              string
	stacks                stackList
	metrics               stackList
	eks, drift, json      bool
	connection            bool
	addons                bool
	watch                 time.Duration
	filter                status.Filter
}

// waveList is a repeatable -wave flag.
type waveList struct{ waves *[]int }

func (w waveList) String() string {
	if w.waves == nil {
		return ""
	}
	return strings.Trim(fmt.Sprint(*w.waves), "[]")
}

func (w waveList) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a wave (0, 1, ...)", v)
	}
	*w.waves = append(*w.waves, n)
	return nil
}

// stackList is a repeatable -stack flag.
type stackList []string

func (s *stackList) String() string     { return strings.Join(*s, ",") }
func (s *stackList) Set(v string) error { *s = append(*s, v); return nil }

// parse reads fleet status's flags; errors and -h go to out.
func parse(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("fleet status", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.dir, "C", ".", "the fleet's Pulumi project directory (its Pulumi.yaml names the project and backend)")
	fs.Var(&o.stacks, "stack", "a stack to read, repeatable (the hub's and its shards'); default: every stack of the project")
	fs.StringVar(&o.hubStack, "hub-stack", "", "the stack whose hub every stack is read against (read even if -stack omits it); default: each stack's own hub, and for a shard the one hub of the stacks read")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "your kubeconfig file reaching the hub; default: the hub's endpoint and CA from EKS, with an EKS token of your AWS credentials (no stack output is used as a kubeconfig)")
	fs.BoolVar(&o.connection, "connection", true, "read each cluster's Argo CD connection state from the application controllers' metrics (not on a managed hub)")
	fs.Var(&o.metrics, "argocd-metrics", "an application controller replica's metrics URL (http://localhost:8082/metrics through `kubectl port-forward`), repeatable; default: each controller pod's metrics through the hub API's pod proxy")
	fs.BoolVar(&o.eks, "eks", true, "ask EKS of each cluster (AWS credentials from the environment)")
	fs.BoolVar(&o.drift, "drift", false, "check each stack's drift with a refresh preview (reads every resource: slow)")
	fs.BoolVar(&o.json, "json", false, "write the report as JSON")
	fs.StringVar(&o.html, "html", "", "write the report as one self-contained HTML page to this file")
	fs.BoolVar(&o.addons, "addons", false, "one row per cluster and add-on: its state, version (its policy's), the chart version Argo CD deployed, sync, health and message")
	fs.DurationVar(&o.watch, "watch", 0, "refresh the report this often (30s) until interrupted")
	fs.BoolVar(&o.filter.Failing, "failing", false, "only the clusters with a failed add-on, a failing EKS status or a failed Argo CD connection")
	fs.Var(waveList{&o.filter.Waves}, "wave", "only the clusters of this wave, repeatable")
	fs.Var((*stackList)(&o.filter.Clusters), "cluster", "only the cluster of this name, repeatable")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	if o.json && o.html != "" || o.addons && (o.json || o.html != "") {
		problems = append(problems, "-json, -html and -addons: choose one")
	}
	if !o.connection && len(o.metrics) > 0 {
		problems = append(problems, "-argocd-metrics with -connection=false: choose one")
	}
	for _, m := range o.metrics {
		if u, err := url.Parse(m); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			problems = append(problems, fmt.Sprintf("-argocd-metrics %q: an http or https URL (http://localhost:8082/metrics)", m))
		}
	}
	if o.watch < 0 || o.watch > 0 && o.watch < 5*time.Second {
		problems = append(problems, fmt.Sprintf("-watch %s: at least 5s", o.watch))
	}
	if len(problems) > 0 {
		err := errors.New(strings.Join(problems, "; "))
		fmt.Fprintln(out, "fleet status:", err)
		return o, err
	}
	return o, nil
}

// runStatus collects and writes the report, once or every o.watch until ctx ends.
func runStatus(ctx context.Context, o options, out io.Writer) error {
	src := status.Sources{Dir: o.dir, Stacks: o.stacks, HubStack: o.hubStack, Drift: o.drift}
	if o.kubeconfig != "" {
		data, err := os.ReadFile(o.kubeconfig)
		if err != nil {
			return err
		}
		src.Kubeconfig = string(data)
	}
	// One client per region, for every cluster there and every round of -watch (asked for from status.WithEKS's
	// goroutines).
	clients := map[string]status.EKSAPI{}
	var mu sync.Mutex
	regional := func(region string) (status.EKSAPI, error) {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := clients[region]; ok {
			return c, nil
		}
		cfg, err := awsconfig.Load(ctx, region, "")
		if err != nil {
			return nil, err
		}
		clients[region] = eks.NewFromConfig(cfg)
		return clients[region], nil
	}
	src.Hub = status.EKSHub(regional)
	switch {
	case !o.connection:
	case len(o.metrics) > 0:
		src.ArgoCDMetrics = status.URLMetrics(o.metrics)
	default:
		src.ArgoCDMetrics = status.PodMetrics
	}
	if o.eks {
		src.EKS = regional
	}
	tty := false
	if f, ok := out.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd())) && os.Getenv("NO_COLOR") == ""
	}
	for {
		r := status.Collect(ctx, src).Filtered(o.filter)
		if err := write(o, r, out, tty); err != nil {
			return err
		}
		if o.watch == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.watch):
		}
	}
}

// write renders r as o asks: JSON, an HTML file (written whole, then renamed into place), or the table (the
// screen cleared first when watching a terminal).
func write(o options, r status.Report, out io.Writer, tty bool) error {
	switch {
	case o.json:
		return status.JSON(out, r)
	case o.html != "":
		tmp, err := os.CreateTemp(filepath.Dir(o.html), ".fleet-status-*.html")
		if err != nil {
			return err
		}
		if err := errors.Join(status.HTML(tmp, r, o.watch), tmp.Close()); err != nil {
			os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), o.html); err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s: %d clusters, %d unreachable sources, at %s\n", o.html, len(r.Clusters),
			len(r.Unreachable), r.At.Format(time.RFC3339))
		return err
	}
	if tty && o.watch > 0 {
		fmt.Fprint(out, "\x1b[H\x1b[2J")
	}
	if o.addons {
		return status.AddonTable(out, r, tty)
	}
	return status.Table(out, r, tty)
}
