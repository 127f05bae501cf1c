package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// serveDevRepositories serves what the dev fleet's Argo CD reads and the offline network cannot reach otherwise:
// the offline add-ons repository, which the stack then follows instead of the template's commit, and the payments
// team's workloads. Publishing the same content again is the same commit, so a second run changes nothing.
func serveDevRepositories(ctx context.Context, env *offline.Env, stack auto.Stack) error {
	sha, err := env.PublishGit(offline.AddonsRepo, offline.AddonsFixture, "the offline add-ons repository")
	if err != nil {
		return err
	}
	if _, err := env.PublishGit(offline.PaymentsRepo, offline.PaymentsFixture, "payments: ledger"); err != nil {
		return err
	}
	for key, value := range map[string]string{"url": offline.AddonsRepo, "revision": sha} {
		if err := stack.SetConfigWithOptions(ctx, "gitops-fleet:repositories.addons."+key, auto.ConfigValue{Value: value},
			&auto.ConfigOptions{Path: true}); err != nil {
			return err
		}
	}
	fmt.Printf("== the add-ons repository: %s at %s (%s; the template's commit is not reachable offline)\n",
		offline.AddonsRepo, sha[:7], offline.AddonsFixture)
	return nil
}

// showArgoCD runs Argo CD's own controllers on the fleet's hub until its Applications settle (two minutes at most),
// then prints Argo CD's view of them. It returns the application controllers' metrics URLs (for fleet status's
// connection states) and what stops them (the caller's, once done; nil when the stack has no hub).
func showArgoCD(ctx context.Context, env *offline.Env, outputs auto.OutputMap) (metrics []string, stop func(), err error) {
	region, cluster := hubOf(outputs)
	if cluster == "" {
		return nil, nil, nil
	}
	started := time.Now()
	hub, stop, err := env.StartArgoCD(ctx, region, cluster)
	if err != nil {
		return nil, nil, fmt.Errorf("starting Argo CD on the hub: %w", err)
	}
	defer func() {
		if err != nil {
			stop()
		}
	}()
	dyn, err := env.Clusters.Dynamic(controlplane.Name(region, cluster))
	if err != nil {
		return nil, nil, err
	}
	if err := offline.RefreshApplications(ctx, dyn); err != nil {
		return nil, nil, err
	}
	apps, err := offline.WaitForApplications(ctx, dyn, started, 2*time.Minute)
	if err != nil {
		return nil, nil, err
	}
	fmt.Printf("\nArgo CD on %s (its own controllers, v3.5.7; %s after they started):\n", cluster,
		time.Since(started).Round(time.Second))
	offline.PrintApplications(os.Stdout, apps)
	clusters, _ := outputs["clusters"].Value.(map[string]any)
	waitForConnections(ctx, hub.ControllerMetrics, len(clusters), time.Minute)
	return hub.ControllerMetrics, stop, nil
}

// waitForConnections waits, at most timeout, until the application controllers' metrics (urls) name the connection
// state of n clusters: each replica reports its clusters every 30 s (Argo CD's clustercollector.go), so fleet status
// right after the Applications settle would show every connection Unknown.
func waitForConnections(ctx context.Context, urls []string, n int, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		expositions, err := status.URLMetrics(urls)(ctx, nil, "")
		if connections, cerr := status.Connections(expositions); err == nil && cerr == nil && len(connections) >= n {
			return
		}
		time.Sleep(2 * time.Second)
	}
}

// hubOf is the region and name of the hub among the stack's clusters output (role hub; region from its ARN).
func hubOf(outputs auto.OutputMap) (region, cluster string) {
	clusters, _ := outputs["clusters"].Value.(map[string]any)
	for name, c := range clusters {
		c, _ := c.(map[string]any)
		if c["role"] != "hub" {
			continue
		}
		arn, _ := c["clusterArn"].(string) // arn:aws:eks:<region>:<account>:cluster/<name>
		if parts := strings.Split(arn, ":"); len(parts) > 3 {
			return parts[3], name
		}
	}
	return "", ""
}
