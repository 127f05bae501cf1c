package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/servicequotas"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
	"github.com/gitops-fleet/pulumi-fleet/provider/preflight"
)

// preflightOptions are fleet preflight's flags.
type preflightOptions struct {
	dir, stack, events string
	json, policy       bool
}

// parsePreflight reads fleet preflight's flags; errors and -h go to out.
func parsePreflight(args []string, out io.Writer) (preflightOptions, error) {
	var o preflightOptions
	fs := flag.NewFlagSet("fleet preflight", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.dir, "C", ".", "the fleet's Pulumi project directory (its program is previewed with its own language host)")
	fs.StringVar(&o.stack, "stack", "", "the stack to check (required without -events)")
	fs.StringVar(&o.events, "events", "", "read the plan from this `file`: the engine event log pulumi preview --event-log writes (instead of previewing the stack)")
	fs.BoolVar(&o.json, "json", false, "write the report as JSON")
	fs.BoolVar(&o.policy, "policy", false, "write an IAM policy allowing the actions the plan needs (for the deployer's role) instead of checking")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	if o.stack == "" && o.events == "" {
		problems = append(problems, "-stack or -events: give one")
	}
	if o.policy && o.json {
		problems = append(problems, "-policy and -json: choose one")
	}
	if len(problems) > 0 {
		err := errors.New(strings.Join(problems, "; "))
		fmt.Fprintln(out, "fleet preflight:", err)
		return o, err
	}
	return o, nil
}

// errPreflightFailed is fleet preflight's error when a finding fails the plan (the report says which).
var errPreflightFailed = errors.New("a finding fails the plan")

// runPreflight reads the stack's plan, checks it against the account of the ambient AWS credentials and writes the
// report; errPreflightFailed when a finding fails it.
func runPreflight(ctx context.Context, o preflightOptions, out io.Writer) error {
	var evs []apitype.EngineEvent
	var err error
	if o.events != "" {
		evs, err = readEventLog(o.events)
	} else {
		evs, err = previewEvents(ctx, o.dir, o.stack)
	}
	if err != nil {
		return err
	}
	plan, err := preflight.PlanOf(evs)
	if err != nil {
		return err
	}
	if o.policy {
		_, err := fmt.Fprintln(out, plan.Policy().JSON())
		return err
	}
	home := ""
	if regions := plan.Regions(); len(regions) > 0 {
		home = regions[0]
	}
	cfg, err := awsconfig.Load(ctx, home, "")
	if err != nil {
		return err
	}
	api := preflight.AWS{STS: sts.NewFromConfig(cfg), IAM: iam.NewFromConfig(cfg),
		Region: func(region string) (preflight.Regional, error) {
			c := cfg.Copy()
			c.Region = region
			return preflight.Regional{Quotas: servicequotas.NewFromConfig(c), EC2: ec2.NewFromConfig(c), EKS: eks.NewFromConfig(c)}, nil
		}}
	r, err := preflight.Run(ctx, plan, api)
	if err != nil {
		return err
	}
	if o.json {
		err = preflight.JSON(out, r)
	} else {
		err = preflight.Table(out, r)
	}
	if err != nil {
		return err
	}
	if r.Failed() {
		return errPreflightFailed
	}
	return nil
}

// readEventLog reads an engine event log: one JSON engine event per line, as `pulumi preview --event-log` writes it.
func readEventLog(path string) ([]apitype.EngineEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []apitype.EngineEvent
	lines := bufio.NewScanner(f)
	lines.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; lines.Scan(); n++ {
		if len(strings.TrimSpace(lines.Text())) == 0 {
			continue
		}
		var e apitype.EngineEvent
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: not an engine event: %w", path, n, err)
		}
		out = append(out, e)
	}
	return out, lines.Err()
}

// previewEvents runs `pulumi preview` of stack in the project dir (its program run by its language host, as
// `pulumi preview` there does) and returns its engine events.
func previewEvents(ctx context.Context, dir, stack string) ([]apitype.EngineEvent, error) {
	s, err := auto.SelectStackLocalSource(ctx, stack, dir)
	if err != nil {
		return nil, fmt.Errorf("stack %s of %s: %w", stack, dir, err)
	}
	ch := make(chan events.EngineEvent)
	done := make(chan []apitype.EngineEvent)
	go func() {
		var out []apitype.EngineEvent
		for e := range ch {
			out = append(out, e.EngineEvent)
		}
		done <- out
	}()
	_, err = s.Preview(ctx, optpreview.EventStreams(ch))
	evs := <-done
	if err != nil {
		return nil, fmt.Errorf("preview of %s: %w", stack, err)
	}
	return evs, nil
}
