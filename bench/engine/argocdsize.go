package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	fleetsdk "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// ArgoCDAtSizeRun is Argo CD's own controllers (tests/argocdhub) on a hub with Size clusters registered, measured from
// their start until every Application settled. The fleet's up registers its own clusters, each on a control plane of
// its own; the other clusters are registered next to them as the fleet registers a spoke (a copy of a real spoke's
// cluster secret), each at a shared endpoint of a real spoke (offline.SharedEndpoint): Argo CD takes each for a
// cluster of its own, while an API server per cluster (about 250 MiB each) would not fit this machine.
type ArgoCDAtSizeRun struct {
	// Size is the clusters registered in the hub's Argo CD, the hub included; Real how many of them have a control
	// plane of their own (the hub and the fleet's spokes), the others sharing the spokes' (about evenly).
	Size, Real int
	// Replicas is the application controller's replicas, as Fleet plans them for Size clusters and Planned
	// Applications (gitopsbridge.ReplicasFor, and the chart's values sized from both, ControllerValues), each
	// cluster secret naming its replica (gitopsbridge.ShardOf).
	Replicas, Planned int
	// RequestMiB is the memory request Fleet plans for each replica (gitopsbridge.ControllerMemoryMiB); its limit is
	// twice that. 0 for one replica, which keeps the chart's resources.
	RequestMiB int
	// Seconds is the time from the controllers' start until every Application had been reconciled since and had
	// settled (offline.WaitForApplications), or the limit (argoCDAtSizeLimit).
	Seconds float64
	// Applications is how many Applications there were then, Healthy how many were Synced and Healthy.
	Applications, Healthy int
	// Memory is each controller process's peak resident memory, in MiB (argocdhub.Hub.PeakMemory): one entry per
	// application controller replica.
	Memory map[string]int
	// ControlPlanesMiB is the control planes' resident memory once the Applications settled, in MiB.
	ControlPlanesMiB int64
	// Others are up to ten Applications that were not Synced and Healthy: "<name> <sync>/<health>: <why>".
	Others []string
	// Setup is the seconds of the fleet's up and the registrations, not measured above.
	Setup float64
}

// ControllerProcess is how the names of the application controller's replicas begin in ArgoCDAtSizeRun.Memory
// (application-controller, application-controller-1, ...), beside Argo CD's other processes.
const ControllerProcess = "application-controller"

// ControllerPeaks are the application controller replicas' peaks in Memory, in MiB, in the order of their names.
func (r ArgoCDAtSizeRun) ControllerPeaks() []int {
	var out []int
	for _, name := range slices.Sorted(maps.Keys(r.Memory)) {
		if strings.HasPrefix(name, ControllerProcess) {
			out = append(out, r.Memory[name])
		}
	}
	return out
}

// argoCDAtSizeLimit is how long MeasureArgoCDAtSize waits for the Applications to settle.
const argoCDAtSizeLimit = 20 * time.Minute

// ClustersPerRealSpoke is about how many registered clusters share one real spoke's control plane.
const ClustersPerRealSpoke = 25

// atSizeAddons is the add-ons commit of the run: the offline add-ons repository (two ApplicationSets, the load
// balancer controller's and metrics-server's), with metrics-server's Helm release named after its cluster. Its
// objects go to kube-system and are named after the release, so the clusters that share an API server would
// otherwise write the same objects; the load balancer controller's namespace is each cluster's own already (its
// secret's aws_load_balancer_controller_namespace annotation, set per cluster by registerShared).
func atSizeAddons(root, dir string) (string, error) {
	src := filepath.Join(dir, "addons-at-size")
	if err := os.CopyFS(src, os.DirFS(filepath.Join(root, offline.AddonsFixture))); err != nil {
		return "", err
	}
	path := filepath.Join(src, "bootstrap", "control-plane", "addons", "oss", "addons-metrics-server-appset.yaml")
	set, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	const release = "releaseName: '{{values.addonChart}}'"
	if !strings.Contains(string(set), release) {
		return "", fmt.Errorf("%s: no %q to name the release after its cluster", path, release)
	}
	set = []byte(strings.Replace(string(set), release, "releaseName: '{{name}}-{{values.addonChart}}'", 1))
	return src, os.WriteFile(path, set, 0o644)
}

