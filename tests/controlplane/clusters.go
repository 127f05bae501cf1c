package controlplane

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/tools"
)

// Env names the variables that turn control planes on for a run: the directory kwokctl keeps the clusters in, and
// the directory of the binaries (`make kube`).
const (
	WorkdirEnv = "FLEET_EMULATOR_CLUSTERS"
	BinEnv     = "FLEET_EMULATOR_KUBE_BIN"
)

// KubeVersion is the Kubernetes release every control plane runs (KUBE_VERSION in tests/tools/versions.mk, the
// release whose admission code the contract tests judge the guards with); EtcdVersion is the etcd that release pins.
// Only this release is built here: a cluster asking for another minor gets it.
var (
	KubeVersion = tools.Version("KUBE_VERSION")
	EtcdVersion = tools.Version("ETCD_VERSION")
)

// Nodes is how many kwok nodes each cluster gets, so that Deployments schedule and report Available.
const Nodes = 2

// Clusters is the set of control planes of one offline run.
type Clusters struct {
	// Workdir is kwokctl's working directory (KWOK_WORKDIR): a cluster's PKI, etcd data, logs and pids live in
	// Workdir/clusters/<name>.
	Workdir string
	// Bin holds etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, kwok, kwokctl and
	// aws-iam-authenticator.
	Bin string
	// Network are variables every control plane process is started with besides the caller's environment: the
	// offline network's proxy and CA, through which a cluster's authenticator reaches the offline STS. A plugin
	// has them in its environment already; the harness, whose proxy starts stopped control planes, sets them.
	Network map[string]string
}

// FromEnv is the run's Clusters, if the run has control planes (WorkdirEnv and BinEnv set).
func FromEnv() (Clusters, bool) {
	c := Clusters{Workdir: os.Getenv(WorkdirEnv), Bin: os.Getenv(BinEnv)}
	return c, c.Workdir != "" && c.Bin != ""
}

// Env are the variables that give the run's plugins these control planes.
func (c Clusters) Env() map[string]string {
	return map[string]string{WorkdirEnv: c.Workdir, BinEnv: c.Bin}
}

// Name is the control plane's name for an EKS cluster: EKS names are unique per account and region only.
func Name(region, cluster string) string { return region + "-" + cluster }

// Create starts a new control plane called name with Nodes kwok nodes and waits until its API server is ready (and
// its authenticator: authenticatorStarted).
// With auth, the API server authenticates bearer tokens through aws-iam-authenticator (Authentication); without
// (nil), only the administrator's client certificate. Creating one that exists starts it if it is stopped.
func (c Clusters) Create(ctx context.Context, name string, auth *Authentication) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.MkdirAll(c.Workdir, 0o755); err != nil {
		return err
	}
	// The ports of the other control planes, stopped ones included, stay theirs.
	given, err := c.givenPorts(name)
	if err != nil {
		return err
	}
	defer holdPorts(given)()
	var authenticator map[string]any
	var apiserverArgs []map[string]string
	if auth != nil {
		if authenticator, apiserverArgs, err = c.prepareAuthenticator(ctx, name, *auth); err != nil {
			return errors.Join(err, os.RemoveAll(c.authDir(name)))
		}
	}
	conf := filepath.Join(c.Workdir, name+".kwokctl.yaml")
	if err := os.WriteFile(conf, c.config(authenticator, apiserverArgs), 0o644); err != nil {
		return err
	}
	if err := c.kwokctl(ctx, name, "create", "cluster", "--config", conf, "--wait", "60s", c.contexts()); err != nil {
		return errors.Join(err, os.RemoveAll(c.authDir(name)))
	}
	err = c.authenticatorStarted(ctx, name)
	if err == nil {
		err = c.kwokctl(ctx, name, "scale", "node", "--replicas", strconv.Itoa(Nodes))
	}
	if err != nil {
		// Nothing half made is left: the cluster's create fails whole.
		return errors.Join(err, c.kwokctl(ctx, name, "delete", "cluster", c.contexts()), os.RemoveAll(c.authDir(name)))
	}
	return nil
}

