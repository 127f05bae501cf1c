package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// ArgoCDRun is Argo CD's own controllers (tests/argocdhub) run on the hub of a FleetReal fleet after its up, with
// the add-ons repository the offline one (offlineAddons): what the GitOps loop costs once Pulumi is done.
type ArgoCDRun struct {
	// Seconds is the time from the controllers' start until every Application had been reconciled and settled
	// (offline.WaitForApplications), or the limit (ArgoCDLimit) when some never did.
	Seconds float64
	// Applications is how many Applications there were then, Healthy how many of them were Synced and Healthy.
	Applications, Healthy int
	// Memory is each controller's peak resident memory, in MiB (argocdhub.Hub.PeakMemory).
	Memory map[string]int
	// Others are the Applications that were not Synced and Healthy: "<name> <sync>/<health>: <why>".
	Others []string
}

// ArgoCDLimit is how long runArgoCD waits for the Applications to settle.
const ArgoCDLimit = 10 * time.Minute

// offlineAddons points the generated fleet at the offline add-ons repository, which openEnv serves for FleetReal:
// the template the generated fleets name is not reachable offline. Its ApplicationSets install the load balancer
// controller and metrics-server, the two add-ons every generated cluster enables.
func offlineAddons(cfg fleetstack.Config) fleetstack.Config {
	cfg.Repositories.Addons.Url = offline.AddonsRepo // the same layout: its path and revision (main) stay
	return cfg
}

// runArgoCD starts Argo CD on the fleet's hub (fleetgen's "hub", in its first region) and measures it.
func runArgoCD(ctx context.Context, env *offline.Env) (*ArgoCDRun, error) {
	started := time.Now()
	hub, stop, err := env.StartArgoCD(ctx, fleetgen.Regions[0], "hub")
	if err != nil {
		return nil, fmt.Errorf("starting Argo CD on the hub: %w", err)
	}
	defer stop()
	dyn, err := env.Clusters.Dynamic(controlplane.Name(fleetgen.Regions[0], "hub"))
	if err != nil {
		return nil, err
	}
	apps, err := offline.WaitForApplications(ctx, dyn, started, ArgoCDLimit)
	if err != nil {
		return nil, err
	}
	run := &ArgoCDRun{Seconds: time.Since(started).Seconds(), Applications: len(apps), Memory: hub.PeakMemory()}
	for _, a := range apps {
		if a.Sync == "Synced" && a.Health == "Healthy" {
			run.Healthy++
		} else {
			run.Others = append(run.Others, fmt.Sprintf("%s %s/%s: %s", a.Name, a.Sync, a.Health, a.Message))
		}
	}
	return run, nil
}
