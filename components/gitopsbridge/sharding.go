package gitopsbridge

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

// Sharding algorithms of Argo CD's application controller (argocd-cmd-params-cm's controller.sharding.algorithm;
// Argo CD v3.5 common.ConsistentHashingWithBoundedLoadsAlgorithm and RoundRobinShardingAlgorithm). They place the
// clusters whose secrets name no shard.
const (
	// ShardingConsistentHashing is consistent hashing with bounded loads: an almost even spread that moves the
	// fewest clusters when clusters or replicas come and go (Argo CD's "High Availability" docs). The default.
	ShardingConsistentHashing = "consistent-hashing"
	// ShardingRoundRobin spreads clusters evenly by their rank, but removing the cluster at rank 0 moves every
	// cluster to another replica (the same docs' warning).
	ShardingRoundRobin = "round-robin"
)

// ShardingAlgorithms are the algorithms ControllerSharding takes.
var ShardingAlgorithms = []string{ShardingConsistentHashing, ShardingRoundRobin}

// The budgets of one application controller replica, Fleet's defaults of ControllerSharding's clustersPerReplica
// and applicationsPerReplica: half of where a published 2026 load test of an untuned Argo CD failed (the controller
// out of memory at about 100 clusters), and half of the 1,000 Applications Argo CD's "High Availability" docs tune
// the controller's processors for.
const (
	DefaultClustersPerReplica     = 50
	DefaultApplicationsPerReplica = 500
)

// MaxControllerReplicas is the most application controller replicas ControllerSharding takes.
const MaxControllerReplicas = 100

// ControllerSharding shards the hub's Argo CD application controller: several replicas, each managing the clusters
// whose secrets name its shard (Argo CD's "High Availability" docs). Fleet sets it when its hub is past a replica's
// budget (ReplicasFor); a GitOpsBridge alone may give it. Self-managed hubs only: the managed Argo CD is EKS's to size.
type ControllerSharding struct {
	// Replicas is the number of application controller replicas (the chart's controller.replicas, which it also
	// sets as ARGOCD_CONTROLLER_REPLICAS), 1 to 100. With more than one, each cluster secret this stack writes names
	// its replica (the data key shard, ShardOf). Default: with Fleet, ReplicasFor its clusters and Applications;
	// on a GitOpsBridge alone, 1.
	Replicas int `pulumi:"replicas,optional"`
	// Algorithm places the clusters whose secrets name no shard (one another stack wrote without it):
	// "consistent-hashing" (moves the fewest clusters when clusters or replicas change) or "round-robin" (even, but
	// reshuffles every cluster when the first one goes). Default: "consistent-hashing".
	Algorithm string `pulumi:"algorithm,optional"`
	// Applications is the number of Argo CD Applications the hub runs, which each replica's processors and
	// resources are sized from (ControllerValues). Default: with Fleet, its count; on a GitOpsBridge alone, 0
	// (the chart's).
	Applications int `pulumi:"applications,optional"`
	// Clusters is the number of clusters the hub's Argo CD manages, which each replica's memory is sized from
	// (ControllerValues): a replica holds a cache of every cluster it manages. Default: with Fleet, its count; on a
	// GitOpsBridge alone, 0 (sized from Applications only).
	Clusters int `pulumi:"clusters,optional"`
	// ClustersPerReplica is, for Fleet, the most clusters one replica manages before the controller is sharded.
	// Default: 50.
	ClustersPerReplica int `pulumi:"clustersPerReplica,optional"`
	// ApplicationsPerReplica is, for Fleet, the most Applications one replica reconciles before the controller is
	// sharded. Default: 500.
	ApplicationsPerReplica int `pulumi:"applicationsPerReplica,optional"`
}

