package argocdhub

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// Config is the hub Argo CD runs on and what it runs with.
type Config struct {
	// Bin holds the binaries of `make argocd`: argocd, its links (argocd-application-controller, ...) and helm.
	Bin string
	// Dir is where the run keeps its kubeconfigs, tokens, the container paths and one log per process.
	Dir string
	// Admin reaches the hub's API server as its administrator: for the tokens, the chart's workloads, config maps
	// and secrets, and the Pod Identity agent's TokenReviews.
	Admin *rest.Config
	// Namespace is Argo CD's namespace on the hub (the chart's release namespace).
	Namespace string
	// Region and Cluster are the hub's EKS cluster, whose Pod Identity associations the agent follows.
	Region, Cluster string
	// STS is the offline STS that issues the Pod Identity credentials.
	STS *aws.STS
	// Env is the environment every process gets besides the chart's: the offline network's proxy variables and
	// CA (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE, ...).
	Env map[string]string
}

// Hub is Argo CD running on a hub. Stop ends it.
type Hub struct {
	cfg    Config
	procs  []*exec.Cmd
	byName map[string]*exec.Cmd
	agent  *http.Server
	temps  []string // folders outside Dir, removed by Stop
	// Logs are the processes' log files by component (redis, repo-server, application-controller,
	// applicationset-controller), a sharded application controller's replicas past the first as
	// application-controller-1, ...
	Logs map[string]string
	// ControllerMetrics are the application controller replicas' metrics URLs (http://127.0.0.1:<port>/metrics),
	// in shard order: what a pod's container port named metrics serves in a cluster.
	ControllerMetrics []string
}

// components are the chart's workloads Start runs, in order (the repo server before the controllers that call it),
// by their app.kubernetes.io/component label.
var components = []string{"repo-server", "applicationset-controller", "application-controller"}

