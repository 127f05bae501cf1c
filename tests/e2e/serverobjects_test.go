package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/kubernetes"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// stateObject is a Kubernetes object the stack's state holds: its kind, name and namespace as the provider
// reported them, and the control plane its provider wrote it to.
type stateObject struct {
	apiVersion, kind, namespace, name string
	// server is the cluster endpoint of its provider's kubeconfig; cluster the cluster behind it.
	server  string
	cluster *fleettest.Cluster
}

// stateObjects are the Kubernetes objects (not Helm releases, not patches) in the state of s, each with the
// control plane its provider's kubeconfig points at, read from `pulumi stack export --show-secrets`.
func stateObjects(env *fleettest.Env, s *fleettest.Stack) []stateObject {
	t := env.T()
	t.Helper()
	_, deployment := s.Export(true)
	servers := map[string]string{} // provider reference (URN::ID) -> server
	for _, r := range deployment.Resources {
		if r.Type == "pulumi:providers:kubernetes" {
			servers[string(r.URN)+"::"+r.ID.String()] = kubernetes.Server(revealed(r.Inputs["kubeconfig"]))
		}
	}
	var out []stateObject
	for _, r := range deployment.Resources {
		typ := string(r.Type)
		if !strings.HasPrefix(typ, "kubernetes:") || strings.HasPrefix(typ, "kubernetes:helm.sh/") ||
			strings.HasSuffix(typ, "Patch") || r.Custom == false {
			continue
		}
		meta, _ := r.Outputs["metadata"].(map[string]any)
		o := stateObject{kind: fmt.Sprint(r.Outputs["kind"]), apiVersion: fmt.Sprint(r.Outputs["apiVersion"]),
			server: servers[r.Provider]}
		o.name, _ = meta["name"].(string)
		o.namespace, _ = meta["namespace"].(string)
		name, region, err := aws.ClusterAt(env.Cloud().Store(), o.server)
		if err != nil || name == "" {
			t.Fatalf("%s %s: its provider's server %q is no cluster's (%v)", o.kind, o.name, o.server, err)
		}
		o.cluster = env.ClusterIn(region, name)
		out = append(out, o)
	}
	return out
}

// revealed is a string input as `stack export --show-secrets` writes it: plain, or a secret's object whose
// plaintext is the JSON of the value.
func revealed(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		var s string
		if plaintext, ok := v["plaintext"].(string); ok && json.Unmarshal([]byte(plaintext), &s) == nil {
			return s
		}
	}
	return ""
}

// get reads the object from its control plane.
func (o stateObject) get(ctx context.Context, env *fleettest.Env) (*unstructured.Unstructured, error) {
	disco, err := discovery.NewDiscoveryClientForConfig(o.cluster.Admin())
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(o.apiVersion)
	if err != nil {
		return nil, err
	}
	mapping, err := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disco)).
		RESTMapping(gv.WithKind(o.kind).GroupKind(), gv.Version)
	if err != nil {
		return nil, err
	}
	return o.cluster.Dynamic().Resource(mapping.Resource).Namespace(o.namespace).Get(ctx, o.name, metav1.GetOptions{})
}
