package controlplane

import (
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// config is the KwokctlConfiguration of every control plane: binary runtime, the binaries of Bin and nothing
// downloaded, secure serving with RBAC and the default admission plugins on loopback only, and kwok's default
// stages (nodes ready with leases, pods ready, Jobs' pods complete). The authenticator, when given, runs as one
// more component, and the API server takes tokens through it (prepareAuthenticator).
func (c Clusters) config(authenticator map[string]any, apiserverArgs []map[string]string) []byte {
	bin := func(name string) string { return filepath.Join(c.Bin, name) }
	conf := map[string]any{
		"apiVersion": "config.kwok.x-k8s.io/v1alpha1",
		"kind":       "KwokctlConfiguration",
		"options": map[string]any{
			"runtime":                     "binary",
			"kubeVersion":                 KubeVersion,
			"etcdVersion":                 EtcdVersion,
			"securePort":                  true,
			"bindAddress":                 "127.0.0.1",
			"quietPull":                   true,
			"kubeBinaryPrefix":            c.Bin,
			"kubeApiserverBinary":         bin("kube-apiserver"),
			"kubeControllerManagerBinary": bin("kube-controller-manager"),
			"kubeSchedulerBinary":         bin("kube-scheduler"),
			"kubectlBinary":               bin("kubectl"),
			"kwokControllerBinary":        bin("kwok"),
			"etcdBinary":                  bin("etcd"),
			// etcdctl and etcdutl are only for kwokctl's snapshots, which the offline cloud never takes; naming
			// etcd keeps their defaults (a download) out of the configuration.
			"etcdctlBinary": bin("etcd"),
			"etcdutlBinary": bin("etcd"),
		},
	}
	if authenticator != nil {
		conf["components"] = []any{authenticator}
		conf["componentsPatches"] = []any{map[string]any{"name": "kube-apiserver", "extraArgs": apiserverArgs}}
	}
	data, err := yaml.Marshal(conf)
	if err != nil {
		panic(err) // maps of strings, numbers and bools always marshal
	}
	return data
}