// MeasureArgoCDAtSize brings up a fleet of real clusters (the hub and one spoke per ClustersPerRealSpoke of size),
// registers the other clusters at the spokes' shared endpoints, starts Argo CD on the hub with the application
// controller sharded as Fleet plans it for size clusters, and times it (ArgoCDAtSizeRun).
func (r Runner) MeasureArgoCDAtSize(ctx context.Context, size int) (run *ArgoCDAtSizeRun, err error) {
	spokes := max(1, size/ClustersPerRealSpoke)
	if size < spokes+2 {
		return nil, fmt.Errorf("Argo CD at size %d: want at least %d clusters", size, spokes+2)
	}
	started := time.Now()
	dir := filepath.Join(r.Work, fmt.Sprintf("argocd-at-size-%d", size))
	env, err := r.openReal(dir)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeEnv(env)) }()
	src, err := atSizeAddons(r.Root, dir)
	if err != nil {
		return nil, err
	}
	sha, err := env.PublishGit(offline.AddonsRepo, src, "the offline add-ons repository, metrics-server named per cluster")
	if err != nil {
		return nil, err
	}
	cfg, err := fleetgen.Fleet(1 + spokes)
	if err != nil {
		return nil, err
	}
	cfg = offlineAddons(cfg)
	cfg.Repositories.Addons.Revision = &sha
	cfg.Repositories.Workloads = nil // not served offline: its Applications would only fail to fetch
	cfg.Clusters[0].Addons = nil     // the hub runs Argo CD and no add-on, as in the rollout's fleet
	// Fleet's plan for size clusters, each with the two add-ons of the offline repository, and the bootstrap.
	planned := 2*(size-1) + 1
	replicas := gitopsbridge.ReplicasFor(nil, size, planned)
	cfg.Argocd = &fleetsdk.Hub{ControllerSharding: &fleetsdk.ControllerSharding{
		Replicas: &replicas, Applications: &planned, Clusters: &size}}
	if _, err := upFleet(ctx, env, dir, cfg); err != nil {
		return nil, err
	}
	hubName := controlplane.Name(fleetgen.Regions[0], "hub")
	hubTyped, err := env.Clusters.Typed(hubName)
	if err != nil {
		return nil, err
	}
	hubDyn, err := env.Clusters.Dynamic(hubName)
	if err != nil {
		return nil, err
	}
	var real []string
	for _, c := range cfg.Clusters[1:] {
		real = append(real, c.Name)
	}
	if err := registerShared(ctx, hubTyped, hubDyn, real, size-1-len(real), replicas); err != nil {
		return nil, err
	}
	run = &ArgoCDAtSizeRun{Size: size, Real: 1 + len(real), Replicas: replicas, Planned: planned,
		RequestMiB: gitopsbridge.ControllerMemoryMiB(&gitopsbridge.ControllerSharding{Replicas: replicas,
			Applications: planned, Clusters: size}),
		Setup: time.Since(started).Seconds()}

	argoStarted := time.Now()
	hub, stop, err := env.StartArgoCD(ctx, fleetgen.Regions[0], "hub")
	if err != nil {
		return nil, fmt.Errorf("starting Argo CD on the hub: %w", err)
	}
	defer stop()
	apps, err := waitForCount(ctx, hubDyn, planned, argoStarted)
	if err == nil {
		apps, err = offline.WaitForApplications(ctx, hubDyn, argoStarted, argoCDAtSizeLimit-time.Since(argoStarted))
	}
	if err != nil {
		return nil, err
	}
	run.Seconds, run.Applications, run.Memory = time.Since(argoStarted).Seconds(), len(apps), hub.PeakMemory()
	mem, _ := controlPlanesMemory(env)
	run.ControlPlanesMiB = mem >> 20
	for _, a := range apps {
		if a.Sync == "Synced" && a.Health == "Healthy" {
			run.Healthy++
		} else if len(run.Others) < 10 {
			run.Others = append(run.Others, fmt.Sprintf("%s %s/%s: %s", a.Name, a.Sync, a.Health, a.Message))
		}
	}
	return run, nil
}

