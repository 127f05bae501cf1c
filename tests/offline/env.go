package offline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/account"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/charts"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/workloads"
	"github.com/gitops-fleet/pulumi-fleet/tests/gitserver"
)

// Passphrase encrypts the secrets of the offline stacks made with the passphrase provider (the language tests'
// stacks, made by `pulumi stack init` in their project folder). It protects nothing real: the stacks live in an
// ignored work folder and hold emulated resources.
const Passphrase = "offline-fleet"

// SecretsProvider encrypts the secrets of the stacks the harness makes (Stack, LocalStack): a key of the offline
// KMS (aws.KMS), which the run's network serves. Each CLI run then unwraps the stack's data key with one KMS call
// instead of deriving the passphrase's key (PBKDF2, 1,000,000 iterations: 0.2 CPU-seconds a run, about 900 runs
// in `make test`).
var SecretsProvider = aws.KeyURL("offline-fleet", "us-east-1")

// Env is one offline run environment.
type Env struct {
	// Root is the repository root; Dir the run's work directory.
	Root, Dir string
	// Vars are the environment of the CLI and of every plugin it starts.
	Vars map[string]string
	// Store is the emulated cloud.
	Store *emulator.Store

	// Clusters are the run's control planes, when it has them (Options.ControlPlanes).
	Clusters *controlplane.Clusters
	// STS is the offline STS, which the clusters' authenticators ask who a token's signer is.
	STS *aws.STS
	// Capabilities is the offline EKS Capabilities API (a test makes a capability fail with it).
	Capabilities *capabilities.API
	// Account is the offline IAM simulator, Service Quotas and EC2 describes fleet preflight asks (a test sets the
	// deployer's policies and the quotas with it).
	Account *account.API

	net     *network.Network
	cmd     auto.PulumiCommand
	plugins map[string]string
	stop    context.CancelFunc // the stand-ins that run beside the control planes (runStandIns)
	mark    map[string]string  // Options.Mark
	argocd  sync.Map           // control plane name -> true where Argo CD itself runs (ArgoCDRuns)
}

// Options choose what an Env runs on.
type Options struct {
	// ControlPlanes backs every EKS cluster the run creates with a real control plane (tests/controlplane)
	// and installs every Kubernetes object through the real Pulumi Kubernetes provider (bin/kube), Helm charts
	// from the chart repositories the network serves (ChartRepositories). Without it, tests/emulator/kubernetes
	// keeps the objects.
	ControlPlanes bool
	// Mark are variables every process of the run gets in its environment, those it starts directly (the CLI, Argo CD)
	// and those started for it (the plugins, the control planes' processes): the harness finds them by it
	// (tests/fleettest's RunEnv) to reap them whatever way the run ends.
	Mark map[string]string
}

// Needed are the files `make offline` builds, relative to the repository root.
var Needed = []string{
	"bin/pulumi", "bin/pulumi-resource-fleet",
	"bin/emulator/pulumi-resource-aws", "bin/emulator/pulumi-resource-kubernetes",
	"bin/emulator/pulumi-resource-github", "bin/emulator/pulumi-resource-awsx",
	"tests/emulator/eks/node_modules/@pulumi/eks/cmd/provider/index.js",
	"bin/pulumi-language-java",
}

// NeededForControlPlanes are the files `make offline` builds for an Env with control planes.
var NeededForControlPlanes = []string{
	"bin/kube/etcd", "bin/kube/kube-apiserver", "bin/kube/kube-controller-manager", "bin/kube/kube-scheduler",
	"bin/kube/kubectl", "bin/kube/kwok", "bin/kube/kwokctl", "bin/kube/aws-iam-authenticator",
	"bin/kube/pulumi-resource-kubernetes",
}

// New prepares an Env in dir (created if needed; state from an earlier Env in the same dir is kept) on the
// offline cloud alone.
func New(root, dir string) (*Env, error) { return Open(root, dir, Options{}) }

