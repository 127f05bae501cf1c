package status

import (
	"testing"
)

// TestCapacity: the hubCapacity output read (a shard's, planning nothing, is none) and said: running or unread,
// a managed hub's limit, and past it.
func TestCapacity(t *testing.T) {
	if c := capacityOf(map[string]any{"applications": 0.0, "clusters": 3.0}); c != nil {
		t.Errorf("a shard's output: %+v", c)
	}
	if c := capacityOf(nil); c != nil {
		t.Errorf("no output: %+v", c)
	}
	for _, tc := range []struct {
		output  map[string]any
		running int
		want    string
	}{
		{map[string]any{"applications": 6.0, "clusters": 3.0, "controllerReplicas": 1.0}, -1,
			"unread Applications on the hub's Argo CD (6 planned), 3 clusters; application controller: 1 replica"},
		{map[string]any{"applications": 246.0, "clusters": 63.0, "controllerReplicas": 2.0, "shardingAlgorithm": "consistent-hashing"}, 250,
			"250 Applications on the hub's Argo CD (246 planned), 63 clusters; application controller: 2 replicas, consistent-hashing"},
		{map[string]any{"applications": 900.0, "clusters": 150.0, "limit": 1000.0}, 900,
			"900 Applications on the hub's Argo CD (900 planned, limit 1000), 150 clusters; managed"},
		{map[string]any{"applications": 990.0, "clusters": 150.0, "limit": 1000.0}, 1012,
			"1012 Applications on the hub's Argo CD (990 planned, limit 1000), 150 clusters; PAST THE MANAGED ARGO CD'S LIMIT"},
	} {
		c := capacityOf(tc.output)
		if c == nil {
			t.Fatalf("capacityOf(%v) = nil", tc.output)
		}
		c.Running = tc.running
		if got := c.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
