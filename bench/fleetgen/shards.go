package fleetgen

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// HubStack is the stack of a sharded fleet's hub, which its shards' stack references name
// ("organization/<project>/<stack>" on the file backend).
const HubStack = "hub"

// MaxShards is the most shards Sharded generates: pools are the /12s after the hub's 10.0.0.0/12.
const MaxShards = 15

// ShardStack is the stack of shard i (from 1).
func ShardStack(i int) string { return fmt.Sprintf("shard-%d", i) }

// Sharded returns a fleet beyond one stack: the hub stack's config (the hub alone, in 10.1.0.0/16 of its
// cidrPool 10.0.0.0/12, listing the shards) and the configs of k shard stacks of size spokes each (1 to 15). Shard
// i (from 1) is named s<i>, with pool 10.<16i>.0.0/12; its spoke j is "spoke-<i>-<jj>" in 10.<16i+j>.0.0/16,
// regions round-robin over Regions, with the add-ons Fleet gives a spoke. The hub also lists each shard's future
// spoke "spoke-<i>-new" (ShardWithAddedSpoke), so that adding it is the shard's change alone. Every config passes
// Fleet's validation, each shard against the hub's facts.
func Sharded(k, size int) (fleetstack.Config, []fleetstack.Config, error) {
	if k < 1 || k > MaxShards || size < 1 || size > 15 {
		return fleetstack.Config{}, nil, fmt.Errorf("%d shards of %d spokes: want 1 to %d shards of 1 to 15", k, size, MaxShards)
	}
	hub, err := Fleet(1)
	if err != nil {
		return fleetstack.Config{}, nil, err
	}
	hub.CidrPool = "10.0.0.0/12"
	var shards []fleetstack.Config
	for i := 1; i <= k; i++ {
		shard := fleetstack.Config{Repositories: hub.Repositories, Hub: &fleet.HubRef{
			Stack: ptr("organization/gitops-fleet/" + HubStack), Shard: ptr(fmt.Sprintf("s%d", i)),
		}}
		entry := fleet.Shard{Name: fmt.Sprintf("s%d", i), CidrPool: fmt.Sprintf("10.%d.0.0/12", 16*i)}
		for j := range size {
			shard = withSpoke(shard, fmt.Sprintf("spoke-%d-%02d", i, j), fmt.Sprintf("10.%d.0.0/16", 16*i+j))
			c := &shard.Clusters[j]
			c.Region = Regions[j%len(Regions)]
			entry.Clusters = append(entry.Clusters, c.Name)
		}
		entry.Clusters = append(entry.Clusters, fmt.Sprintf("spoke-%d-new", i))
		hub.Shards = append(hub.Shards, entry)
		shards = append(shards, shard)
	}
	return hub, shards, nil
}

// ShardWithAddedSpoke is shard i's config (from 1) with its spoke "spoke-<i>-new", which the hub lists, in the last
// /16 of its pool.
func ShardWithAddedSpoke(i int) func(fleetstack.Config) fleetstack.Config {
	return func(cfg fleetstack.Config) fleetstack.Config {
		return withSpoke(cfg, fmt.Sprintf("spoke-%d-new", i), fmt.Sprintf("10.%d.0.0/16", 16*i+15))
	}
}
