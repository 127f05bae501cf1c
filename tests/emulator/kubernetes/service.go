package kubernetes

import (
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"sigs.k8s.io/yaml"
)

// Version is the pulumi-kubernetes version the plugin reports.
const Version = "4.33.0"

// InCluster is the scope of objects created by a provider without a kubeconfig.
const InCluster = "in-cluster"

// ReleaseType is the type token of a Helm release.
const ReleaseType = "kubernetes:helm.sh/v3:Release"

// Service is the emulated Kubernetes.
func Service() emulator.Service {
	return emulator.Service{
		Package: "kubernetes",
		Version: Version,
		Scope:   func(config property.Map) string { return Server(emulator.Str(config, "kubeconfig")) },
		// Objects are per API server: the hub's and a spoke's "payments" namespace are two.
		ScopedIDs: true,
		Kinds:     map[string]emulator.Kind{ReleaseType: release},
		Default:   object,
		Invokes:   map[string]emulator.InvokeFunc{},
		Construct: Construct,
	}
}

// kubeconfig is the part of a kubeconfig (YAML or JSON) that says which server it talks to.
type kubeconfig struct {
	CurrentContext string `json:"current-context"`
	Contexts       []struct {
		Name    string `json:"name"`
		Context struct {
			Cluster string `json:"cluster"`
		} `json:"context"`
	} `json:"contexts"`
	Clusters []struct {
		Name    string `json:"name"`
		Cluster struct {
			Server string `json:"server"`
		} `json:"cluster"`
	} `json:"clusters"`
}

// Server is the API server URL of a kubeconfig's current context (else its first cluster), or InCluster.
func Server(config string) string {
	var kc kubeconfig
	if strings.TrimSpace(config) == "" || yaml.Unmarshal([]byte(config), &kc) != nil || len(kc.Clusters) == 0 {
		return InCluster
	}
	cluster := kc.Clusters[0].Name
	for _, c := range kc.Contexts {
		if c.Name == kc.CurrentContext {
			cluster = c.Context.Cluster
		}
	}
	for _, c := range kc.Clusters {
		if c.Name == cluster {
			return c.Cluster.Server
		}
	}
	return kc.Clusters[0].Cluster.Server
}

// object is any Kubernetes object: metadata.name is generated when left out (as pulumi-kubernetes does), the
// ID is "<namespace>/<name>", and the server adds uid, resourceVersion and creationTimestamp.
var object = emulator.Kind{
	AutoName: func(olds, news property.Map, name, suffix string) property.Map {
		meta := news.Get("metadata")
		if !meta.IsMap() || meta.AsMap().Get("name").IsString() {
			return news
		}
		generated := name + "-" + suffix
		if old := olds.Get("metadata"); old.IsMap() && old.AsMap().Get("name").IsString() {
			generated = old.AsMap().Get("name").AsString()
		}
		return news.Set("metadata", property.New(meta.AsMap().Set("name", property.New(generated))))
	},
	ID: func(c emulator.Call) string {
		meta := c.Inputs.Get("metadata")
		if !meta.IsMap() {
			return c.Name
		}
		name, ns := emulator.Str(meta.AsMap(), "name"), emulator.Str(meta.AsMap(), "namespace")
		if ns == "" {
			return name
		}
		return ns + "/" + name
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		meta := map[string]any{}
		if m, ok := emulator.Plain(c.Inputs, "metadata").(map[string]any); ok {
			meta = m
		}
		meta["uid"] = emulator.UUID()
		meta["resourceVersion"] = "1"
		meta["creationTimestamp"] = "2026-01-01T00:00:00Z"
		return map[string]any{"metadata": meta}
	},
}

// release is a Helm release: deployed at revision 1 with the chart and version asked for.
var release = emulator.Kind{
	AutoName: emulator.AutoNameKey("name"),
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "namespace") + "/" + emulator.Str(c.Inputs, "name")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		return map[string]any{"status": map[string]any{
			"name": emulator.Str(c.Inputs, "name"), "namespace": emulator.Str(c.Inputs, "namespace"),
			"chart": emulator.Str(c.Inputs, "chart"), "version": emulator.Str(c.Inputs, "version"),
			"appVersion": emulator.Str(c.Inputs, "version"), "revision": 1, "status": "deployed",
		}}
	},
	Replaces: []string{"name", "namespace"},
}
