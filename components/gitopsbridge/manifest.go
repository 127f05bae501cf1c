package gitopsbridge

import "sigs.k8s.io/yaml"

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
}

// StringData is the secret's data: name, server and config.
func (s ClusterSecret) StringData() map[string]string {
	return map[string]string{"name": s.ClusterName, "server": s.Server, "config": s.Config}
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
