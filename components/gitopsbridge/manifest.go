package gitopsbridge

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"sigs.k8s.io/yaml"
)

// ClusterSecret is the Argo CD cluster secret as a plain value, the single source of both the Kubernetes
// Secret the component writes and the manifest it commits to Git.
type ClusterSecret struct {
	Name        string
	Namespace   string
	Labels      map[string]string
	Annotations map[string]string
	// Server is the API server URL; Config the ClusterConfig JSON.
	Server string
	Config string
	// ClusterName is the name Argo CD shows.
	ClusterName string
	// Shard is the application controller replica that manages the cluster (decimal), "" for none.
	Shard string
}

// StringData is the secret's data: name, server and config, and shard when it has one.
func (s ClusterSecret) StringData() map[string]string {
	data := map[string]string{"name": s.ClusterName, "server": s.Server, "config": s.Config}
	if s.Shard != "" {
		data["shard"] = s.Shard
	}
	return data
}

// YAML renders the Secret manifest. Keys are sorted at every level (sigs.k8s.io/yaml marshals through
// JSON), so the same secret always gives the same text.
func (s ClusterSecret) YAML() string {
	manifest := map[string]any{
		"apiVersion": "v1",
		"kind":       "Secret",
		"type":       "Opaque",
		"metadata": map[string]any{
			"name":        s.Name,
			"namespace":   s.Namespace,
			"labels":      s.Labels,
			"annotations": s.Annotations,
		},
		"stringData": s.StringData(),
	}
	out, err := yaml.Marshal(manifest)
	if err != nil {
		panic(err) // maps of strings only: cannot fail
	}
	return string(out)
}

// ParseClusterSecret reads a cluster secret's manifest as YAML renders it (a GitOpsBridge's manifest output): a v1
// Secret whose stringData holds exactly name, server and config (and shard, a controller replica's number),
// labelled argocd.argoproj.io/secret-type: cluster.
func ParseClusterSecret(manifest string) (ClusterSecret, error) {
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Type       string `json:"type"`
		Metadata   struct {
			Name        string            `json:"name"`
			Namespace   string            `json:"namespace"`
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		StringData map[string]string `json:"stringData"`
	}
	if err := yaml.UnmarshalStrict([]byte(manifest), &m); err != nil {
		return ClusterSecret{}, fmt.Errorf("not a cluster secret's manifest: %w", err)
	}
	switch {
	case m.APIVersion != "v1" || m.Kind != "Secret":
		return ClusterSecret{}, fmt.Errorf("a cluster secret is a v1 Secret, not %s %s", m.APIVersion, m.Kind)
	case m.Type != "" && m.Type != "Opaque":
		return ClusterSecret{}, fmt.Errorf("a cluster secret is of type Opaque, not %s", m.Type)
	case m.Metadata.Name == "":
		return ClusterSecret{}, fmt.Errorf("the manifest has no metadata.name")
	case m.Metadata.Labels[SecretTypeLabel] != "cluster":
		return ClusterSecret{}, fmt.Errorf("secret %s is not labelled %s: cluster", m.Metadata.Name, SecretTypeLabel)
	case len(m.StringData) != len(ClusterSecret{Shard: m.StringData["shard"]}.StringData()) || m.StringData["name"] == "" ||
		m.StringData["server"] == "" || m.StringData["config"] == "":
		return ClusterSecret{}, fmt.Errorf("secret %s's stringData holds %v, not exactly name, server and config "+
			"(and shard)", m.Metadata.Name, slices.Sorted(maps.Keys(m.StringData)))
	}
	if shard, ok := m.StringData["shard"]; ok {
		if n, err := strconv.Atoi(shard); err != nil || n < 0 || strconv.Itoa(n) != shard {
			return ClusterSecret{}, fmt.Errorf("secret %s's shard %q is not a controller replica (0, 1, ...)",
				m.Metadata.Name, shard)
		}
	}
	return ClusterSecret{Name: m.Metadata.Name, Namespace: m.Metadata.Namespace, Labels: m.Metadata.Labels,
		Annotations: m.Metadata.Annotations, ClusterName: m.StringData["name"], Server: m.StringData["server"],
		Config: m.StringData["config"], Shard: m.StringData["shard"]}, nil
}
