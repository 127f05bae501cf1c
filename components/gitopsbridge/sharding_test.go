package gitopsbridge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShardOf: a cluster's replica depends on its name and the replicas only; 200 clusters spread over 4 replicas
// within 30% of an even share (a hash's spread: 50 ± 6 at one standard deviation, and no bound, which would make a
// cluster's replica depend on the others); going from 4 to 5 replicas moves only clusters onto the new replica
// (rendezvous hashing), about a fifth of them.
func TestShardOf(t *testing.T) {
	names := make([]string, 200)
	for i := range names {
		names[i] = fmt.Sprintf("spoke-%03d", i)
	}
	count := map[int]int{}
	moved := 0
	for _, n := range names {
		four := ShardOf(n, 4)
		if four != ShardOf(n, 4) || four < 0 || four > 3 {
			t.Fatalf("ShardOf(%s, 4) = %d, then %d", n, four, ShardOf(n, 4))
		}
		count[four]++
		if five := ShardOf(n, 5); five != four {
			moved++
			if five != 4 {
				t.Errorf("%s moved from replica %d to %d, not onto the new one", n, four, five)
			}
		}
	}
	for r := range 4 {
		if count[r] < 35 || count[r] > 65 {
			t.Errorf("replica %d manages %d of 200 clusters: %v", r, count[r], count)
		}
	}
	if moved < 20 || moved > 60 {
		t.Errorf("%d of 200 clusters moved from 4 to 5 replicas, want about 40", moved)
	}
	if ShardOf("hub", 1) != 0 || ShardOf("hub", 0) != 0 {
		t.Error("one replica (or none) is replica 0")
	}
}

// TestReplicasFor: enough replicas that none is past either budget, one at least, 100 at most.
func TestReplicasFor(t *testing.T) {
	for _, tc := range []struct {
		s                    *ControllerSharding
		clusters, apps, want int
	}{
		{nil, 3, 6, 1},
		{nil, 50, 500, 1},
		{nil, 51, 10, 2},
		{nil, 10, 501, 2},
		{nil, 200, 2400, 5},
		{&ControllerSharding{ClustersPerReplica: 10}, 31, 0, 4},
		{&ControllerSharding{ApplicationsPerReplica: 100}, 1, 250, 3},
		{nil, 100000, 0, 100},
	} {
		if got := ReplicasFor(tc.s, tc.clusters, tc.apps); got != tc.want {
			t.Errorf("ReplicasFor(%+v, %d, %d) = %d, want %d", tc.s, tc.clusters, tc.apps, got, tc.want)
		}
	}
}

// TestControllerValues: the chart values of a sharded controller: none below two replicas; replicas and the
// algorithm (consistent-hashing by default); with a count, each replica's processors (Argo CD's 20/10, 50/25 at
// 1,000 Applications) and resources from its shares of Applications and clusters.
func TestControllerValues(t *testing.T) {
	if v := ControllerValues(&ControllerSharding{Replicas: 1, Applications: 400}); v != nil {
		t.Errorf("one replica: %v", v)
	}
	got := ControllerValues(&ControllerSharding{Replicas: 2})
	want := map[string]any{"controller": map[string]any{"replicas": 2},
		"configs": map[string]any{"params": map[string]any{"controller.sharding.algorithm": "consistent-hashing"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("no count (-want +got):\n%s", diff)
	}
	got = ControllerValues(&ControllerSharding{Replicas: 2, Algorithm: ShardingRoundRobin, Applications: 2000})
	want = map[string]any{
		"controller": map[string]any{"replicas": 2, "resources": map[string]any{
			"requests": map[string]any{"cpu": "1250m", "memory": "2512Mi"}, "limits": map[string]any{"memory": "5024Mi"}}},
		"configs": map[string]any{"params": map[string]any{"controller.sharding.algorithm": "round-robin",
			"controller.status.processors": "50", "controller.operation.processors": "25"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("1,000 Applications a replica (-want +got):\n%s", diff)
	}
	// Each replica's cache holds every cluster it manages: MemoryPerCluster for each of its 50 clusters.
	for _, tc := range []struct {
		apps          int
		cpu, requests string
	}{{200, "350m", "2312Mi"}, {0, "250m", "2112Mi"}} {
		got = ControllerValues(&ControllerSharding{Replicas: 2, Applications: tc.apps, Clusters: 100})
		resources := got["controller"].(map[string]any)["resources"]
		want := map[string]any{"requests": map[string]any{"cpu": tc.cpu, "memory": tc.requests},
			"limits": map[string]any{"memory": fmt.Sprintf("%dMi", 2*(512+tc.apps)+2*MemoryPerCluster*50)}}
		if diff := cmp.Diff(want, resources); diff != "" {
			t.Errorf("100 clusters, %d Applications, over 2 replicas (-want +got):\n%s", tc.apps, diff)
		}
	}
	values := ChartValues(Hub{ControllerSharding: &ControllerSharding{Replicas: 3}, Values: map[string]any{
		"controller": map[string]any{"replicas": 4}}}, nil)
	if values["controller"].(map[string]any)["replicas"] != 4 {
		t.Errorf("argocd.values does not win over the plan: %v", values["controller"])
	}
}

// TestControllerMemoryMiB: the request ControllerValues gives a replica, which the Argo CD bench at size judges its
// peaks against: 512Mi, 2Mi an Application and MemoryPerCluster a cluster of the replica's shares (rounded up); none
// below two replicas or with no count.
func TestControllerMemoryMiB(t *testing.T) {
	for _, tc := range []struct {
		s    *ControllerSharding
		want int
	}{
		{nil, 0},
		{&ControllerSharding{Replicas: 1, Applications: 400, Clusters: 100}, 0},
		{&ControllerSharding{Replicas: 2}, 0},
		{&ControllerSharding{Replicas: 4, Applications: 399, Clusters: 200}, 512 + 2*100 + MemoryPerCluster*50},
		{&ControllerSharding{Replicas: 3, Clusters: 100}, 512 + MemoryPerCluster*34},
	} {
		got := ControllerMemoryMiB(tc.s)
		if got != tc.want {
			t.Errorf("ControllerMemoryMiB(%+v) = %d, want %d", tc.s, got, tc.want)
		}
		if got == 0 {
			continue
		}
		resources := ControllerValues(tc.s)["controller"].(map[string]any)["resources"].(map[string]any)
		if r := resources["requests"].(map[string]any)["memory"]; r != fmt.Sprintf("%dMi", got) {
			t.Errorf("%+v: the chart's request %v, ControllerMemoryMiB %d", tc.s, r, got)
		}
	}
}

// TestParseClusterSecretShard: a manifest's shard is read back (the guard pins it); one that is not a replica's
// number is refused.
func TestParseClusterSecretShard(t *testing.T) {
	s := ClusterSecret{Name: "spoke", Namespace: "argocd", ClusterName: "spoke", Server: "https://spoke.example.com",
		Config: "{}", Shard: "2", Labels: map[string]string{SecretTypeLabel: "cluster"}}
	got, err := ParseClusterSecret(s.YAML())
	if err != nil || got.Shard != "2" || got.StringData()["shard"] != "2" {
		t.Errorf("ParseClusterSecret: %+v, %v", got, err)
	}
	for _, bad := range []string{"-1", "02", "one"} {
		s.Shard = bad
		if _, err := ParseClusterSecret(s.YAML()); err == nil || !strings.Contains(err.Error(), "not a controller replica") {
			t.Errorf("shard %q: %v", bad, err)
		}
	}
}
