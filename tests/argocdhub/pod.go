package argocdhub

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// workload is a chart workload's pod template: the Deployment's or StatefulSet's name and pod spec.
type workload struct {
	name string
	spec corev1.PodSpec
	// replicas are the workload's spec.replicas (1 when unset).
	replicas int
}

// componentLabel is the label the Argo CD chart puts on each component's workload.
const componentLabel = "app.kubernetes.io/component"

// chartWorkload is the Deployment or StatefulSet of component in ns.
func chartWorkload(ctx context.Context, kube kubernetes.Interface, ns, component string) (workload, error) {
	sel := metav1.ListOptions{LabelSelector: componentLabel + "=" + component}
	deployments, err := kube.AppsV1().Deployments(ns).List(ctx, sel)
	if err != nil {
		return workload{}, err
	}
	replicas := func(n *int32) int {
		if n == nil {
			return 1
		}
		return int(*n)
	}
	for _, d := range deployments.Items {
		return workload{name: d.Name, spec: d.Spec.Template.Spec, replicas: replicas(d.Spec.Replicas)}, nil
	}
	sets, err := kube.AppsV1().StatefulSets(ns).List(ctx, sel)
	if err != nil {
		return workload{}, err
	}
	for _, s := range sets.Items {
		return workload{name: s.Name, spec: s.Spec.Template.Spec, replicas: replicas(s.Spec.Replicas)}, nil
	}
	return workload{}, fmt.Errorf("no Deployment or StatefulSet labelled %s=%s in %s: is Argo CD's chart installed?", componentLabel, component, ns)
}

// tokenLifetime is how long the service-account tokens the processes get last: longer than any test.
const tokenLifetime = 24 * 60 * 60

// containerPaths are the container paths Argo CD reads by default (its ARGOCD_*_PATH variables' defaults), set to
// folders of the run unless the chart sets them.
var containerPaths = map[string]string{
	"ARGOCD_TLS_DATA_PATH":      "/app/config/tls",
	"ARGOCD_SSH_DATA_PATH":      "/app/config/ssh",
	"ARGOCD_GNUPGHOME":          "/app/config/gpg/keys",
	"ARGOCD_GPG_DATA_PATH":      "/app/config/gpg/source",
	"ARGOCD_PLUGINSOCKFILEPATH": "/home/argocd/cmp-server/plugins",
	"TMPDIR":                    "/tmp",
	"HOME":                      "/home/argocd",
}

// prepare is w's first container as a process: its command line with the binary from Bin, a kubeconfig for the
// pod's service account (with a requested token), its environment resolved from the hub (config
// maps, secrets, the pod's fields), container paths under the component's folder, the Pod Identity variables EKS
// injects, and Config.Env.
func (h *Hub) prepare(ctx context.Context, kube kubernetes.Interface, w workload, agentURL string) (process, error) {
	if len(w.spec.Containers) == 0 {
		return process{}, fmt.Errorf("%s has no container", w.name)
	}
	c := w.spec.Containers[0]
	cmdline := slices.Concat(c.Command, c.Args)
	if len(cmdline) == 0 {
		return process{}, fmt.Errorf("%s: the container names no command (the image's entrypoint is not known here)", w.name)
	}
	dir := filepath.Join(h.cfg.Dir, filepath.Base(cmdline[0]))
	root := filepath.Join(dir, "fs")
	sa := w.spec.ServiceAccountName
	kubeconfig, err := h.kubeconfig(ctx, kube, sa, dir)
	if err != nil {
		return process{}, err
	}
	env, err := resolveEnv(ctx, kube, h.cfg.Namespace, w.name, c)
	if err != nil {
		return process{}, fmt.Errorf("%s: %w", w.name, err)
	}
	for k, v := range containerPaths {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
	for k, v := range env {
		if !strings.HasPrefix(v, "/") {
			continue
		}
		env[k] = filepath.Join(root, v)
		if k == "ARGOCD_GNUPGHOME" {
			// gpg-agent's sockets live in GNUPGHOME, and a socket's path must fit in 108 bytes (sun_path): a short
			// folder of its own, removed by Stop.
			if env[k], err = os.MkdirTemp("", "argocd-gnupg-"); err != nil {
				return process{}, err
			}
			h.temps = append(h.temps, env[k])
		}
		if err := os.MkdirAll(env[k], 0o700); err != nil {
			return process{}, err
		}
	}
	for _, m := range c.VolumeMounts {
		if err := os.MkdirAll(filepath.Join(root, m.MountPath), 0o755); err != nil {
			return process{}, err
		}
	}
	identity, err := h.podIdentityToken(ctx, kube, sa, dir)
	if err != nil {
		return process{}, err
	}
	maps.Copy(env, map[string]string{
		// What the EKS Pod Identity webhook injects into a pod whose service account has an association.
		"AWS_CONTAINER_CREDENTIALS_FULL_URI":     agentURL,
		"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": identity,
		"AWS_REGION":                             h.cfg.Region,
		"AWS_DEFAULT_REGION":                     h.cfg.Region,
		"AWS_STS_REGIONAL_ENDPOINTS":             "regional",
	})
	maps.Copy(env, h.cfg.Env)
	env["PATH"] = h.cfg.Bin + string(os.PathListSeparator) + os.Getenv("PATH")
	if ca := h.cfg.Env["SSL_CERT_FILE"]; ca != "" {
		env["GIT_SSL_CAINFO"] = ca // git's libcurl does not read SSL_CERT_FILE
	}
	var list []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		list = append(list, k+"="+env[k])
	}
	return process{path: filepath.Join(h.cfg.Bin, filepath.Base(cmdline[0])),
		args: slices.Clone(cmdline[1:]), env: list, kubeconfig: kubeconfig}, nil
}