// Open prepares an Env in dir with opts.
func Open(root, dir string, opts Options) (*Env, error) {
	needed := Needed
	if opts.ControlPlanes {
		needed = append(slices.Clone(needed), NeededForControlPlanes...)
	}
	var missing []string
	for _, f := range needed {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("offline run: missing %s; build them with `make offline`", strings.Join(missing, ", "))
	}
	for _, d := range []string{"state", "home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	if err := noAutomaticLogs(filepath.Join(dir, "home")); err != nil {
		return nil, err
	}
	store := emulator.OpenStore(filepath.Join(dir, "cloud"))
	plugins := maps.Clone(Plugins)
	sts := aws.NewSTS(store)
	// The network's handler is set once the network runs: the control planes' proxy needs the network's address
	// (the authenticators it starts reach the offline STS through it).
	var serve http.Handler
	var hosts []string
	var repos []charts.Repository
	if opts.ControlPlanes {
		var err error
		if repos, err = ChartRepositories(root, dir); err != nil {
			return nil, err
		}
		hosts = append(charts.Hosts(repos), GitHost)
		plugins["kubernetes"] = "bin/kube"
	}
	net, err := network.Start(dir, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve.ServeHTTP(w, r) }), hosts...)
	if err != nil {
		return nil, err
	}
	var clusters *controlplane.Clusters
	acct := account.New(store, workloads.Handler(store, network.Answer))
	caps := capabilities.New(store, acct)
	serve = sts.Handler(caps)
	if opts.ControlPlanes {
		if clusters, serve, err = openControlPlanes(root, dir, net, store, sts, repos, caps, opts.Mark); err != nil {
			net.Close()
			return nil, err
		}
	}
	if clusters != nil {
		caps.Hooks = capabilityHooks(root, *clusters, store)
	}
	kms, err := aws.NewKMS(sts, dir)
	if err != nil {
		net.Close()
		return nil, err
	}
	serve = kms.Handler(serve)
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: root, SkipVersionCheck: true})
	if err != nil {
		net.Close()
		return nil, fmt.Errorf("the Pulumi CLI in %s/bin: %w", root, err)
	}
	e := &Env{Root: root, Dir: dir, net: net, cmd: cmd, Store: store, Clusters: clusters, STS: sts, Capabilities: caps, Account: acct, plugins: plugins,
		stop: func() {}}
	if clusters != nil {
		var ctx context.Context
		ctx, e.stop = context.WithCancel(context.Background())
		go runStandIns(ctx, *clusters, 2*time.Second, func(name string) bool { _, ok := e.argocd.Load(name); return ok })
	}
	path := strings.Join([]string{
		filepath.Join(root, "tests/emulator/tools"), filepath.Join(root, "bin/emulator"), filepath.Join(root, "bin"),
		os.Getenv("PATH"),
	}, string(os.PathListSeparator))
	e.Vars = map[string]string{
		"PATH": path,
		// metadata=skip: gocloud's fileblob writes a checkpoint atomically (a temp file renamed) but its ".attrs"
		// sidecar in place, so a run killed between the two leaves an empty sidecar, and every later read of the
		// stack fails with "failed to load checkpoint: EOF". Pulumi reads no blob attributes; without sidecars a
		// kill leaves the last whole checkpoint (gocloud.dev/blob/fileblob, "metadata" URL parameter).
		"PULUMI_BACKEND_URL":                          "file://" + filepath.Join(dir, "state") + "?metadata=skip",
		"PULUMI_HOME":                                 filepath.Join(dir, "home"),
		"PULUMI_CONFIG_PASSPHRASE":                    Passphrase,
		"PULUMI_SKIP_UPDATE_CHECK":                    "true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
		emulator.StoreEnv:                             filepath.Join(dir, "cloud"),
		aws.CAEnv:                                     net.CAFile,
		// The fleet plugin's own AWS calls (a ClusterDrain's token and Tagging API queries) and every EKS token sign
		// with these stand-ins for credentials (the deployer's), and trust the network's CA; the offline STS checks
		// the signatures of tokens, the Tagging API only their form.
		"AWS_ACCESS_KEY_ID":         aws.DeployerAccessKeyID,
		"AWS_SECRET_ACCESS_KEY":     aws.DeployerSecretAccessKey,
		"AWS_CA_BUNDLE":             net.CAFile,
		"AWS_EC2_METADATA_DISABLED": "true",
		// The CLI's and the plugins' temporary files go in the Env's folder, and leave with it: the real Kubernetes
		// provider writes its kubeconfig to a new temporary file at every Configure and does not remove it
		// (pulumi-kubernetes provider/pkg/provider/util.go, writeKubeconfigToFile), about 16,000 files in /tmp
		// after a day of runs here.
		"TMPDIR": filepath.Join(dir, "tmp"),
	}
	for k, v := range net.Env() {
		e.Vars[k] = v
	}
	maps.Copy(e.Vars, opts.Mark)
	e.mark = opts.Mark
	if clusters != nil {
		maps.Copy(e.Vars, clusters.Env())
		// Helm, in the real Kubernetes provider, fetches charts from the network's chart repositories and trusts
		// the system's roots only: Go's crypto/x509 reads them from SSL_CERT_FILE (nothing here reaches a real host).
		e.Vars["SSL_CERT_FILE"] = net.CAFile
	}
	return e, nil
}

