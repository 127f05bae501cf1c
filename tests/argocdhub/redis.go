package argocdhub

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// redisSecret is the secret holding Redis's password (key auth) that the chart's redis-secret-init job creates
// and every component reads (REDIS_PASSWORD).
const redisSecret = "argocd-redis"

// startRedis plays the chart's redis-secret-init hook (`argocd admin redis-initial-password`, as the job's service
// account; kwok ran its pod, but nothing in it) unless the secret exists, then starts Debian's redis-server on a
// loopback port with that password, keeping nothing on disk. It returns Redis's address.
func (h *Hub) startRedis(ctx context.Context, kube kubernetes.Interface) (string, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return "", fmt.Errorf("redis-server (Debian's redis-server package): %w", err)
	}
	if _, err := kube.CoreV1().Secrets(h.cfg.Namespace).Get(ctx, redisSecret, metav1.GetOptions{}); err != nil {
		sas, err := kube.CoreV1().ServiceAccounts(h.cfg.Namespace).List(ctx, metav1.ListOptions{
			LabelSelector: componentLabel + "=redis-secret-init"})
		if err != nil || len(sas.Items) == 0 {
			return "", fmt.Errorf("the chart's redis-secret-init service account: %v (found %d)", err, len(sas.Items))
		}
		dir := filepath.Join(h.cfg.Dir, "redis-secret-init")
		kubeconfig, err := h.kubeconfig(ctx, kube, sas.Items[0].Name, dir)
		if err != nil {
			return "", err
		}
		cmd := exec.CommandContext(ctx, filepath.Join(h.cfg.Bin, "argocd"), "admin", "redis-initial-password",
			"--kubeconfig", kubeconfig, "--namespace", h.cfg.Namespace)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("argocd admin redis-initial-password: %w: %s", err, out)
		}
	}
	secret, err := kube.CoreV1().Secrets(h.cfg.Namespace).Get(ctx, redisSecret, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	password := string(secret.Data["auth"])
	if password == "" {
		return "", fmt.Errorf("secret %s/%s has no auth key", h.cfg.Namespace, redisSecret)
	}
	ports, err := freePorts(1)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(h.cfg.Dir, "redis")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// The password goes in a config file, not on the command line, where ps would show it.
	conf := filepath.Join(dir, "redis.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, "port %d\nbind 127.0.0.1\nsave \"\"\nappendonly no\ndir %s\nrequirepass %s\n",
		ports[0], dir, password), 0o600); err != nil {
		return "", err
	}
	env := os.Environ()
	for _, k := range slices.Sorted(maps.Keys(h.cfg.Env)) {
		env = append(env, k+"="+h.cfg.Env[k])
	}
	if err := h.run("redis", process{path: "redis-server", args: []string{conf}, env: env}); err != nil {
		return "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", ports[0])
	return addr, listening(ctx, addr, h.Logs["redis"])
}