// kubeconfig writes, in dir, a kubeconfig for the hub's API server as service account sa of Argo CD's namespace
// (its namespace the context's), with a token from the TokenRequest API, and returns its path.
func (h *Hub) kubeconfig(ctx context.Context, kube kubernetes.Interface, sa, dir string) (string, error) {
	token, err := requestToken(ctx, kube, h.cfg.Namespace, sa, nil)
	if err != nil {
		return "", err
	}
	ca := h.cfg.Admin.CAData
	if len(ca) == 0 && h.cfg.Admin.CAFile != "" {
		if ca, err = os.ReadFile(h.cfg.Admin.CAFile); err != nil {
			return "", err
		}
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["hub"] = &clientcmdapi.Cluster{Server: h.cfg.Admin.Host, CertificateAuthorityData: ca}
	cfg.AuthInfos[sa] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts["hub"] = &clientcmdapi.Context{Cluster: "hub", AuthInfo: sa, Namespace: h.cfg.Namespace}
	cfg.CurrentContext = "hub"
	file := filepath.Join(dir, "kubeconfig")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return file, clientcmd.WriteToFile(*cfg, file)
}

// podIdentityToken writes sa's projected token for EKS Pod Identity (audience pods.eks.amazonaws.com) in dir and
// returns its path.
func (h *Hub) podIdentityToken(ctx context.Context, kube kubernetes.Interface, sa, dir string) (string, error) {
	token, err := requestToken(ctx, kube, h.cfg.Namespace, sa, []string{aws.PodIdentityAudience})
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "eks-pod-identity-token")
	return file, os.WriteFile(file, []byte(token), 0o600)
}

func requestToken(ctx context.Context, kube kubernetes.Interface, ns, sa string, audiences []string) (string, error) {
	seconds := int64(tokenLifetime)
	tr, err := kube.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{Audiences: audiences, ExpirationSeconds: &seconds},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("a token for service account %s/%s: %w", ns, sa, err)
	}
	return tr.Status.Token, nil
}

// resolveEnv is container c's environment as the kubelet gives it to pod (of workload name, in ns): values, keys
// of config maps and secrets (an optional one that is missing left out), the pod's namespace and name, and
// envFrom's config maps and secrets.
func resolveEnv(ctx context.Context, kube kubernetes.Interface, ns, pod string, c corev1.Container) (map[string]string, error) {
	env := map[string]string{}
	configMaps, secrets := map[string]map[string]string{}, map[string]map[string]string{}
	configMap := func(name string) (map[string]string, error) {
		if m, ok := configMaps[name]; ok {
			return m, nil
		}
		cm, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			configMaps[name] = nil
			return nil, err
		}
		configMaps[name] = cm.Data
		return cm.Data, nil
	}
	secret := func(name string) (map[string]string, error) {
		if m, ok := secrets[name]; ok {
			return m, nil
		}
		s, err := kube.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			secrets[name] = nil
			return nil, err
		}
		m := map[string]string{}
		for k, v := range s.Data {
			m[k] = string(v)
		}
		secrets[name] = m
		return m, nil
	}
	optional := func(b *bool) bool { return b != nil && *b }
	for _, from := range c.EnvFrom {
		var m map[string]string
		var err error
		switch {
		case from.ConfigMapRef != nil:
			if m, err = configMap(from.ConfigMapRef.Name); err != nil && optional(from.ConfigMapRef.Optional) {
				err = nil
			}
		case from.SecretRef != nil:
			if m, err = secret(from.SecretRef.Name); err != nil && optional(from.SecretRef.Optional) {
				err = nil
			}
		}
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			env[from.Prefix+k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.ConfigMapKeyRef != nil:
			ref := e.ValueFrom.ConfigMapKeyRef
			m, err := configMap(ref.Name)
			v, ok := m[ref.Key]
			switch {
			case ok:
				env[e.Name] = v
			case !optional(ref.Optional):
				return nil, fmt.Errorf("%s: key %s of config map %s: %v", e.Name, ref.Key, ref.Name, err)
			}
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			m, err := secret(ref.Name)
			v, ok := m[ref.Key]
			switch {
			case ok:
				env[e.Name] = v
			case !optional(ref.Optional):
				return nil, fmt.Errorf("%s: key %s of secret %s: %v", e.Name, ref.Key, ref.Name, err)
			}
		case e.ValueFrom.FieldRef != nil:
			switch e.ValueFrom.FieldRef.FieldPath {
			case "metadata.namespace":
				env[e.Name] = ns
			case "metadata.name":
				env[e.Name] = pod + "-0"
			}
		}
	}
	return env, nil
}
