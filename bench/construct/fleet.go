package construct

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// addonSettings converts the stack config's add-on settings (the Go SDK's type) to the component's: the two
// have the same fields, so a JSON round trip (field names match case-insensitively) does it.
func addonSettings(s *fleet.AddonSettings) (*fleetcluster.AddonSettings, error) {
	if s == nil {
		return nil, nil
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var out fleetcluster.AddonSettings
	return &out, json.Unmarshal(data, &out)
}

// Program builds cfg with the Go components directly, as examples/fleet builds it through the SDK: the hub's
// FleetCluster and GitOpsBridge first, then each spoke's with the hub's management role and kubeconfig.
func Program(cfg fleetstack.Config) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		var hub *fleetcluster.FleetCluster
		var bridge *gitopsbridge.GitOpsBridge
		for _, role := range []string{fleetstack.Hub, fleetstack.Spoke} {
			for _, cl := range cfg.Clusters {
				if cl.Role != role {
					continue
				}
				args := fleetcluster.FleetClusterArgs{
					ClusterName: cl.Name, Region: cl.Region, Environment: value(cl.Environment), VpcCidr: value(cl.VpcCidr),
					Version: value(cl.Version), Addons: cl.Addons,
				}
				settings, err := addonSettings(cl.AddonSettings)
				if err != nil {
					return fmt.Errorf("%s: addonSettings: %w", cl.Name, err)
				}
				args.AddonSettings = settings
				for _, ng := range cl.NodeGroups {
					args.NodeGroups = append(args.NodeGroups, fleetcluster.NodeGroup{Name: ng.Name,
						InstanceTypes: ng.InstanceTypes, MinSize: ng.MinSize, MaxSize: ng.MaxSize, DesiredSize: ng.DesiredSize})
				}
				b := gitopsbridge.GitOpsBridgeArgs{AddonsRepo: repo(&cfg.Repositories.Addons), WorkloadsRepo: repo(cfg.Repositories.Workloads)}
				if role == fleetstack.Hub {
					b.Hub = &gitopsbridge.Hub{}
				} else {
					if hub == nil {
						return fmt.Errorf("spoke %s: the fleet has no hub", cl.Name)
					}
					args.GitOpsAccess = &fleetcluster.GitOpsAccess{HubRoleArn: bridge.ManagementRoleArn}
					b.Spoke = &gitopsbridge.Spoke{HubKubeconfig: hub.Kubeconfig}
				}
				c, err := fleetcluster.NewFleetCluster(ctx, cl.Name, args)
				if err != nil {
					return err
				}
				b.Cluster = c.ClusterInfo
				gb, err := gitopsbridge.NewGitOpsBridge(ctx, cl.Name, b)
				if err != nil {
					return err
				}
				if role == fleetstack.Hub {
					hub, bridge = c, gb
				}
			}
		}
		return nil
	}
}

func repo(r *fleet.Repo) *gitopsbridge.Repo {
	if r == nil {
		return nil
	}
	return &gitopsbridge.Repo{URL: r.Url, Revision: value(r.Revision), BasePath: value(r.BasePath), Path: r.Path}
}

// value is *p, or "" for nil (an optional field of the SDK's types).
func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Result is the cost of building a fleet of Clusters clusters, per cluster.
type Result struct {
	Clusters int
	// NsPerCluster is wall time per cluster, in nanoseconds.
	NsPerCluster float64
	// AllocsPerCluster and BytesPerCluster are heap allocations per cluster.
	AllocsPerCluster, BytesPerCluster float64
	// Resources is how many resources one build registers.
	Resources int
}

// Measure benchmarks building a generated fleet of n clusters under mocks (testing.Benchmark decides how many
// builds to time, at least one second's worth).
func Measure(n int) (Result, error) {
	cfg, err := fleetgen.Fleet(n)
	if err != nil {
		return Result{}, err
	}
	for i := range cfg.Clusters {
		env := mocks.Stack
		cfg.Clusters[i].Environment = &env
	}
	var resources int
	var runErr error
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cloud := mocks.New()
			if err := cloud.Run(Program(cfg)); err != nil {
				runErr = err
				b.FailNow()
			}
			resources = len(cloud.Resources())
		}
	})
	if runErr != nil {
		return Result{}, runErr
	}
	per := func(v int64) float64 { return float64(v) / float64(r.N) / float64(n) }
	return Result{
		Clusters: n, NsPerCluster: per(r.T.Nanoseconds()), AllocsPerCluster: per(int64(r.MemAllocs)),
		BytesPerCluster: per(int64(r.MemBytes)), Resources: resources,
	}, nil
}
