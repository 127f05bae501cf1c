package tenant

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// TenantWorkloads is where a tenant's Applications come from: a folder per cluster, <path>/<cluster>, of a repository.
type TenantWorkloads struct {
	// URL of the repository, for example "https://github.com/acme/payments-deploy".
	URL string `pulumi:"url"`
	// Path is the folder that holds a folder per cluster, for example "clusters".
	Path string `pulumi:"path"`
	// Revision is the branch, tag or commit. Default: "HEAD".
	Revision string `pulumi:"revision,optional"`
}

// ApplicationSet is the spec of the tenant's ApplicationSet on the hub: a cluster generator over the selected
// clusters' secrets (by their cluster_name label; decommissioned clusters left out), one Application per cluster
// in the tenant's project, reading <path>/<cluster> of the workloads repository into the tenant's first
// namespace (its manifests may name the tenant's other namespaces), pruned and self-healed.
func ApplicationSet(t TenantSpec, clusters []string, w TenantWorkloads) map[string]any {
	revision := w.Revision
	if revision == "" {
		revision = "HEAD"
	}
	return map[string]any{
		"goTemplate":        true,
		"goTemplateOptions": []any{"missingkey=error"},
		"generators":        clusterGenerator(clusters, gitopsbridge.DecommissionRequirement),
		"template": map[string]any{
			"metadata": map[string]any{"name": t.Name + "-{{.name}}",
				"finalizers": []any{"resources-finalizer.argocd.argoproj.io"}},
			"spec": map[string]any{
				"project": ProjectName(t.Name),
				"source": map[string]any{"repoURL": w.URL, "targetRevision": revision,
					"path": w.Path + "/{{.name}}", "directory": map[string]any{"recurse": true}},
				"destination": map[string]any{"name": "{{.name}}", "namespace": t.Namespaces[0].Name},
				"syncPolicy":  map[string]any{"automated": map[string]any{"prune": true, "selfHeal": true}},
			},
		},
	}
}

// clusterGenerator is an ApplicationSet's generators: a cluster generator over the secrets of the named clusters (by
// their cluster_name label), with more requirements when given.
func clusterGenerator(clusters []string, more ...any) []any {
	names := make([]any, len(clusters))
	for i, c := range clusters {
		names[i] = c
	}
	expressions := append([]any{map[string]any{"key": "cluster_name", "operator": "In", "values": names}}, more...)
	return []any{map[string]any{"clusters": map[string]any{"selector": map[string]any{
		"matchLabels":      map[string]any{gitopsbridge.SecretTypeLabel: "cluster"},
		"matchExpressions": expressions,
	}}}}
}
