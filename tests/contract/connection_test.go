package contract

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/argoproj/argo-cd/gitops-engine/pkg/cache"
	"github.com/argoproj/argo-cd/v3/controller/metrics"
	"github.com/argoproj/argo-cd/v3/controller/sharding"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// clustersInfo is a replica's cluster cache as the metrics read it (the controller's liveStateCache): the clusters
// of its shard.
type clustersInfo []cache.ClusterInfo

func (c clustersInfo) GetClustersInfo() []cache.ClusterInfo { return c }

// TestConnectionStatesFromArgoCDMetrics: Argo CD v3.5.7's own cluster collector (controller/metrics'
// NewClusterCollector, which each application controller replica registers) writes the metrics of a sharded fleet's
// clusters, read from the fleet's cluster secrets by Argo CD's SecretToCluster, each replica those of its shard
// (controller/sharding), one spoke's cache failing to sync. fleet status reads every replica's /metrics over HTTP
// (status.URLMetrics, as from a port-forward; PodMetrics reads the same through the hub API's pod proxy) and gives
// each cluster, by its secret's name, Argo CD's state: that spoke Failed, every other Successful.
func TestConnectionStatesFromArgoCDMetrics(t *testing.T) {
	const replicas = 2
	var clusters v1alpha1.ClusterList
	var fleet []status.Cluster
	for i, s := range shardedSecrets(7, replicas) {
		clusters.Items = append(clusters.Items, *argoCluster(t, i, s))
		fleet = append(fleet, status.Cluster{Name: s.Name, SecretName: s.Name})
	}
	const lost = "spoke-003"
	var urls []string
	served := 0
	for r := range replicas {
		shard := sharding.NewClusterSharding(nil, r, replicas, gitopsbridge.ShardingConsistentHashing)
		shard.Init(&clusters, &v1alpha1.ApplicationList{})
		var info clustersInfo
		for i := range clusters.Items {
			c := &clusters.Items[i]
			if !shard.IsManagedCluster(c) {
				continue
			}
			ci := cache.ClusterInfo{Server: c.Server, K8SVersion: "1.33"}
			if c.Name == lost {
				ci.SyncError = errors.New("failed to sync cluster " + c.Server + ": dial tcp: i/o timeout")
			}
			info = append(info, ci)
		}
		served += len(info)
		list := func(context.Context) (*v1alpha1.ClusterList, error) { return &clusters, nil }
		registry := prometheus.NewRegistry()
		registry.MustRegister(metrics.NewClusterCollector(t.Context(), info, list, nil))
		srv := httptest.NewServer(promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL+"/metrics")
	}
	if served != len(clusters.Items) {
		t.Fatalf("the replicas' caches hold %d of %d clusters", served, len(clusters.Items))
	}
	expositions, err := status.URLMetrics(urls)(t.Context(), nil, argocdNamespace)
	if err != nil || len(expositions) != replicas {
		t.Fatalf("%d expositions, %v", len(expositions), err)
	}
	connections, err := status.Connections(expositions)
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]string{}, map[string]string{}
	for _, c := range status.WithConnections(fleet, connections) {
		want[c.Name] = status.ConnectionSuccessful
		if c.Name == lost {
			want[c.Name] = status.ConnectionFailed
		}
		got[c.Name] = c.Connection
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("connection states (-want +got):\n%s", d)
	}
}
