package status

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"k8s.io/client-go/dynamic"
)

// Sources are where a report is read from.
type Sources struct {
	// Dir is the fleet's Pulumi project directory: its Pulumi.yaml names the project and its backend (or the
	// CLI's login, PULUMI_BACKEND_URL, applies).
	Dir string
	// Stacks are the stacks to read (the hub's and its shards'); empty: every stack of the project.
	Stacks []string
	// Pulumi is the CLI to run; nil: the one on PATH.
	Pulumi auto.PulumiCommand
	// HubStack is the stack whose hub (its cluster of role hub) every stack read is matched against; "": each
	// stack's own hub, and for a stack without one (a shard) the one hub of the stacks read. It is read even when
	// Stacks does not list it.
	HubStack string
	// Hub reaches a hub's Kubernetes API (EKSHub: through EKS's endpoint and CA, with an EKS token of the ambient
	// credentials); nil: Argo CD is not read and shown as unknown.
	Hub HubAPI
	// ArgoCDMetrics reads the hub's application controllers' metrics, for each cluster's connection state
	// (Cluster.Connection): PodMetrics, through the hub's API, or URLMetrics; nil: not read, every connection
	// Unknown. A managed hub's are never read (its stack has an argocdServerUrl output): AWS runs its controller.
	ArgoCDMetrics ControllerMetrics
	// Kubeconfig is the operator's own kubeconfig reaching the hub, for every stack, used instead of Hub. Stack
	// outputs are never used as a kubeconfig.
	Kubeconfig string
	// EKS: ask the EKS API of each cluster's region (AWS credentials from the environment); nil: EKS is not read
	// and shown as unknown.
	EKS func(region string) (EKSAPI, error)
	// Drift runs a refresh preview of each stack (pulumi refresh --preview-only, the program not run): slow, as it
	// reads every resource from the cloud.
	Drift bool
}

// noProgram is the inline program of the status workspace: fleet status never runs the fleet's program (a refresh
// preview reads the resources only), but an inline workspace needs no language host.
func noProgram(*pulumi.Context) error {
	return errors.New("fleet status does not run the fleet's program")
}

// Collect reads the fleet from its sources: every stack's clusters output, then the hub's Argo CD Applications,
// EKS and each stack's drift as asked. A source that cannot be read is listed in Unreachable and what it would
// have said stays unknown.
func Collect(ctx context.Context, src Sources) Report {
	r := Report{At: time.Now().UTC(), Clusters: []Cluster{}, Stacks: []Stack{}}
	opts := []auto.LocalWorkspaceOption{auto.WorkDir(src.Dir), auto.Program(noProgram)}
	if src.Pulumi != nil {
		opts = append(opts, auto.Pulumi(src.Pulumi))
	}
	ws, err := auto.NewLocalWorkspace(ctx, opts...)
	if err != nil {
		r.Unreachable = append(r.Unreachable, fmt.Sprintf("project %s: %v", src.Dir, err))
		return r
	}
	names := slices.Clone(src.Stacks)
	if len(names) > 0 && src.HubStack != "" && !slices.Contains(names, src.HubStack) {
		names = append(names, src.HubStack)
	}
	if len(names) == 0 {
		list, err := ws.ListStacks(ctx)
		if err != nil {
			r.Unreachable = append(r.Unreachable, fmt.Sprintf("stacks of %s: %v", src.Dir, err))
			return r
		}
		for _, s := range list {
			names = append(names, s.Name)
		}
	}
	// Each stack reads its hub's Argo CD (hubOf), unless -kubeconfig names one for all.
	type read struct {
		clusters []Cluster
		managed  bool
	}
	var reads []read
	hubs := map[string]Cluster{}
	for _, name := range names {
		stack, err := auto.SelectStack(ctx, name, ws)
		var outputs auto.OutputMap
		if err == nil {
			outputs, err = stack.Outputs(ctx)
		}
		if err != nil {
			r.Unreachable = append(r.Unreachable, fmt.Sprintf("stack %s: %v", name, firstLine(err)))
			continue
		}
		clusters, _ := outputs["clusters"].Value.(map[string]any)
		rd := read{clusters: FromOutputs(name, clusters)}
		url, _ := outputs["argocdServerUrl"].Value.(string)
		rd.managed = url != ""
		for _, c := range rd.clusters {
			if c.Role == "hub" {
				hubs[name] = c
			}
		}
		st := Stack{Name: name, Rollout: rolloutOf(ctx, stack), Capacity: capacityOf(outputs["hubCapacity"].Value)}
		if src.Drift {
			drifted, err := drift(ctx, stack)
			if err != nil {
				r.Unreachable = append(r.Unreachable, fmt.Sprintf("drift of stack %s: %v", name, firstLine(err)))
			} else {
				st.DriftChecked, st.Drifted = true, drifted
				byCluster := ofClusters(drifted, rd.clusters)
				for i := range rd.clusters {
					rd.clusters[i].Drifted = byCluster[rd.clusters[i].Name]
				}
			}
		}
		r.Stacks = append(r.Stacks, st)
		reads = append(reads, rd)
	}
	// A hub's Applications and its controllers' metrics are read once, however many stacks (its shards') it serves.
	hubApps := map[string]hubRead{}
	reach := src.Hub
	if src.Kubeconfig != "" {
		reach = KubeconfigHub(src.Kubeconfig)
	}
	for i, rd := range reads {
		// With the operator's kubeconfig every stack reads the one hub it reaches.
		hub, err := Cluster{}, error(nil)
		if src.Kubeconfig == "" {
			hub, err = hubOf(r.Stacks[i].Name, src.HubStack, hubs)
		}
		key := hub.Stack + "/" + hub.Name
		h, ok := hubApps[key]
		if !ok && err == nil {
			m := src.ArgoCDMetrics
			if rd.managed {
				m = nil
			}
			h = readHub(ctx, reach, hub, m, namespaceOf(rd.clusters))
			hubApps[key] = h
		}
		if err != nil {
			h.err = err
		}
		if h.err != nil {
			r.Unreachable = append(r.Unreachable, fmt.Sprintf("argocd of stack %s: %s", r.Stacks[i].Name, firstLine(h.err)))
		} else {
			rd.clusters = WithConnections(WithApplications(rd.clusters, h.apps), h.connections)
			if h.metricsErr != nil {
				r.Unreachable = append(r.Unreachable, fmt.Sprintf("argocd metrics of stack %s: %s", r.Stacks[i].Name, firstLine(h.metricsErr)))
			}
			if c := r.Stacks[i].Capacity; c != nil {
				c.Running = len(h.apps)
			}
		}
		if src.EKS != nil {
			var unreachable []string
			rd.clusters, unreachable = WithEKS(ctx, rd.clusters, rd.managed, src.EKS)
			r.Unreachable = append(r.Unreachable, unreachable...)
		}
		r.Clusters = append(r.Clusters, rd.clusters...)
	}
	return r
}