// Start starts Argo CD on the hub: Redis (with the password the chart's redis-secret-init job would have made),
// then each component. It returns once every process listens; on error nothing is left running.
func Start(ctx context.Context, cfg Config) (_ *Hub, err error) {
	kube, err := kubernetes.NewForConfig(cfg.Admin)
	if err != nil {
		return nil, err
	}
	h := &Hub{cfg: cfg, Logs: map[string]string{}, byName: map[string]*exec.Cmd{}}
	defer func() {
		if err != nil {
			h.Stop()
		}
	}()
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	agentURL, err := h.startAgent(kube)
	if err != nil {
		return nil, err
	}
	redisAddr, err := h.startRedis(ctx, kube)
	if err != nil {
		return nil, err
	}
	repoServer := ""
	for _, component := range components {
		w, err := chartWorkload(ctx, kube, cfg.Namespace, component)
		if err != nil {
			return nil, err
		}
		p, err := h.prepare(ctx, kube, w, agentURL)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", component, err)
		}
		// One process stands for the workload's pods, but for the application controller: its StatefulSet's pod
		// <name>-N is shard N (sharding.InferShard, from the hostname), and each manages only the clusters of its
		// shard, so every replica runs, each told its shard outright (the machine's hostname is not the pod's).
		replicas := 1
		if component == "application-controller" {
			replicas = max(1, w.replicas)
		}
		for shard := range replicas {
			name, q := component, p
			if shard > 0 {
				name = fmt.Sprintf("%s-%d", component, shard)
			}
			q.args, q.env = slices.Clone(p.args), slices.Clone(p.env)
			ports, err := freePorts(4)
			if err != nil {
				return nil, err
			}
			switch component {
			case "repo-server":
				repoServer = fmt.Sprintf("127.0.0.1:%d", ports[0])
				q.args = append(q.args, fmt.Sprintf("--port=%d", ports[0]), "--address=127.0.0.1",
					fmt.Sprintf("--metrics-port=%d", ports[1]), "--metrics-address=127.0.0.1", "--redis="+redisAddr)
			case "applicationset-controller":
				// controller-runtime reads KUBECONFIG, not the command's --kubeconfig, outside a pod.
				q.env = append(q.env, "KUBECONFIG="+q.kubeconfig, "ARGOCD_FAKE_IN_CLUSTER=true")
				q.args = append(q.args, "--kubeconfig="+q.kubeconfig, "--argocd-repo-server="+repoServer,
					fmt.Sprintf("--metrics-addr=127.0.0.1:%d", ports[0]), fmt.Sprintf("--probe-addr=127.0.0.1:%d", ports[1]),
					fmt.Sprintf("--webhook-addr=127.0.0.1:%d", ports[2]))
			case "application-controller":
				// The hub's own cluster (https://kubernetes.default.svc) is the pod's in-cluster config, which Argo
				// CD takes from KUBECONFIG when ARGOCD_FAKE_IN_CLUSTER is set (its local development switch).
				q.env = append(q.env, "KUBECONFIG="+q.kubeconfig, "ARGOCD_FAKE_IN_CLUSTER=true",
					fmt.Sprintf("ARGOCD_CONTROLLER_SHARD=%d", shard))
				q.args = append(q.args, "--kubeconfig="+q.kubeconfig, "--repo-server="+repoServer, "--redis="+redisAddr,
					fmt.Sprintf("--metrics-port=%d", ports[0]))
				h.ControllerMetrics = append(h.ControllerMetrics, fmt.Sprintf("http://127.0.0.1:%d/metrics", ports[0]))
			}
			if err := h.run(name, q); err != nil {
				return nil, err
			}
			if err := listening(ctx, fmt.Sprintf("127.0.0.1:%d", ports[0]), h.Logs[name]); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return h, nil
}

// process is a component's command line and environment, as its pod would run.
type process struct {
	path string
	args []string
	env  []string
	// kubeconfig authenticates as the pod's service account: the controllers take it as --kubeconfig where a pod
	// has its mounted token (the repo server calls no API server).
	kubeconfig string
}

// run starts p as component, its output in the component's log.
func (h *Hub) run(component string, p process) error {
	log := filepath.Join(h.cfg.Dir, component+".log")
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.Command(p.path, p.args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = p.env, f, f
	cmd.Dir = filepath.Join(h.cfg.Dir, component)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := os.MkdirAll(cmd.Dir, 0o755); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", component, err)
	}
	h.procs = append(h.procs, cmd)
	h.byName[component] = cmd
	h.Logs[component] = log
	return nil
}

// Stop ends every process (SIGTERM, then SIGKILL after ten seconds) and the Pod Identity agent, and removes the
// folders it made outside Config.Dir.
func (h *Hub) Stop() {
	for i := len(h.procs) - 1; i >= 0; i-- {
		cmd := h.procs[i]
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	h.procs, h.byName = nil, map[string]*exec.Cmd{}
	if h.agent != nil {
		_ = h.agent.Close()
	}
	for _, d := range h.temps {
		_ = os.RemoveAll(d)
	}
	h.temps = nil
}

// startAgent serves the hub's Pod Identity agent on a loopback port and returns its credentials URL.
func (h *Hub) startAgent(kube kubernetes.Interface) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	agent := aws.PodIdentityAgent{STS: h.cfg.STS, Region: h.cfg.Region, Cluster: h.cfg.Cluster,
		Review: func(ctx context.Context, token string) (string, string, error) {
			review, err := kube.AuthenticationV1().TokenReviews().Create(ctx, &authenticationv1.TokenReview{
				Spec: authenticationv1.TokenReviewSpec{Token: token, Audiences: []string{aws.PodIdentityAudience}},
			}, metav1.CreateOptions{})
			if err != nil {
				return "", "", err
			}
			if !review.Status.Authenticated {
				return "", "", errors.New(review.Status.Error)
			}
			parts := strings.Split(review.Status.User.Username, ":") // system:serviceaccount:<ns>:<name>
			if len(parts) != 4 || parts[1] != "serviceaccount" {
				return "", "", fmt.Errorf("%s is not a service account", review.Status.User.Username)
			}
			return parts[2], parts[3], nil
		}}
	h.agent = &http.Server{Handler: agent, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = h.agent.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1/credentials", nil
}

// listening waits until addr accepts connections, up to two minutes; the log's tail explains a failure.
func listening(ctx context.Context, addr, log string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return c.Close()
		}
		select {
		case <-ctx.Done():
			tail, _ := os.ReadFile(log)
			if len(tail) > 4000 {
				tail = tail[len(tail)-4000:]
			}
			return fmt.Errorf("nothing listens on %s: %w; its log ends:\n%s", addr, ctx.Err(), tail)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// freePorts are n loopback ports free now.
func freePorts(n int) ([]int, error) {
	var ports []int
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			_ = ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// PeakMemory is each running process's peak resident memory (VmHWM in /proc/<pid>/status) in MiB, by component.
func (h *Hub) PeakMemory() map[string]int {
	out := map[string]int{}
	for component, cmd := range h.byName {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			var kb int
			if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
				out[component] = kb / 1024
			}
		}
	}
	return out
}