// openControlPlanes are the run's control planes in dir (their processes started with mark, Options.Mark), and what
// the network serves with them: the offline STS, the
// control planes' proxy and the chart repositories repos, before rest (the rest of the offline cloud). Control
// planes made before they authenticated EKS tokens are refused; running ones that reach the network at an address
// it lost (network.Moved) are stopped, to be started again with the new one on the first request.
func openControlPlanes(root, dir string, net *network.Network, store *emulator.Store, sts *aws.STS, repos []charts.Repository,
	rest http.Handler, mark map[string]string,
) (*controlplane.Clusters, http.Handler, error) {
	clusters := &controlplane.Clusters{Workdir: filepath.Join(dir, "clusters"), Bin: filepath.Join(root, "bin/kube"),
		Network: ControlPlaneNetwork(net)}
	maps.Copy(clusters.Network, mark)
	var old []string
	for _, name := range clusters.Names() {
		if !clusters.Authenticates(name) {
			old = append(old, name)
		}
	}
	if len(old) > 0 {
		return nil, nil, fmt.Errorf("the control planes %s in %s were made before the offline clusters authenticated "+
			"EKS tokens (aws-iam-authenticator) and refuse every token: start over (stop them with "+
			"`KWOK_WORKDIR=%s %s delete cluster --name <name>` for each, then `rm -rf %s`, the run's state)",
			strings.Join(old, ", "), clusters.Workdir, clusters.Workdir, filepath.Join(clusters.Bin, "kwokctl"), dir)
	}
	if net.Moved {
		for _, name := range clusters.Names() {
			if err := clusters.Stop(context.Background(), name); err != nil {
				return nil, nil, err
			}
		}
	}
	git, err := gitserver.Handler(GitRoot(dir))
	if err != nil {
		return nil, nil, err
	}
	serve, err := charts.Handler(repos, gitHost(git, sts.Handler(controlPlaneProxy(*clusters, store, rest))))
	return clusters, serve, err
}

// controlPlaneProxy is the control planes' proxy (controlplane.Proxy) for the EKS clusters in store, each at its
// endpoint and its shared endpoints (SharedEndpoint): a namespace created on a cluster gets the bindings of the access
// policies scoped to it (aws.SyncAccess), and a Kargo Project its namespace, as Kargo's webhook makes it
// (kargoProjectCreated).
func controlPlaneProxy(clusters controlplane.Clusters, store *emulator.Store, next http.Handler) http.Handler {
	var mu sync.Mutex
	eks := map[string][2]string{} // control plane -> region, cluster name
	find := func(endpoint string) (string, error) {
		name, region, err := aws.ClusterAt(store, sharedOf(endpoint))
		if name == "" || err != nil {
			return "", err
		}
		cp := controlplane.Name(region, name)
		mu.Lock()
		eks[cp] = [2]string{region, name}
		mu.Unlock()
		return cp, nil
	}
	kargo := kargoProjectCreated(clusters)
	return controlplane.Proxy(clusters, find, next, controlplane.ProxyOptions{
		Answered: func(cp string, resp *http.Response) error {
			if controlplane.NamespaceCreated(resp) {
				mu.Lock()
				c := eks[cp]
				mu.Unlock()
				if err := aws.SyncAccess(context.Background(), store, clusters, c[0], c[1]); err != nil {
					return err
				}
			}
			return kargo(cp, resp)
		},
	})
}

// ControlPlaneNetwork are the variables the control planes' processes get (controlplane.Clusters.Network): the
// network's proxy and its CA as the system's roots. (The authenticator's component sets AWS_EC2_METADATA_DISABLED
// itself.)
func ControlPlaneNetwork(net *network.Network) map[string]string {
	vars := net.Env()
	vars["SSL_CERT_FILE"] = net.CAFile
	return vars
}

// Close stops the offline network and the stand-ins beside the control planes.
func (e *Env) Close() error {
	e.stop()
	return e.net.Close()
}

// Stack creates or selects stack of an inline program whose Pulumi.yaml and Pulumi.<stack>.yaml are copied from
// projectDir into the Env on every call (so the repository's files are never written to, and an edit of the stack
// file shows in the next run; see syncStackFile).
func (e *Env) Stack(ctx context.Context, projectDir, stack string, program pulumi.RunFunc) (auto.Stack, error) {
	work := e.ProjectDir(projectDir, stack)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return auto.Stack{}, err
	}
	project, err := os.ReadFile(filepath.Join(projectDir, "Pulumi.yaml"))
	if err != nil {
		return auto.Stack{}, err
	}
	if project, err = e.ProjectFile(project); err != nil {
		return auto.Stack{}, err
	}
	if err := os.WriteFile(filepath.Join(work, "Pulumi.yaml"), project, 0o644); err != nil {
		return auto.Stack{}, err
	}
	if err := syncStackFile(filepath.Join(projectDir, "Pulumi."+stack+".yaml"), filepath.Join(work, "Pulumi."+stack+".yaml")); err != nil {
		return auto.Stack{}, err
	}
	return auto.UpsertStackInlineSource(ctx, stack, "", program,
		auto.WorkDir(work), auto.Pulumi(e.cmd), auto.EnvVars(e.Vars), auto.PulumiHome(e.Vars["PULUMI_HOME"]),
		auto.SecretsProvider(SecretsProvider))
}

