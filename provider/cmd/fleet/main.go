// Command fleet is the fleet's command line. `fleet status` shows the state of every cluster of a fleet at a
// glance: what its stacks built (read through the Automation API), what the hub's Argo CD says of each add-on's
// Application, what EKS says of each cluster (status, versions, upgrade insights, a managed hub's capability) and,
// with --drift, what a refresh preview finds changed in the cloud. A source it cannot read is shown as such,
// never as healthy. `fleet rollout` takes an add-ons repository commit to the fleet wave by wave, gated on the hub's
// Argo CD, and puts a wave that fails back on its last good commit; with -version it takes a Kubernetes upgrade wave
// by wave, gated on EKS's upgrade insights and the clusters' status (provider/rollout, docs/waves.md). `fleet
// preflight` checks a stack's plan against the AWS account before its first up: the deployer's permissions, the
// service quotas, the clusters' Kubernetes versions in EKS's calendar and EKS Capabilities in a managed hub's region
// (provider/preflight, docs/aws.md); it exits 1 when a finding fails the plan.
//
//	fleet status [-C dir] [-stack name]... [-kubeconfig file] [-eks=false] [-drift] [-json | -html file | -addons] [-watch 30s]
//	fleet rollout [-C dir] -stack name (-revision sha | -version 1.34) [-bake 5m] [-timeout 15m] [-failures 0|25%] [-retry] [-preview]
//	fleet preflight [-C dir] (-stack name | -events preview.log) [-json | -policy]
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case len(os.Args) >= 2 && os.Args[1] == "status":
		opts, err := parse(os.Args[2:], os.Stderr)
		if err != nil {
			os.Exit(2)
		}
		if err := runStatus(ctx, opts, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fleet status:", err)
			os.Exit(1)
		}
	case len(os.Args) >= 2 && os.Args[1] == "rollout":
		opts, err := parseRollout(os.Args[2:], os.Stderr)
		if err != nil {
			os.Exit(2)
		}
		if err := runRollout(ctx, opts, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fleet rollout:", err)
			os.Exit(1)
		}
	case len(os.Args) >= 2 && os.Args[1] == "preflight":
		opts, err := parsePreflight(os.Args[2:], os.Stderr)
		if err != nil {
			os.Exit(2)
		}
		if err := runPreflight(ctx, opts, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fleet preflight:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: fleet status|rollout|preflight [flags] (fleet status -h, ... list them)")
		os.Exit(2)
	}
}