// Start starts the stopped control plane name (its etcd data kept) and waits until its API server (and its
// authenticator) is ready; a running one is left alone.
func (c Clusters) Start(ctx context.Context, name string) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if c.Running(name) {
		return nil
	}
	if err := c.kwokctl(ctx, name, "start", "cluster", "--wait", "60s"); err != nil {
		return err
	}
	return c.authenticatorStarted(ctx, name)
}

// Delete stops the control plane name and removes its data; an absent one is no error.
func (c Clusters) Delete(ctx context.Context, name string) error {
	if !slices.Contains(c.Names(), name) {
		return nil
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return errors.Join(c.kwokctl(ctx, name, "delete", "cluster", c.contexts()), os.RemoveAll(c.authDir(name)))
}

// Stop stops the control plane name's processes, its data kept (Start starts it again); a stopped one is left
// alone.
func (c Clusters) Stop(ctx context.Context, name string) error {
	if !c.Running(name) {
		return nil
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return c.kwokctl(ctx, name, "stop", "cluster")
}

// DeleteAll deletes every control plane of the run.
func (c Clusters) DeleteAll(ctx context.Context) error {
	var errs []error
	for _, name := range c.Names() {
		errs = append(errs, c.Delete(ctx, name))
	}
	return errors.Join(errs...)
}

// Names are the run's control planes, running or stopped.
func (c Clusters) Names() []string {
	entries, _ := os.ReadDir(filepath.Join(c.Workdir, "clusters"))
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// Dir is the control plane's own directory: kubeconfig.yaml, pki/, etcd/, logs/.
func (c Clusters) Dir(name string) string { return filepath.Join(c.Workdir, "clusters", name) }

// Running says whether the control plane's kube-apiserver process is alive.
func (c Clusters) Running(name string) bool {
	_, alive := livePID(filepath.Join(c.Dir(name), "pids", "kube-apiserver.pid"))
	return alive
}

// livePID is the process in kwokctl's pid file, and whether it is alive.
func livePID(file string) (int, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0, false
	}
	return pid, syscall.Kill(pid, 0) == nil
}

// kwokctl runs kwokctl on cluster name with the run's workdir, binaries first on PATH (it asks kubectl whether the
// API server serves), and no kubeconfig of the user's touched.
func (c Clusters) kwokctl(ctx context.Context, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	args = append([]string{"--name", name}, args...)
	cmd := exec.CommandContext(ctx, filepath.Join(c.Bin, "kwokctl"), args...)
	cmd.Env = append(os.Environ(), "KWOK_WORKDIR="+c.Workdir,
		"PATH="+c.Bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, k := range slices.Sorted(maps.Keys(c.Network)) {
		cmd.Env = append(cmd.Env, k+"="+c.Network[k])
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kwokctl %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// contexts is kwokctl's --kubeconfig flag for create and delete: a file of the workdir's own, so that no
// kubeconfig of the user's gains or loses contexts.
func (c Clusters) contexts() string {
	return "--kubeconfig=" + filepath.Join(c.Workdir, "kwokctl-contexts.yaml")
}

// lock serializes kwokctl's create, start and delete across every run on the machine: kwokctl picks a cluster's
// ports by trying which are free, so two clusters starting at once (the plugins of one run, or two test packages)
// could pick the same before either binds them. Its file is in /tmp, not os.TempDir(): the offline Env gives the
// processes it starts (the plugins that create control planes among them) a TMPDIR of their own.
func (c Clusters) lock() (func(), error) {
	return flock(lockFile)
}

// lockFile is the file lock takes, one for the machine.
const lockFile = "/tmp/pulumi-fleet-controlplanes.lock"

// flock takes an exclusive lock on the file at path (created if missing), waiting for it; it returns the unlock.
func flock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// PIDs are the processes of the control plane name (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kwok, the authenticator), from kwokctl's pid files; a stopped one has none alive.
func (c Clusters) PIDs(name string) []int {
	files, _ := filepath.Glob(filepath.Join(c.Dir(name), "pids", "*.pid"))
	var pids []int
	for _, f := range files {
		if pid, alive := livePID(f); alive {
			pids = append(pids, pid)
		}
	}
	return pids
}
