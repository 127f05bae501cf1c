// Command fleet is the fleet's command line. `fleet status` shows the state of every cluster of a fleet at a
// glance: what its stacks built (read through the Automation API), what the hub's Argo CD says of each add-on's
// Application, what EKS says of each cluster (status, versions, upgrade insights, a managed hub's capability) and,
// with --drift, what a refresh preview finds changed in the cloud. A source it cannot read is shown as such,
// never as healthy.
//
//	fleet status [-C dir] [-stack name]... [-kubeconfig file] [-eks=false] [-drift] [-json | -html file] [-watch 30s]
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
	if len(os.Args) < 2 || os.Args[1] != "status" {
		fmt.Fprintln(os.Stderr, "usage: fleet status [flags] (fleet status -h lists them)")
		os.Exit(2)
	}
	opts, err := parse(os.Args[2:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	if err := runStatus(ctx, opts, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fleet status:", err)
		os.Exit(1)
	}
}