// Plugins are the resource plugins of an offline run by name, in directories relative to the repository root:
// the offline cloud's, the real pulumi-eks (through its wrapper) and the fleet plugin. An Env with control planes
// runs the real Kubernetes provider instead (bin/kube).
var Plugins = map[string]string{
	"aws": "bin/emulator", "kubernetes": "bin/emulator", "github": "bin/emulator", "awsx": "bin/emulator",
	"eks": "tests/emulator/tools", "fleet": "bin",
}

// ProjectFile is the project file with the offline run's resource plugins as project plugins (`plugins.providers`,
// name and directory). The engine takes them before any other, and without the "using ... from $PATH" warning it
// prints for plugins it finds on PATH, so a run shows every warning it counts.
func (e *Env) ProjectFile(project []byte) ([]byte, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(project, &doc); err != nil {
		return nil, err
	}
	var providers []any
	for _, name := range slices.Sorted(maps.Keys(e.plugins)) {
		providers = append(providers, map[string]any{"name": name, "path": filepath.Join(e.Root, e.plugins[name])})
	}
	doc["plugins"] = map[string]any{"providers": providers}
	return yaml.Marshal(doc)
}

// syncStackFile makes dst the project's stack file src, so that every run applies the file as it is now (an edit
// shows in the next run), keeping only the secrets settings dst gained when the stack was created (stackSecrets):
// the stack's secrets are encrypted with them. Config set in dst since (pulumi config set) is replaced. A missing
// src is a stack without config.
func syncStackFile(src, dst string) error {
	data, err := os.ReadFile(src)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	var project, old map[string]any
	if err := yaml.Unmarshal(data, &project); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if prev, err := os.ReadFile(dst); err == nil {
		if err := yaml.Unmarshal(prev, &old); err != nil {
			return fmt.Errorf("%s: %w", dst, err)
		}
		for _, k := range stackSecrets {
			if v, ok := old[k].(string); ok && v != "" && project[k] == nil {
				data = append(bytes.TrimRight(data, "\n"), []byte("\n"+k+": "+v+"\n")...)
			}
		}
	}
	return os.WriteFile(dst, data, 0o644)
}

// stackSecrets are the keys of a stack file that `pulumi stack init` writes and that decrypt the stack's secrets:
// its secrets provider's URL and the data key that provider wrapped (a KMS, SecretsProvider), or the passphrase's
// salt (the passphrase provider).
var stackSecrets = []string{"secretsprovider", "encryptedkey", "encryptionsalt"}

// LocalStack creates or selects stack of the Pulumi project in dir, run by the project's own runtime (its
// language host on PATH), as `pulumi up` in that directory does.
func (e *Env) LocalStack(ctx context.Context, dir, stack string) (auto.Stack, error) {
	return auto.UpsertStackLocalSource(ctx, stack, dir,
		auto.Pulumi(e.cmd), auto.EnvVars(e.Vars), auto.PulumiHome(e.Vars["PULUMI_HOME"]),
		auto.SecretsProvider(SecretsProvider))
}

// Run runs the CLI with args in dir, with the Env's variables, and returns its standard output and error.
func (e *Env) Run(ctx context.Context, dir string, args ...string) (stdout, stderr string, err error) {
	var vars []string
	for k, v := range e.Vars {
		vars = append(vars, k+"="+v)
	}
	stdout, stderr, _, err = e.cmd.Run(ctx, dir, nil, nil, nil, vars, args...)
	return stdout, stderr, err
}

// Tail is the last n lines of s, for error messages that quote a long output.
func Tail(s string, n int) string {
	parts := strings.Split(s, "\n")
	if len(parts) > n {
		parts = parts[len(parts)-n:]
	}
	return strings.Join(parts, "\n")
}

// Root finds the repository root: the nearest directory up from the working directory with a go.mod of
// module github.com/gitops-fleet/pulumi-fleet.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/gitops-fleet/pulumi-fleet\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the pulumi-fleet repository")
		}
		dir = parent
	}
}

// ForTest is an Env in a fresh temporary directory of t, closed when t ends.
func ForTest(t testing.TB) *Env { return ForTestWith(t, Options{}) }

// ForTestWith is an Env with opts in a fresh temporary directory of t, closed when t ends, its control planes
// deleted.
func ForTestWith(t testing.TB, opts Options) *Env {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	env, err := Open(root, t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if env.Clusters != nil {
			if err := env.Clusters.DeleteAll(context.Background()); err != nil {
				t.Errorf("deleting the control planes: %v", err)
			}
		}
		_ = env.Close()
	})
	return env
}
