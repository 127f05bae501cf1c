package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
	"github.com/gitops-fleet/pulumi-fleet/bench/report"
)

// argoCDAtSizeReport is the report of -argocd-at-size, in -out.
const argoCDAtSizeReport = "argocd-at-size.md"

// argoCDAtSizeSession runs Argo CD's own controllers on a hub with each of sizes clusters registered
// (engine.MeasureArgoCDAtSize), one size after another, and writes its report.
func argoCDAtSizeSession(ctx context.Context, root string, sizes []int, work, out string) error {
	r, machine, err := newRunner(root, work)
	if err != nil {
		return err
	}
	start := time.Now()
	var rows, others strings.Builder
	data := report.ArgoCDAtSizeResults{Measured: start}
	for _, size := range sizes {
		run, err := r.MeasureArgoCDAtSize(ctx, size)
		if err != nil {
			return fmt.Errorf("Argo CD with %d clusters: %w", size, err)
		}
		data.Runs = append(data.Runs, *run)
		var memory []string
		peak := 0
		for _, mib := range run.ControllerPeaks() {
			memory = append(memory, fmt.Sprint(mib))
			peak = max(peak, mib)
		}
		logf("%d clusters (%d real), %d replicas: %d of %d Applications Synced and Healthy after %.1f s; "+
			"controllers' peaks %s MiB", run.Size, run.Real, run.Replicas, run.Healthy, run.Applications, run.Seconds, strings.Join(memory, ", "))
		fmt.Fprintf(&rows, "| %d | %d | %d | %d | %d | %d | %.1f | %s | %d | %d | %d | %.1f |\n", run.Size, run.Real,
			run.Replicas, run.Planned, run.Applications, run.Healthy, run.Seconds, strings.Join(memory, ", "), peak,
			run.Memory["applicationset-controller"], run.ControlPlanesMiB, run.Setup)
		for _, o := range run.Others {
			fmt.Fprintf(&others, "- %d clusters: %s\n", run.Size, o)
		}
	}
	if err := report.WriteData(out, report.ArgoCDAtSizeData, data); err != nil {
		return err
	}
	if others.Len() == 0 {
		others.WriteString("None: every Application was Synced and Healthy.\n")
	}
	report := fmt.Sprintf(`# Argo CD at size (make bench-argocd-at-size)

%s, on %s; the session took %s.

Argo CD's own controllers (tests/argocdhub: the repo server, the ApplicationSet controller and the application
controller's replicas, from the argo-cd chart the hub's stack installed) on a hub with 100 and 200 clusters
registered, each size a run of its own. The fleet's `+"`up`"+` (bench/fleetgen, the offline add-ons repository pinned to
a commit) makes the hub and one spoke per %d clusters, each on a Kubernetes control plane of its own; the other
clusters are registered beside the fleet's spokes, each a copy of a spoke's cluster secret at a shared endpoint of
that spoke's API server (offline.SharedEndpoint), which Argo CD takes for a cluster of its own. The application
controller runs the replicas Fleet plans for that many clusters and Applications (gitopsbridge.ReplicasFor: a
replica per 50 clusters), each secret naming its replica (gitopsbridge.ShardOf). Every spoke runs the offline
repository's two add-ons (the load balancer controller and metrics-server, the stand-in charts of tests/charts),
so each cluster has two Applications, and the hub one bootstrap Application.

| clusters | real control planes | controller replicas | Applications planned | Applications | Synced and Healthy | seconds to every Application settled | each replica's peak: MiB | largest replica: MiB | ApplicationSet controller: MiB | control planes: MiB | setup: s |
|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|
%s
Seconds run from the controllers' start until every Application had been reconciled since and had settled
(offline.WaitForApplications). Setup (not in the seconds) is the fleet's `+"`up`"+` and the registrations.

What this leaves unproven:
- **A cluster's own API server.** The clusters that share a spoke's API server share its objects: each cluster's
  cache in the application controller holds every object of that server (its own Applications' and its
  neighbours'), more than a cluster of its own would hold, and the shared servers answer every cluster's list and
  watch. The controllers' memory is therefore an upper bound for clusters of this size, and the seconds are slower
  than a hub with spokes on servers of their own, on two processor cores shared with the servers.
- **Real add-ons.** The charts are stand-ins of a ServiceAccount and a Deployment each; a real add-on's chart
  holds tens of objects, and its CRDs add kinds to every cluster's cache.
- **A managed hub.** EKS's managed Argo CD does not run here; its quota (1,000 Applications) is counted at
  preview (docs/capacity.md).

Applications not Synced and Healthy:

%s`, start.Format("2006-01-02"), machine, time.Since(start).Round(time.Second), engine.ClustersPerRealSpoke,
		rows.String(), others.String())
	path, err := writeReport(out, argoCDAtSizeReport, report)
	if err == nil {
		logf("report: %s", path)
	}
	return err
}
