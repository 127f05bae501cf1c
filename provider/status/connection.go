package status

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Argo CD's connection states of a cluster (its API's ConnectionState.Status), and Unknown when no application
// controller reported the cluster.
const (
	// ConnectionSuccessful: the controller's last sync of its cache of the cluster succeeded
	// (argocd_cluster_connection_status 1).
	ConnectionSuccessful = "Successful"
	// ConnectionFailed: it failed (argocd_cluster_connection_status 0): the cluster's API server is down, its
	// credentials are refused, or the network does not reach it.
	ConnectionFailed = "Failed"
)

// ControllerMetrics reads the metrics of a hub's Argo CD application controllers: one Prometheus text exposition per
// replica (each reports the clusters of its shard). hub reaches the hub's API; namespace is Argo CD's there.
type ControllerMetrics func(ctx context.Context, hub *rest.Config, namespace string) ([][]byte, error)

// controllerPods selects the application controller's pods: the labels Argo CD's chart (argo-cd.labels, chart
// 10.1.1) puts on its StatefulSet's pod template, whatever the release is named.
const controllerPods = "app.kubernetes.io/part-of=argocd,app.kubernetes.io/component=application-controller"

// PodMetrics reads each application controller pod's /metrics through the hub API server's pod proxy
// (GET /api/v1/namespaces/<namespace>/pods/<pod>:<port>/proxy/metrics), at the container port named metrics (the
// chart's, 8082 by default): the hub's own credentials need `get` on pods/proxy in Argo CD's namespace, and no port
// of the hub is exposed. A hub with no controller pod (a managed hub: AWS runs Argo CD) is an error.
func PodMetrics(ctx context.Context, hub *rest.Config, namespace string) ([][]byte, error) {
	kube, err := kubernetes.NewForConfig(hub)
	if err != nil {
		return nil, err
	}
	pods, err := kube.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: controllerPods})
	if err != nil {
		return nil, err
	}
	if len(pods.Items) == 0 {
		return nil, fmt.Errorf("no application controller pod (%s) in namespace %s", controllerPods, namespace)
	}
	var out [][]byte
	var errs []error
	for _, p := range pods.Items {
		port := metricsPort(p)
		if port == 0 {
			errs = append(errs, fmt.Errorf("pod %s has no container port named metrics", p.Name))
			continue
		}
		data, err := kube.CoreV1().RESTClient().Get().Namespace(namespace).Resource("pods").
			Name(p.Name + ":" + strconv.Itoa(int(port))).SubResource("proxy").Suffix("metrics").
			Timeout(podMetricsTimeout).DoRaw(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("pod %s: %w", p.Name, err))
			continue
		}
		out = append(out, data)
	}
	return out, errors.Join(errs...)
}

// podMetricsTimeout bounds each pod's metrics request: a controller that does not answer (a NetworkPolicy, a pod
// being replaced) costs a status run that long, not the client's minute.
const podMetricsTimeout = 20 * time.Second

// metricsPort is the port of p's container port named metrics; 0 when it has none.
func metricsPort(p corev1.Pod) int32 {
	for _, c := range p.Spec.Containers {
		for _, port := range c.Ports {
			if port.Name == "metrics" {
				return port.ContainerPort
			}
		}
	}
	return 0
}

// URLMetrics reads the controllers' metrics from urls instead, one per replica (fleet status -argocd-metrics: a
// `kubectl port-forward` to each, say), with plain HTTP GETs; the hub's API is not used.
func URLMetrics(urls []string) ControllerMetrics {
	return func(ctx context.Context, _ *rest.Config, _ string) ([][]byte, error) {
		client := &http.Client{Timeout: 30 * time.Second}
		var out [][]byte
		var errs []error
		for _, u := range urls {
			data, err := get(ctx, client, u)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", u, err))
				continue
			}
			out = append(out, data)
		}
		return out, errors.Join(errs...)
	}
}

// get is the body of a GET of u, an error unless it answers 200.
func get(ctx context.Context, client *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	return data, nil
}

// Connections reads each cluster's connection state from the controllers' expositions, by the cluster's name in
// Argo CD (its secret's name field, which the fleet's Applications name as their destination): Argo CD's
// controller (controller/metrics/clustercollector.go, v3) reports argocd_cluster_info{server, name} and
// argocd_cluster_connection_status{server} (1 connected, 0 not) for every cluster in its cache, that is every
// cluster of its shard that an Application has made it watch. A cluster no exposition names is left out (Unknown).
func Connections(expositions [][]byte) (map[string]string, error) {
	names, states := map[string]string{}, map[string]string{}
	for i, data := range expositions {
		parser := expfmt.NewTextParser(model.UTF8Validation)
		families, err := parser.TextToMetricFamilies(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("controller %d's metrics: %w", i, err)
		}
		if f := families["argocd_cluster_info"]; f != nil {
			for _, m := range f.GetMetric() {
				l := labels(m.GetLabel())
				names[l["server"]] = l["name"]
			}
		}
		if f := families["argocd_cluster_connection_status"]; f != nil {
			for _, m := range f.GetMetric() {
				state := ConnectionFailed
				if value(m) == 1 {
					state = ConnectionSuccessful
				}
				states[labels(m.GetLabel())["server"]] = state
			}
		}
	}
	out := map[string]string{}
	for server, state := range states {
		if name := names[server]; name != "" {
			out[name] = state
		}
	}
	return out, nil
}

// value is a sample's value: a gauge's, as Argo CD types it, or an untyped one's (an exposition without its TYPE
// lines, as some scrapers pass them on).
func value(m *dto.Metric) float64 {
	if m.GetGauge() != nil {
		return m.GetGauge().GetValue()
	}
	return m.GetUntyped().GetValue()
}

// labels are a metric's label pairs by name.
func labels[P interface {
	GetName() string
	GetValue() string
}](pairs []P) map[string]string {
	out := map[string]string{}
	for _, p := range pairs {
		out[p.GetName()] = p.GetValue()
	}
	return out
}

// WithConnections is clusters with each one's Connection from connections (by SecretName, its name in Argo CD),
// Unknown for one they do not name.
func WithConnections(clusters []Cluster, connections map[string]string) []Cluster {
	out := make([]Cluster, len(clusters))
	for i, c := range clusters {
		c.Connection = Unknown
		if s, ok := connections[c.SecretName]; ok {
			c.Connection = s
		}
		out[i] = c
	}
	return out
}

// ConnectionState is c's Connection as a state for colour: ok (Successful), failed (Failed), or unknown.
func (c Cluster) ConnectionState() string {
	switch c.Connection {
	case ConnectionSuccessful:
		return "ok"
	case ConnectionFailed:
		return "failed"
	}
	return "unknown"
}