// waitForCount waits until the hub has want Applications (the ApplicationSet controller generates them after its
// start), or argoCDAtSizeLimit has passed since since.
func waitForCount(ctx context.Context, hub dynamic.Interface, want int, since time.Time,
) ([]offline.Application, error) {
	for {
		apps, err := status.Applications(ctx, hub)
		switch {
		case err == nil && len(apps) >= want:
			return apps, nil
		case time.Since(since) > argoCDAtSizeLimit:
			return nil, fmt.Errorf("after %s the hub has %d Applications (%v), want %d", argoCDAtSizeLimit, len(apps), err, want)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// sharedName is the name of the n-th cluster registered at a shared endpoint of real spoke spoke.
func sharedName(spoke string, n int) string { return fmt.Sprintf("%s-x%03d", spoke, n) }

// registerShared registers count clusters on the hub, round-robin over the real spokes' control planes: each a copy
// of its spoke's cluster secret as the fleet wrote it (labels, annotations, the awsAuthConfig whose token the
// spoke's API server takes), named sharedName, at a shared endpoint of the spoke, naming its controller replica
// (ShardOf of its name), with the load balancer controller in a namespace of its own; and admits them to the
// add-ons' project (AddonApplicationsProject) as the fleet admits its spokes. It writes as the hub's administrator,
// whom the hub's guards exempt: it stands for the fleet's own registrations, not for another writer.
func registerShared(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, real []string,
	count, replicas int,
) error {
	ns := gitopsbridge.DefaultNamespace
	secrets := kube.CoreV1().Secrets(ns)
	appProjects := schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "appprojects"}
	projects := dyn.Resource(appProjects).Namespace(ns)
	project, err := projects.Get(ctx, gitopsbridge.AddonApplicationsProject, metav1.GetOptions{})
	if err != nil {
		return err
	}
	dests, _, err := unstructured.NestedSlice(project.Object, "spec", "destinations")
	if err != nil {
		return err
	}
	// Each real spoke's cluster secret and its destination in the add-ons' project, which its copies take.
	originals, destinations := map[string]*corev1.Secret{}, map[string]map[string]any{}
	for _, spoke := range real {
		s, err := secrets.Get(ctx, spoke, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("spoke %s's cluster secret: %w", spoke, err)
		}
		originals[spoke] = s
		i := slices.IndexFunc(dests, func(d any) bool { m, _ := d.(map[string]any); return m["name"] == spoke })
		if i < 0 {
			return fmt.Errorf("the add-ons' project %s has no destination %s", gitopsbridge.AddonApplicationsProject, spoke)
		}
		destinations[spoke] = dests[i].(map[string]any)
	}
	for i := range count {
		spoke := real[i%len(real)]
		name := sharedName(spoke, i/len(real))
		o := originals[spoke]
		server, err := offline.SharedEndpoint(string(o.Data["server"]), name)
		if err != nil {
			return err
		}
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: o.Labels,
			Annotations: maps.Clone(o.Annotations)}, Type: o.Type, Data: maps.Clone(o.Data)}
		s.Annotations["aws_load_balancer_controller_namespace"] = name
		s.Data["name"], s.Data["server"] = []byte(name), []byte(server)
		s.Data["shard"] = []byte(fmt.Sprint(gitopsbridge.ShardOf(name, replicas)))
		if _, err := secrets.Create(ctx, s, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("registering %s: %w", name, err)
		}
		d := maps.Clone(destinations[spoke])
		d["name"] = name
		dests = append(dests, d)
	}
	if err := unstructured.SetNestedSlice(project.Object, dests, "spec", "destinations"); err != nil {
		return err
	}
	_, err = projects.Update(ctx, project, metav1.UpdateOptions{})
	return err
}