// hubRead is what a hub's Argo CD says: its Applications (err: why they could not be read), and the connection
// state its application controllers report of each cluster (metricsErr: why some or all could not be read).
type hubRead struct {
	apps        []Application
	err         error
	connections map[string]string
	metricsErr  error
}

// readHub reads hub, reached through reach: its Applications, then its controllers' metrics (nil: not read, as for
// a managed hub; namespace is Argo CD's there).
func readHub(ctx context.Context, reach HubAPI, hub Cluster, metrics ControllerMetrics, namespace string) hubRead {
	if reach == nil {
		return hubRead{err: errors.New("the hub is not read")}
	}
	cfg, err := reach(ctx, hub)
	if err != nil {
		return hubRead{err: err}
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return hubRead{err: err}
	}
	var h hubRead
	if h.apps, h.err = Applications(ctx, dyn); h.err != nil || metrics == nil {
		return h
	}
	expositions, readErr := metrics(ctx, cfg, namespace)
	connections, err := Connections(expositions)
	h.connections, h.metricsErr = connections, errors.Join(readErr, err)
	return h
}

// namespaceOf is Argo CD's namespace on the hub of clusters: their cluster secrets' (the first that says), or
// "argocd", GitOpsBridge's default.
func namespaceOf(clusters []Cluster) string {
	for _, c := range clusters {
		if c.SecretNamespace != "" {
			return c.SecretNamespace
		}
	}
	return "argocd"
}

// drift runs a refresh preview of stack: the URN names of the resources whose cloud state differs from the
// stack's (a refresh that would update or delete them: the provider's diff of what it read, or nothing read),
// sorted.
func drift(ctx context.Context, stack auto.Stack) ([]string, error) {
	ch := make(chan events.EngineEvent)
	done := make(chan []string)
	go func() {
		set := map[string]bool{}
		for e := range ch {
			// A refresh step's outcome is known once it has read the resource: gone (no new state), or changed.
			if e.ResOutputsEvent == nil {
				continue
			}
			m := e.ResOutputsEvent.Metadata
			if m.Op == "refresh" && (m.New == nil || len(m.Diffs) > 0 || len(m.DetailedDiff) > 0) ||
				m.Op == "update" || m.Op == "delete" {
				set[resource.URN(m.URN).Name()] = true
			}
		}
		done <- slices.Sorted(maps.Keys(set))
	}()
	if _, err := stack.PreviewRefresh(ctx, optrefresh.EventStreams(ch), optrefresh.RunProgram(false)); err != nil {
		return nil, err
	}
	// The Automation API closes ch when the engine's event stream ends, before PreviewRefresh returns.
	return <-done, nil
}

// ofClusters are the names among names of each cluster's resources: those the fleet names after it
// (<cluster>-...), each counted for the cluster of the longest such name (spoke-a-role is spoke-a's, not spoke's).
func ofClusters(names []string, clusters []Cluster) map[string][]string {
	out := map[string][]string{}
	for _, n := range names {
		owner := ""
		for _, c := range clusters {
			if (n == c.Name || strings.HasPrefix(n, c.Name+"-")) && len(c.Name) > len(owner) {
				owner = c.Name
			}
		}
		if owner != "" {
			out[owner] = append(out[owner], n)
		}
	}
	return out
}

// firstLine is err's first line (the CLI's errors carry its whole output).
func firstLine(err error) string {
	s, _, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
	return s
}

// RolloutKey is the stack config key where `fleet rollout` records a rollout (provider/rollout's RecordKey).
const RolloutKey = "gitops-fleet:rollout"

// rolloutOf is the rollout stack's config records; nil when it records none, or its config cannot be read (a
// stack's outputs are what status reads first; its config is an addition).
func rolloutOf(ctx context.Context, stack auto.Stack) *Rollout {
	v, err := stack.GetConfig(ctx, RolloutKey)
	if err != nil || v.Value == "" {
		return nil
	}
	var r Rollout
	if json.Unmarshal([]byte(v.Value), &r) != nil {
		return nil
	}
	return &r
}
