package status

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"
)

// shard0 and shard1 are two application controller replicas' metrics, in the form Argo CD's cluster collector
// writes them (controller/metrics/clustercollector.go, v3): each names the clusters of its shard only.
const (
	shard0 = `# HELP argocd_cluster_info Information about cluster.
# TYPE argocd_cluster_info gauge
argocd_cluster_info{k8s_version="1.33",name="hub",server="https://kubernetes.default.svc"} 1
argocd_cluster_info{k8s_version="1.33",name="spoke-use2",server="https://a1.gr7.us-east-2.eks.amazonaws.com"} 1
# HELP argocd_cluster_connection_status The k8s cluster current connection status.
# TYPE argocd_cluster_connection_status gauge
argocd_cluster_connection_status{k8s_version="1.33",server="https://kubernetes.default.svc"} 1
argocd_cluster_connection_status{k8s_version="1.33",server="https://a1.gr7.us-east-2.eks.amazonaws.com"} 0
# HELP argocd_app_info Information about application.
# TYPE argocd_app_info gauge
argocd_app_info{name="addon-hub-metrics-server",namespace="argocd-addons"} 1
`
	shard1 = `# TYPE argocd_cluster_info gauge
argocd_cluster_info{k8s_version="1.32",name="spoke-usw2",server="https://b2.gr7.us-west-2.eks.amazonaws.com"} 1
# TYPE argocd_cluster_connection_status gauge
argocd_cluster_connection_status{k8s_version="1.32",server="https://b2.gr7.us-west-2.eks.amazonaws.com"} 1
argocd_cluster_connection_status{k8s_version="1.32",server="https://nameless.example"} 0
`
)

// TestConnections: every replica's clusters, each by its name in Argo CD (joined by server), 1 Successful and 0
// Failed; a server no argocd_cluster_info names is left out; an exposition that is not Prometheus's text is an error.
func TestConnections(t *testing.T) {
	for _, tc := range []struct {
		name        string
		expositions []string
		want        map[string]string
		err         string
	}{
		{"two shards", []string{shard0, shard1}, map[string]string{"hub": ConnectionSuccessful,
			"spoke-use2": ConnectionFailed, "spoke-usw2": ConnectionSuccessful}, ""},
		{"one shard's", []string{shard1}, map[string]string{"spoke-usw2": ConnectionSuccessful}, ""},
		{"without TYPE lines (untyped samples)", []string{strings.ReplaceAll(strings.ReplaceAll(shard1,
			"# TYPE argocd_cluster_info gauge\n", ""), "# TYPE argocd_cluster_connection_status gauge\n", "")},
			map[string]string{"spoke-usw2": ConnectionSuccessful}, ""},
		{"a controller that watches no cluster yet", []string{"# TYPE argocd_app_info gauge\n"}, map[string]string{}, ""},
		{"not metrics", []string{shard0, "<html>502 Bad Gateway</html>"}, nil, "controller 1's metrics"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in [][]byte
			for _, e := range tc.expositions {
				in = append(in, []byte(e))
			}
			got, err := Connections(in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if d := cmp.Diff(tc.want, got); err != nil || d != "" {
				t.Errorf("%v (-want +got):\n%s", err, d)
			}
		})
	}
}

// TestWithConnections: a cluster takes its state by its cluster secret's name; one the controllers do not name is
// Unknown, never Successful.
func TestWithConnections(t *testing.T) {
	clusters := []Cluster{{Name: "hub", SecretName: "hub"}, {Name: "spoke-a", SecretName: "fleet-spoke-a"}, {Name: "spoke-b"}}
	got := WithConnections(clusters, map[string]string{"hub": ConnectionSuccessful, "fleet-spoke-a": ConnectionFailed,
		"spoke-b": ConnectionSuccessful})
	var states []string
	for _, c := range got {
		states = append(states, c.Connection+" "+c.ConnectionState())
	}
	if d := cmp.Diff([]string{"Successful ok", "Failed failed", "Unknown unknown"}, states); d != "" || clusters[0].Connection != "" {
		t.Errorf("connections (-want +got):\n%s (the input changed: %q)", d, clusters[0].Connection)
	}
}

// TestPodMetrics: the controller's pods are listed in Argo CD's namespace by the chart's labels, and each pod's
// metrics are read through the API server's pod proxy at its container port named metrics; a pod without one, or
// whose proxy fails, is named in the error while the others are read; no pod at all is an error.
func TestPodMetrics(t *testing.T) {
	var asked []string
	pods := map[string]any{"apiVersion": "v1", "kind": "PodList", "metadata": map[string]any{}, "items": []any{
		pod("argocd-application-controller-0", 8082), pod("argocd-application-controller-1", 8082),
		pod("argocd-application-controller-2", 0)}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		switch r.URL.Path {
		case "/api/v1/namespaces/gitops/pods":
			if r.URL.Query().Get("labelSelector") != "app.kubernetes.io/part-of=argocd,app.kubernetes.io/component=application-controller" {
				http.Error(w, "unexpected selector "+r.URL.RawQuery, http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(pods)
		case "/api/v1/namespaces/gitops/pods/argocd-application-controller-0:8082/proxy/metrics":
			_, _ = w.Write([]byte(shard0))
		case "/api/v1/namespaces/empty/pods":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"PodList","metadata":{},"items":[]}`))
		default:
			http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"error trying to reach service: dial tcp 10.0.0.7:8082: connect: connection refused","code":503}`, http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	out, err := PodMetrics(context.Background(), &rest.Config{Host: srv.URL}, "gitops")
	if len(out) != 1 || string(out[0]) != shard0 {
		t.Errorf("read %d expositions, want controller-0's alone", len(out))
	}
	if err == nil || !strings.Contains(err.Error(), "pod argocd-application-controller-1: ") ||
		!strings.Contains(err.Error(), "pod argocd-application-controller-2 has no container port named metrics") {
		t.Errorf("error %v; want controller-1's proxy failure and controller-2's missing port named", err)
	}
	if _, err := PodMetrics(context.Background(), &rest.Config{Host: srv.URL}, "empty"); err == nil ||
		!strings.Contains(err.Error(), "no application controller pod") {
		t.Errorf("a hub without the controller: %v", err)
	}
}

// pod is a PodList item of the controller's StatefulSet, its container port named metrics port (0: none).
func pod(name string, port int) map[string]any {
	ports := []any{map[string]any{"name": "http", "containerPort": 8080}}
	if port > 0 {
		ports = append(ports, map[string]any{"name": "metrics", "containerPort": port})
	}
	return map[string]any{"metadata": map[string]any{"name": name, "namespace": "gitops"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "application-controller", "ports": ports}}}}
}

// TestURLMetrics: each URL is read; one that does not answer 200 is named in the error, the others kept.
func TestURLMetrics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(shard1))
	}))
	defer srv.Close()
	out, err := URLMetrics([]string{srv.URL + "/metrics", srv.URL + "/nope"})(context.Background(), nil, "")
	if len(out) != 1 || string(out[0]) != shard1 || err == nil || !strings.Contains(err.Error(), srv.URL+"/nope: 404 Not Found") {
		t.Errorf("%d expositions, %v; want the first URL's, the second named as 404", len(out), err)
	}
}