// ReplicasFor is the number of controller replicas a hub with clusters and applications needs within the budgets
// of s (nil: the defaults): enough that none manages more than clustersPerReplica clusters nor more than
// applicationsPerReplica Applications, at most MaxControllerReplicas.
func ReplicasFor(s *ControllerSharding, clusters, applications int) int {
	perClusters, perApps := DefaultClustersPerReplica, DefaultApplicationsPerReplica
	if s != nil && s.ClustersPerReplica > 0 {
		perClusters = s.ClustersPerReplica
	}
	if s != nil && s.ApplicationsPerReplica > 0 {
		perApps = s.ApplicationsPerReplica
	}
	return min(MaxControllerReplicas, max(1, ceilDiv(clusters, perClusters), ceilDiv(applications, perApps)))
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// ShardOf is the controller replica (0 to replicas-1) that manages cluster: rendezvous hashing of its name (the
// FNV-1a hash of the name, mixed with each replica's number by SplitMix64's finalizer; the highest wins). It depends
// on the name and replicas only, so a cluster keeps its replica when others come and go, and a new replica takes
// only the clusters it now wins, about 1/replicas of them, from the others.
func ShardOf(cluster string, replicas int) int {
	h := fnv.New64a()
	_, _ = h.Write([]byte(cluster))
	name := h.Sum64()
	best, bestScore := 0, uint64(0)
	for i := range replicas {
		if score := splitMix64(name + uint64(i+1)*0x9e3779b97f4a7c15); i == 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// splitMix64 is SplitMix64's output function (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014): every input bit reaches every output bit.
func splitMix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// MemoryPerCluster is the memory, in MiB, a controller replica's request gets for each cluster it manages. Argo CD
// publishes no figure; `make bench-argocd-at-size` measured Argo CD v3's controller at about 40 MiB a cluster at
// its peak (replicas of 50 clusters with two Applications each, peaking at 1.5 to 2.5 GiB; docs/performance.md), an
// upper bound for small clusters, so the request takes a little less and the limit, twice the request, the peak.
const MemoryPerCluster = 32

// ControllerValues are the argo-cd chart values of a sharded controller (nil below two replicas): its replicas, the
// sharding algorithm (configs.params controller.sharding.algorithm), and, with Applications or Clusters known, per
// replica (its shares, applications/replicas and clusters/replicas rounded up): the status and operation
// processors Argo CD's "High Availability" docs give (20 and 10 by default, 50 and 25 for 1,000 Applications:
// scaled from that, never below the defaults) and resources as a starting point of the fleet's own (Argo CD
// publishes none): requests of 250m CPU plus 1m per Application, and of 512Mi plus 2Mi per Application and
// MemoryPerCluster per cluster; a memory limit twice the request. argocd.values wins over them.
func ControllerValues(s *ControllerSharding) map[string]any {
	if s == nil || s.Replicas < 2 {
		return nil
	}
	params := map[string]any{"controller.sharding.algorithm": cmp.Or(s.Algorithm, ShardingConsistentHashing)}
	controller := map[string]any{"replicas": s.Replicas}
	if s.Applications > 0 || s.Clusters > 0 {
		share := ceilDiv(s.Applications, s.Replicas)
		params["controller.status.processors"] = strconv.Itoa(max(20, ceilDiv(share*50, 1000)))
		params["controller.operation.processors"] = strconv.Itoa(max(10, ceilDiv(share*25, 1000)))
		memory := ControllerMemoryMiB(s)
		controller["resources"] = map[string]any{
			"requests": map[string]any{"cpu": fmt.Sprintf("%dm", 250+share), "memory": fmt.Sprintf("%dMi", memory)},
			"limits":   map[string]any{"memory": fmt.Sprintf("%dMi", 2*memory)},
		}
	}
	return map[string]any{"controller": controller, "configs": map[string]any{"params": params}}
}

// ControllerMemoryMiB is the memory request, in MiB, ControllerValues gives each replica of s: 512, plus 2 per
// Application and MemoryPerCluster per cluster of the replica's share (applications/replicas and clusters/replicas,
// rounded up). The limit is twice that. 0 when ControllerValues sizes no resources: below two replicas, or with
// neither count known.
func ControllerMemoryMiB(s *ControllerSharding) int {
	if s == nil || s.Replicas < 2 || (s.Applications <= 0 && s.Clusters <= 0) {
		return 0
	}
	return 512 + 2*ceilDiv(s.Applications, s.Replicas) + MemoryPerCluster*ceilDiv(s.Clusters, s.Replicas)
}

// checkSharding adds the problems of hub.controllerSharding: replicas 1-100, a known algorithm, counts and budgets
// not negative, and a self-managed hub.
func checkSharding(ps *problems.List, field string, s *ControllerSharding, mode string) {
	if s == nil {
		return
	}
	if mode == ModeManaged {
		ps.Add(field, "applies to mode selfManaged only: the managed Argo CD's controller is EKS's to run; past its "+
			"limit of 1,000 Applications, split the clusters into fleets of their own, each with a hub of its own")
	}
	if s.Replicas < 0 || s.Replicas > MaxControllerReplicas {
		ps.Add(field+".replicas", "%d: want 1 to %d application controller replicas", s.Replicas, MaxControllerReplicas)
	}
	if s.Algorithm != "" && !slices.Contains(ShardingAlgorithms, s.Algorithm) {
		ps.Add(field+".algorithm", "%q: want one of %v (Argo CD's controller.sharding.algorithm)", s.Algorithm, ShardingAlgorithms)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"applications", s.Applications}, {"clusters", s.Clusters}, {"clustersPerReplica", s.ClustersPerReplica},
		{"applicationsPerReplica", s.ApplicationsPerReplica}} {
		if f.v < 0 {
			ps.Add(field+"."+f.name, "%d: want 0 or more", f.v)
		}
	}
}

// checkShard adds the problems of shard: 0 or more, and in hub mode below hub.controllerSharding.replicas (a shard
// Argo CD has no replica for is placed by the algorithm instead, and the secret would say otherwise).
func checkShard(ps *problems.List, a GitOpsBridgeArgs) {
	if a.Shard == nil {
		return
	}
	switch {
	case *a.Shard < 0:
		ps.Add("shard", "%d: want a controller replica, 0 or more", *a.Shard)
	case a.Hub != nil && a.Hub.ControllerSharding != nil && *a.Shard >= max(1, a.Hub.ControllerSharding.Replicas):
		ps.Add("shard", "%d: the hub's controller runs %d replicas (hub.controllerSharding.replicas), numbered from 0",
			*a.Shard, max(1, a.Hub.ControllerSharding.Replicas))
	}
}
