package status

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
)

// statusAddons are the add-ons every cluster of the sized fleet enables, with the Applications the GitOps Bridge
// ApplicationSets name for them (addon-<cluster>-<chart>).
var statusAddons = []string{"aws_load_balancer_controller", "metrics_server", "external_secrets"}

// BenchmarkCollectAtSize: fleet status over a whole fleet of 200 clusters, as `fleet status` reads it: a hub stack
// and four shard stacks of 50 spokes (fleet.md: past about 45 clusters a fleet is sharded), their outputs read
// through the real CLI from a file backend, every cluster's three add-on Applications listed from the hub (one
// List), every cluster's Argo CD connection read from the controllers' metrics, and EKS at 50 ms a call (an AWS API round trip), 16 at a time. The goal is 60 s for
// 200 clusters (issue 58). The hub is an HTTP server that answers the Applications' List and two application
// controller replicas' metrics (every cluster connected, as Argo CD's cluster collector writes it), read as
// -argocd-metrics reads them. make bench-status writes the figure to bench/results/status.txt. It needs the Pulumi CLI
// (PULUMI_FLEET_CLI, as the e2e tests do), and skips without it.
func BenchmarkCollectAtSize(b *testing.B) {
	cli := os.Getenv("PULUMI_FLEET_CLI")
	if cli == "" {
		b.Skip("PULUMI_FLEET_CLI (the Pulumi CLI) is not set")
	}
	b.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
	b.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
	ctx := context.Background()
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: filepath.Dir(filepath.Dir(cli)), SkipVersionCheck: true})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "state"), 0o755); err != nil {
		b.Fatal(err)
	}
	project := workspace.Project{Name: "fleet", Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Backend: &workspace.ProjectBackend{URL: "file://" + filepath.Join(dir, "state")}}
	stacks := map[string][]string{"hub": {"hub"}}
	var items []any
	var metrics [2]strings.Builder
	connected := func(name string, replica int) {
		server := "https://" + name + ".gr7.us-east-1.eks.amazonaws.com"
		fmt.Fprintf(&metrics[replica], "argocd_cluster_info{k8s_version=\"1.33\",name=%q,server=%q} 1\n"+
			"argocd_cluster_connection_status{k8s_version=\"1.33\",server=%q} 1\n", name, server, server)
	}
	connected("hub", 0)
	for s := range 4 {
		shard := fmt.Sprintf("shard-%d", s)
		for i := range 50 {
			name := fmt.Sprintf("spoke-%03d", s*50+i)
			stacks[shard] = append(stacks[shard], name)
			for _, a := range statusAddons {
				items = append(items, application(name, a).Object)
			}
			connected(name, (s*50+i)%2)
		}
	}
	for stack, clusters := range stacks {
		st, err := auto.UpsertStackInlineSource(ctx, stack, "fleet", outputsOf(stack, clusters), auto.WorkDir(dir),
			auto.Pulumi(cmd), auto.Project(project))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Up(ctx); err != nil {
			b.Fatal(err)
		}
	}
	list, err := json.Marshal(map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "ApplicationList",
		"metadata": map[string]any{}, "items": items})
	if err != nil {
		b.Fatal(err)
	}
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/apis/argoproj.io/v1alpha1/applications":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(list)
		case "/metrics/0", "/metrics/1":
			_, _ = w.Write([]byte(metrics[r.URL.Path[len(r.URL.Path)-1]-'0'].String()))
		default:
			http.NotFound(w, r)
		}
	}))
	defer hub.Close()
	eks := &slowEKS{latency: 50 * time.Millisecond}
	src := Sources{Dir: dir, Pulumi: cmd, HubStack: "hub",
		Hub:           func(context.Context, Cluster) (*rest.Config, error) { return &rest.Config{Host: hub.URL}, nil },
		ArgoCDMetrics: URLMetrics([]string{hub.URL + "/metrics/0", hub.URL + "/metrics/1"}),
		EKS:           func(string) (EKSAPI, error) { return eks, nil }}
	var r Report
	for b.Loop() {
		r = Collect(ctx, src)
	}
	synced := 0
	for _, c := range r.Clusters {
		if c.Connection != ConnectionSuccessful {
			b.Fatalf("%s: Argo CD connection %q", c.Name, c.Connection)
		}
		for _, a := range c.Addons {
			if a.Sync == "Synced" && c.EKS != nil {
				synced++
			}
		}
	}
	if len(r.Clusters) != 201 || len(r.Unreachable) != 0 || synced != 200*len(statusAddons) {
		b.Fatalf("%d clusters, %d add-ons Synced with EKS read, unreachable %q", len(r.Clusters), synced, r.Unreachable)
	}
	b.ReportMetric(float64(len(r.Clusters)), "clusters")
}

// outputsOf is the inline program of a sized fleet's stack: the clusters output of a Fleet with clusters (the hub
// stack's first cluster its hub), each enabling statusAddons, and no resource.
func outputsOf(stack string, clusters []string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		out := map[string]any{}
		for i, name := range clusters {
			role := "spoke"
			if stack == "hub" && i == 0 {
				role = "hub"
			}
			labels := map[string]any{}
			for _, a := range statusAddons {
				labels["enable_"+a] = "true"
			}
			out[name] = map[string]any{"region": "us-east-1", "role": role, "environment": "prod",
				"kubernetesVersion": "1.33", "secretName": name, "labels": labels}
		}
		ctx.Export("clusters", pulumi.ToMap(out))
		return nil
	}
}

// application is the add-on's Application on cluster, Synced and Healthy.
func application(cluster, addon string) *unstructured.Unstructured {
	chart := map[string]string{"aws_load_balancer_controller": "aws-load-balancer-controller",
		"metrics_server": "metrics-server", "external_secrets": "external-secrets"}[addon]
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "addon-" + cluster + "-" + chart, "namespace": "argocd"},
		"spec":     map[string]any{"destination": map[string]any{"name": cluster}},
		"status": map[string]any{"sync": map[string]any{"status": "Synced"},
			"health": map[string]any{"status": "Healthy"}}}}
}
