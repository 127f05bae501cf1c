package fleetgen

import (
	"net/netip"
	"slices"
	"testing"
)

// TestShardedFleetIsValid: the hub stack's config and each shard's pass Fleet's validation; each shard's spokes,
// and the spoke its change adds, are listed by the hub and lie in the shard's pool.
func TestShardedFleetIsValid(t *testing.T) {
	hub, shards, err := Sharded(3, 15)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(hub); err != nil {
		t.Fatalf("the hub stack: %v", err)
	}
	if len(hub.Clusters) != 1 || len(hub.Shards) != 3 || len(shards) != 3 {
		t.Fatalf("%d hub clusters, %d shards listed, %d shard stacks", len(hub.Clusters), len(hub.Shards), len(shards))
	}
	for i, shard := range shards {
		added := ShardWithAddedSpoke(i + 1)(shard)
		if len(shard.Clusters) != 15 || len(added.Clusters) != 16 {
			t.Errorf("shard %d: %d spokes, %d with the added one", i+1, len(shard.Clusters), len(added.Clusters))
		}
		if err := check(added); err != nil {
			t.Errorf("shard %d: %v", i+1, err)
		}
		pool := netip.MustParsePrefix(hub.Shards[i].CidrPool)
		for _, c := range added.Clusters {
			if !slices.Contains(hub.Shards[i].Clusters, c.Name) {
				t.Errorf("shard %d's %s is not listed by the hub", i+1, c.Name)
			}
			if p := netip.MustParsePrefix(*c.VpcCidr); !pool.Contains(p.Addr()) || c.Role != "spoke" {
				t.Errorf("shard %d's %s: %s %s outside %s", i+1, c.Name, c.Role, p, pool)
			}
		}
	}
	if _, _, err := Sharded(16, 15); err == nil {
		t.Error("16 shards: want the range refused")
	}
}
