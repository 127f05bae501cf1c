package controlplane

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/aws-iam-authenticator/pkg/config"
	"sigs.k8s.io/aws-iam-authenticator/pkg/mapper/dynamicfile"
	"sigs.k8s.io/yaml"
)

// Authentication is how a control plane authenticates bearer tokens, as EKS does: aws-iam-authenticator's server
// (`make kube`, v0.7.18) is the kube-apiserver's webhook token authenticator. It checks a token (a presigned
// sts:GetCallerIdentity URL) by calling STS with it, so it reaches the offline STS through the offline network
// (Clusters.Network), and maps the identity STS answers with through its backends.
type Authentication struct {
	// ClusterID is the EKS cluster's name: a token must have signed it as its x-k8s-aws-id header.
	ClusterID string
	// BackendModes are the authenticator's backends, in the order it asks them: "DynamicFile" (the cluster's
	// access entries, written with WriteAccess) and "EKSConfigMap" (the aws-auth ConfigMap in kube-system).
	BackendModes []string
	// Access is what DynamicFile maps from the start, before any WriteAccess (the cluster creator's access).
	Access Access
}

// Access is what the DynamicFile backend maps identities from: aws-iam-authenticator's own file format
// ({"mapRoles": [{"rolearn", "username", "groups"}], "mapUsers": [{"userarn", "username", "groups"}]}).
type Access = dynamicfile.DynamicFileData

// WebhookCacheTTL is how long the API server keeps an authenticated token's identity (kube-apiserver's
// --authentication-token-webhook-cache-ttl, 2m by default): short, so that an identity whose mapping is removed
// is refused within seconds.
const WebhookCacheTTL = "5s"

// authDir holds a control plane's authenticator files: config.yaml, the webhook kubeconfig, the server's
// certificate and key (state/) and the access file. Outside the kwokctl cluster's own directory, which kwokctl
// makes and removes itself.
func (c Clusters) authDir(name string) string {
	return filepath.Join(c.Workdir, "authenticators", name)
}

// Authenticates says whether control plane name was created with an Authentication.
func (c Clusters) Authenticates(name string) bool {
	_, err := os.Stat(filepath.Join(c.authDir(name), "config.yaml"))
	return err == nil
}

func (c Clusters) accessFile(name string) string {
	return filepath.Join(c.authDir(name), "access-entries.json")
}

func (c Clusters) webhookKubeconfig(name string) string {
	return filepath.Join(c.authDir(name), "webhook.kubeconfig")
}

// WriteAccess replaces the identities the control plane's DynamicFile backend maps (the cluster's access entries).
// The server reloads the file within about a second of the write. The file is rewritten in place, never replaced by
// a rename: the authenticator (v0.7.18, pkg/fileutil) watches the file's inode, and on a rename it drops the watch,
// waits a second, reads the file and only then watches the new one, so a second write inside that window would be
// lost for good (every token of that identity refused until the next write). In place, each write ends with a
// modify event after which the server reads the whole file; a read of a half-written file fails to parse and the
// server keeps the mapping it had until that event.
func (c Clusters) WriteAccess(name string, a Access) error {
	if a.RoleMappings == nil {
		a.RoleMappings = []config.RoleMapping{}
	}
	if a.UserMappings == nil {
		a.UserMappings = []config.UserMapping{}
	}
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(c.accessFile(name), data, 0o600)
}

// LockAccess serializes the writers of the control plane's access (every region's aws plugin and the harness's
// proxy sync it from the emulated cloud, in processes of their own): a writer that reads the cloud, then writes the
// file, under the lock, never replaces a newer access with an older one. It returns the unlock.
func (c Clusters) LockAccess(name string) (func(), error) {
	if err := os.MkdirAll(c.authDir(name), 0o700); err != nil {
		return nil, err
	}
	return flock(filepath.Join(c.authDir(name), "access.lock"))
}

// prepareAuthenticator writes the authenticator's configuration, its first access file (auth.Access), and (through the
// authenticator's own `init`) its serving certificate and the webhook kubeconfig the API server reads at start. It
// returns the authenticator's component and the API server's flags for kwokctl.
func (c Clusters) prepareAuthenticator(ctx context.Context, name string, auth Authentication) (component map[string]any, apiserverArgs []map[string]string, err error) {
	if auth.ClusterID == "" || len(auth.BackendModes) == 0 {
		return nil, nil, fmt.Errorf("control plane %s: authentication needs a cluster ID and backend modes", name)
	}
	dir := c.authDir(name)
	if err := os.MkdirAll(filepath.Join(dir, "state"), 0o700); err != nil {
		return nil, nil, err
	}
	port, err := freePort() // not another control plane's: Create holds theirs
	if err != nil {
		return nil, nil, err
	}
	server := map[string]any{
		"partition": "aws", "address": "127.0.0.1", "hostname": "127.0.0.1", "port": port,
		"stateDir": filepath.Join(dir, "state"), "generateKubeconfig": c.webhookKubeconfig(name),
		"kubeconfigPregenerated": true, "backendMode": auth.BackendModes,
		// EKSConfigMap reads aws-auth from the cluster as its administrator.
		"kubeconfig": c.Kubeconfig(name),
	}
	if slices.Contains(auth.BackendModes, "DynamicFile") {
		server["dynamicfilepath"] = c.accessFile(name)
		if err := c.WriteAccess(name, auth.Access); err != nil {
			return nil, nil, err
		}
	}
	conf, err := yaml.Marshal(map[string]any{"clusterID": auth.ClusterID, "server": server})
	if err != nil {
		return nil, nil, err
	}
	confPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(confPath, conf, 0o600); err != nil {
		return nil, nil, err
	}
	bin := filepath.Join(c.Bin, "aws-iam-authenticator")
	cmd := exec.CommandContext(ctx, bin, "init", "--config", confPath, "--feature-gates=ConfiguredInitDirectories=true")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("aws-iam-authenticator init: %w\n%s", err, strings.TrimSpace(string(out)))
	}
	component = map[string]any{
		"name":    "aws-iam-authenticator",
		"binary":  bin,
		"args":    []string{"server", "--config", confPath},
		"workDir": c.Dir(name), // kwokctl keeps a component's log in <workDir>/logs, as its own components'
		// The authenticator asks the instance metadata service for its region at start; there is none here.
		"envs": []map[string]string{{"name": "AWS_EC2_METADATA_DISABLED", "value": "true"}},
	}
	apiserverArgs = []map[string]string{
		{"key": "authentication-token-webhook-config-file", "value": c.webhookKubeconfig(name)},
		{"key": "authentication-token-webhook-version", "value": "v1beta1"}, // what the authenticator answers
		{"key": "authentication-token-webhook-cache-ttl", "value": WebhookCacheTTL},
	}
	return component, apiserverArgs, nil
}

// freePort is a loopback port free now, from the kernel's ephemeral range (32768 and up); kwokctl picks its
// components' ports downwards from 32767, so the two never pick the same.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
