package fleetgen

import (
	"fmt"
	"maps"
	"slices"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// Regions are the regions the clusters of a generated fleet take in turn: cluster i is in Regions[i%3].
var Regions = []string{"us-east-1", "us-east-2", "us-west-2"}

// MaxClusters is the largest fleet Fleet generates: VPC CIDRs are 10.<i>.0.0/16 for i in 1..MaxClusters.
const MaxClusters = 250

// Repository is the GitOps Bridge control-plane template the generated fleets bootstrap from (as
// examples/fleet/Pulumi.dev.yaml does).
const Repository = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"

// Fleet returns the config of a fleet of n clusters (1 to MaxClusters): "hub" in us-east-1 with its system
// node group, and spokes "spoke-001" ... in regions round-robin over Regions, each with the default node group.
// Cluster i (from 0) has VPC CIDR 10.<i+1>.0.0/16. Every cluster enables the AWS Load Balancer Controller and
// metrics-server add-ons, and every third spoke also external-dns, as the dev stack does. The result passes
// Fleet's validation (fleet.Check).
func Fleet(n int) (fleetstack.Config, error) {
	if n < 1 || n > MaxClusters {
		return fleetstack.Config{}, fmt.Errorf("fleet size %d: want 1 to %d clusters", n, MaxClusters)
	}
	cfg := fleetstack.Config{Repositories: fleet.Repositories{
		Addons:    fleet.Repo{Url: Repository, Revision: ptr("main"), Path: "bootstrap/control-plane/addons"},
		Workloads: &fleet.Repo{Url: Repository, Revision: ptr("main"), Path: "bootstrap/workloads"},
	}}
	for i := range n {
		c := fleet.ClusterSpec{
			Name:    fmt.Sprintf("spoke-%03d", i),
			Region:  Regions[i%len(Regions)],
			Role:    fleetstack.Spoke,
			VpcCidr: ptr(fmt.Sprintf("10.%d.0.0/16", i+1)),
			Addons:  map[string]bool{"aws_load_balancer_controller": true, "metrics_server": true},
		}
		if i == 0 {
			c.Name, c.Role = "hub", fleetstack.Hub
			c.NodeGroups = []fleet.NodeGroup{{
				Name: "system", InstanceTypes: []string{"m6i.large"}, MinSize: 2, MaxSize: 4, DesiredSize: 2,
			}}
		} else if i%3 == 1 {
			c.Addons["external_dns"] = true
			c.AddonSettings = &fleet.AddonSettings{ExternalDns: &fleet.ExternalDNSSettings{
				HostedZoneIds: []string{"Z0BENCH0000000000000"}, DomainFilters: []string{c.Name + ".example.com"},
			}}
		}
		cfg.Clusters = append(cfg.Clusters, c)
	}
	return cfg, nil
}

// StackFile renders cfg as the content of a Pulumi.<stack>.yaml of the gitops-fleet project, with the default
// AWS region set to the hub's.
func StackFile(cfg fleetstack.Config) ([]byte, error) {
	values, err := cfg.Values()
	if err != nil {
		return nil, err
	}
	values["aws:region"] = Regions[0]
	return yaml.Marshal(map[string]any{"config": values})
}

func ptr[T any](v T) *T { return &v }

// ToggledAddon is the add-on the change loop enables on one spoke.
const ToggledAddon = "external_secrets"

// WithToggledAddon is cfg with ToggledAddon enabled on its first spoke (the hub when there is none).
func WithToggledAddon(cfg fleetstack.Config) fleetstack.Config {
	out := cfg
	out.Clusters = slices.Clone(cfg.Clusters)
	i := min(1, len(out.Clusters)-1)
	c := out.Clusters[i]
	c.Addons = maps.Clone(c.Addons)
	c.Addons[ToggledAddon] = true
	out.Clusters[i] = c
	return out
}

// WithAddedSpoke is cfg with one more spoke, "spoke-new", in the first region, in the next free /16.
func WithAddedSpoke(cfg fleetstack.Config) fleetstack.Config {
	return withSpoke(cfg, "spoke-new", fmt.Sprintf("10.%d.0.0/16", len(cfg.Clusters)+1))
}

// withSpoke is cfg with one more spoke of the generated kind, name, in the first region, with VPC cidr.
func withSpoke(cfg fleetstack.Config, name, cidr string) fleetstack.Config {
	out := cfg
	out.Clusters = append(slices.Clone(cfg.Clusters), fleet.ClusterSpec{
		Name: name, Region: Regions[0], Role: fleetstack.Spoke, VpcCidr: ptr(cidr),
		Addons: map[string]bool{"aws_load_balancer_controller": true, "metrics_server": true},
	})
	return out
}
