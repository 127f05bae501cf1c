// Command fleet-demo runs the fleet example (examples/fleet, stack dev by default) through the real Pulumi CLI
// and engine against the offline cloud: `pulumi preview`, then `pulumi up`, with Pulumi's own progress output,
// then a summary of the fleet. State persists in .work/demo, so a second run is an update with no changes.
// With real control planes, the dev fleet ends with Argo CD's view: Argo CD's own controllers run on the hub,
// read the repositories the run serves offline, and sync the add-ons and the tenant's workloads into the spokes.
// `make demo` runs it; -destroy tears the stack down.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

func main() {
	stackName := flag.String("stack", "dev", "stack of examples/fleet to run (dev, qa, prod or delivery)")
	destroy := flag.Bool("destroy", false, "destroy the stack instead of updating it")
	servers := flag.String("kube", "real", "what the clusters' Kubernetes APIs are: real (a control plane per "+
		"cluster, the real Kubernetes provider) or emulated (tests/emulator/kubernetes)")
	flag.Parse()
	if *servers != "real" && *servers != "emulated" {
		fmt.Fprintf(os.Stderr, "fleet-demo: -kube %q: want real or emulated\n", *servers)
		os.Exit(2)
	}
	if err := run(*stackName, *destroy, offline.Options{ControlPlanes: *servers == "real"}); err != nil {
		fmt.Fprintln(os.Stderr, "fleet-demo:", err)
		os.Exit(1)
	}
}

func run(stackName string, destroy bool, opts offline.Options) error {
	ctx := context.Background()
	root, err := offline.Root()
	if err != nil {
		return err
	}
	// The two kinds of run keep their states apart: objects an emulated run wrote are in no API server.
	dir := filepath.Join(root, ".work", "demo-real")
	if !opts.ControlPlanes {
		dir = filepath.Join(root, ".work", "demo")
	}
	env, err := offline.Open(root, dir, opts)
	if err != nil {
		return err
	}
	defer env.Close()
	stack, err := env.Stack(ctx, filepath.Join(root, "examples", "fleet"), stackName, fleetstack.Run)
	if err != nil {
		return err
	}
	if err := offline.SetDeliverySecrets(ctx, stack); err != nil {
		return err
	}
	if err := env.Recover(ctx, stack, os.Stdout); err != nil {
		return fmt.Errorf("recovering from an interrupted run: %w", err)
	}
	// The plugins are project plugins (offline.Plugins): the engine has no warning about them, so every warning
	// the run counts is shown.
	out := os.Stdout
	if destroy {
		_, err := stack.Destroy(ctx, optdestroy.ProgressStreams(out))
		return err
	}
	argocd := opts.ControlPlanes && stackName == "dev"
	if argocd {
		if err := serveDevRepositories(ctx, env, stack); err != nil {
			return err
		}
	}
	fmt.Printf("== pulumi preview (stack %s, offline cloud, state in %s)\n", stackName, env.Vars["PULUMI_BACKEND_URL"])
	if _, err := stack.Preview(ctx, optpreview.ProgressStreams(out)); err != nil {
		return err
	}
	fmt.Printf("\n== pulumi up (stack %s)\n", stackName)
	res, err := stack.Up(ctx, optup.ProgressStreams(out))
	if err != nil {
		return err
	}
	offline.PrintSummary(os.Stdout, res.Outputs)
	offline.PrintDelivery(os.Stdout, res.Outputs)
	offline.PrintControlPlanes(os.Stdout, env)
	// Argo CD's controllers run on until fleet status has read their connection states (-argocd-metrics: they
	// are the machine's processes, not behind the hub API's pod proxy); without them there is none to read.
	statusArgs := []string{"-connection=false"}
	if argocd {
		metrics, stop, err := showArgoCD(ctx, env, res.Outputs)
		if err != nil {
			return err
		}
		if stop != nil {
			defer stop()
			statusArgs = nil
			for _, m := range metrics {
				statusArgs = append(statusArgs, "-argocd-metrics", m)
			}
		}
	}
	// The fleet at a glance, as `fleet status` shows it (bin/fleet, in the run's environment).
	fmt.Printf("\n== fleet status -C %s\n", env.ProjectDir(filepath.Join(root, "examples", "fleet"), stackName))
	table, err := env.FleetStatus(filepath.Join(root, "examples", "fleet"), stackName, statusArgs...)
	os.Stdout.Write(table)
	return err
}
