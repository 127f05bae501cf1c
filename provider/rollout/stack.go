package rollout

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

// Cluster is one cluster of the fleet's stack as the rollout sees it.
type Cluster struct {
	// Name is the cluster's name; Index its entry's position in gitops-fleet:clusters.
	Name  string
	Index int
	// Region is its AWS region, as the stack's clusters output says.
	Region string
	// Wave is its wave as the stack's clusters output says (Fleet's, defaults applied).
	Wave int
	// Revision is the add-ons repository revision it runs: its addonsRepoRevision, else the fleet's.
	Revision string
	// Version is the Kubernetes minor version its entry asks for ("1.33"): its version, else defaults.version, else
	// the version the clusters output says it runs.
	Version string
	// Addons is how many add-ons the add-ons repository installs on it (the clusters output's addons, but those
	// its stack installs, throughStack): one without any has nothing to gate.
	Addons int
}

// Stack is the fleet's stack: its clusters, its record, and `up`.
type Stack interface {
	// Clusters are the stack's clusters, by their config entries' order, and the rollout's record (nil: none).
	Clusters(ctx context.Context) ([]Cluster, *Record, error)
	// Pin writes values (by entry index) into the clusters' field (AddonsRepoRevision or KubernetesVersion), and the
	// record, into the stack config.
	Pin(ctx context.Context, field string, values map[int]string, record Record) error
	// Up runs `pulumi up` of the stack as its config is now.
	Up(ctx context.Context) error
	// Publish runs an `up` of the stack's own resource alone, so that its outputs (the fleet program's rollout
	// output, the record) say what the stack config holds now, changing no other resource.
	Publish(ctx context.Context) error
}

// AutoStack is a Stack through the Automation API: a project's stack (auto.UpsertStackLocalSource, `fleet
// rollout`) or an inline program's. Its stack file is the one the CLI writes (`pulumi config set --path`). Up's
// output goes to Progress.
type AutoStack struct {
	Stack    auto.Stack
	Progress io.Writer
}

// configNamespace is the fleet program's config namespace (examples/fleet's project).
const configNamespace = "gitops-fleet"

// Clusters reads gitops-fleet:clusters, the fleet's revision (repositories.addons.revision) and Kubernetes version
// (defaults.version), the clusters output's regions, waves and versions, and the record.
func (s AutoStack) Clusters(ctx context.Context) ([]Cluster, *Record, error) {
	cfg, err := s.Stack.GetAllConfig(ctx)
	if err != nil {
		return nil, nil, err
	}
	var entries []struct {
		Name               string `json:"name"`
		AddonsRepoRevision string `json:"addonsRepoRevision"`
		Version            string `json:"version"`
	}
	if err := json.Unmarshal([]byte(cfg[configNamespace+":clusters"].Value), &entries); err != nil {
		return nil, nil, fmt.Errorf("%s:clusters: %w", configNamespace, err)
	}
	var repos struct {
		Addons struct {
			Revision string `json:"revision"`
		} `json:"addons"`
	}
	if v := cfg[configNamespace+":repositories"].Value; v != "" {
		if err := json.Unmarshal([]byte(v), &repos); err != nil {
			return nil, nil, fmt.Errorf("%s:repositories: %w", configNamespace, err)
		}
	}
	var defaults struct {
		Version string `json:"version"`
	}
	if v := cfg[configNamespace+":defaults"].Value; v != "" {
		if err := json.Unmarshal([]byte(v), &defaults); err != nil {
			return nil, nil, fmt.Errorf("%s:defaults: %w", configNamespace, err)
		}
	}
	record, err := parseRecord(cfg[RecordKey].Value)
	if err != nil {
		return nil, nil, err
	}
	outputs, err := s.Stack.Outputs(ctx)
	if err != nil {
		return nil, nil, err
	}
	summaries, _ := outputs["clusters"].Value.(map[string]any)
	var out []Cluster
	for i, e := range entries {
		summary, _ := summaries[e.Name].(map[string]any)
		wave, ok := summary["wave"].(float64)
		if !ok {
			return nil, nil, fmt.Errorf("cluster %s has no wave in the stack's clusters output: run `pulumi up` once "+
				"with this version of the fleet provider first", e.Name)
		}
		region, _ := summary["region"].(string)
		running, _ := summary["kubernetesVersion"].(string)
		c := Cluster{Name: e.Name, Index: i, Region: region, Wave: int(wave), Addons: fromRepository(summary),
			Revision: cmp.Or(e.AddonsRepoRevision, repos.Addons.Revision), Version: cmp.Or(e.Version, defaults.Version, running)}
		out = append(out, c)
	}
	return out, record, nil
}

// Pin sets clusters[i].<field> of each value and the record.
func (s AutoStack) Pin(ctx context.Context, field string, values map[int]string, record Record) error {
	path := &auto.ConfigOptions{Path: true}
	for i, v := range values {
		key := configNamespace + ":clusters[" + strconv.Itoa(i) + "]." + field
		if err := s.Stack.SetConfigWithOptions(ctx, key, auto.ConfigValue{Value: v}, path); err != nil {
			return err
		}
	}
	return s.Stack.SetConfig(ctx, RecordKey, auto.ConfigValue{Value: record.value()})
}

// Publish runs `pulumi up --target` of the stack's resource (urn:pulumi:<stack>::<project>::pulumi:pulumi:Stack::
// <project>-<stack>): the program runs as always, but every other resource's registration is taken as unchanged
// without a diff (Pulumi's targeted update), and the stack's outputs are written again.
func (s AutoStack) Publish(ctx context.Context) error {
	project, err := s.Stack.Workspace().ProjectSettings(ctx)
	if err != nil {
		return err
	}
	name := s.Stack.Name()
	name = name[strings.LastIndex(name, "/")+1:]
	urn := fmt.Sprintf("urn:pulumi:%s::%s::pulumi:pulumi:Stack::%s-%s", name, project.Name, project.Name, name)
	opts := []optup.Option{optup.Target([]string{urn})}
	if s.Progress != nil {
		opts = append(opts, optup.ProgressStreams(s.Progress))
	}
	_, err = s.Stack.Up(ctx, opts...)
	return err
}

// Up runs `pulumi up`.
func (s AutoStack) Up(ctx context.Context) error {
	var opts []optup.Option
	if s.Progress != nil {
		opts = append(opts, optup.ProgressStreams(s.Progress))
	}
	_, err := s.Stack.Up(ctx, opts...)
	return err
}

// fromRepository is how many of the add-ons in a clusters output entry the add-ons repository installs: those
// enabled but the hub's own that its stack installs (throughStack), which have no Application to gate.
func fromRepository(summary map[string]any) int {
	enabled, _ := summary["addons"].(map[string]any)
	n := 0
	for _, a := range enabled {
		if s, _ := a.(map[string]any); s["throughStack"] != true {
			n++
		}
	}
	return n
}
