package controlplane

import (
	"path/filepath"
	"slices"

	"sigs.k8s.io/yaml"
)

// config is the KwokctlConfiguration of every control plane: binary runtime, the binaries of Bin and nothing
// downloaded, secure serving with RBAC and the default admission plugins on loopback only, and kwok's default
// stages (nodes ready with leases, pods ready, Jobs' pods complete), each component made cheap to leave idle
// (idle). The authenticator, when given, runs as one more component, and the API server takes tokens through it
// (prepareAuthenticator).
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
	}
	conf["componentsPatches"] = idle(apiserverArgs)
	data, err := yaml.Marshal(conf)
	if err != nil {
		panic(err) // maps of strings, numbers and bools always marshal
	}
	return data
}

// vapStatus is the controller manager's controller that type-checks every ValidatingAdmissionPolicy against the
// schemas of the kinds it matches and writes the warnings to the policy's status.typeChecking: informational only
// (the API server compiles and enforces a policy without it), and read by nothing in the fleet. What it would write
// is asserted instead: tests/contract's TestGuardsTypeCheck runs its checker over every guard, and wants none. It
// took most of a controller manager's CPU in a run: each `up` that updates a guard has it check the guard again
// (measured on TestDevFleet, 2026-11-30: the 6 controller managers 42 to 46 CPU-seconds with it, 4.3 without; perf
// put 70% of their CPU in its CEL type check).
const vapStatus = "validatingadmissionpolicy-status-controller"

// idle is the components' patches that make a control plane cheap while it waits, which it mostly does: a run keeps
// a dozen or more up at once on two cores. Each component runs on one processor (GOMAXPROCS=1: fewer threads
// spinning for work that rarely comes); the controller manager and the scheduler, alone in their control plane, do
// not elect a leader (no Lease renewed every 2 s, each a write to etcd and an event to every watcher); the API server
// serves lists and watches from etcd instead of its watch cache (no cacher per resource waking every second). Idle,
// a control plane so took 1.1 CPU-seconds a minute instead of 2.9 (measured over 60 s, kube 1.33, kwok 0.8). The
// controller manager runs every controller but vapStatus. The API server also gets extra, its authentication flags.
func idle(extra []map[string]string) []any {
	one := []map[string]string{{"name": "GOMAXPROCS", "value": "1"}}
	noLeader := []map[string]string{{"key": "leader-elect", "value": "false"}}
	return []any{
		map[string]any{"name": "etcd", "extraEnvs": one},
		map[string]any{"name": "kube-apiserver", "extraEnvs": one,
			"extraArgs": append([]map[string]string{{"key": "watch-cache", "value": "false"}}, extra...)},
		map[string]any{"name": "kube-controller-manager", "extraEnvs": one,
			"extraArgs": append(slices.Clone(noLeader), map[string]string{"key": "controllers", "value": "*,-" + vapStatus})},
		map[string]any{"name": "kube-scheduler", "extraEnvs": one, "extraArgs": noLeader},
		map[string]any{"name": "kwok-controller", "extraEnvs": one},
	}
}
