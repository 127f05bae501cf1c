package tenant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"
)

// With Git delivery a tenant's in-cluster objects reach its clusters the GitOps Bridge way: one file per selected
// cluster in the tenant's folder of the registry repository, synced by an ApplicationSet on the hub in a project
// that may write nothing else.

// Folder is the tenant's folder of the registry repository: tenants/<tenant>.
func Folder(tenant string) string { return "tenants/" + tenant }

// FilePath is the file of a tenant's objects on one cluster: tenants/<tenant>/<cluster>.yaml.
func FilePath(tenant, cluster string) string { return Folder(tenant) + "/" + cluster + ".yaml" }

// PlatformProjectName is the Argo CD project that syncs a tenant's folder: tenant-<tenant>-platform.
func PlatformProjectName(tenant string) string { return ProjectName(tenant) + "-platform" }

// PlatformSetName is the ApplicationSet that syncs a tenant's folder: <tenant>-platform; its Applications are
// <tenant>-platform-<cluster>.
func PlatformSetName(tenant string) string { return tenant + "-platform" }

// NamespacedKinds are the namespaced kinds of a tenant's files (Manifests): what the platform project allows.
var NamespacedKinds = []gitopsbridge.GroupKind{
	{Group: "", Kind: "ResourceQuota"},
	{Group: "", Kind: "LimitRange"},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"},
	{Group: "", Kind: "ServiceAccount"},
	{Group: "external-secrets.io", Kind: "SecretStore"},
}

// File is the content of a tenant's file for one cluster: every namespace's Manifests (ids[namespace] the IRSA
// role ARNs of its service accounts), as YAML documents each starting with "---", in apply order.
func File(t TenantSpec, ids map[string]Identities, secrets bool, region string) (string, error) {
	var b strings.Builder
	for _, n := range t.Namespaces {
		objects, err := Manifests(t, n, ids[n.Name], secrets, region)
		if err != nil {
			return "", err
		}
		for _, o := range objects {
			doc, err := yaml.Marshal(o)
			if err != nil {
				return "", err
			}
			b.WriteString("---\n")
			b.Write(doc)
		}
	}
	return b.String(), nil
}

// fileContent is File for target c once the role ARNs of its IRSA service accounts are known.
func fileContent(t TenantSpec, c Target, arns map[string]roleArns) pulumi.StringOutput {
	type key struct{ namespace, serviceAccount string }
	var keys []key
	var outputs []any
	for _, n := range t.Namespaces {
		names := make([]string, 0, len(arns[n.Name]))
		for sa := range arns[n.Name] {
			names = append(names, sa)
		}
		slices.Sort(names)
		for _, sa := range names {
			keys, outputs = append(keys, key{n.Name, sa}), append(outputs, arns[n.Name][sa])
		}
	}
	return pulumi.All(outputs...).ApplyT(func(values []any) (string, error) {
		ids := map[string]Identities{}
		for i, k := range keys {
			if ids[k.namespace] == nil {
				ids[k.namespace] = Identities{}
			}
			ids[k.namespace][k.serviceAccount] = values[i].(string)
		}
		return File(t, ids, c.ExternalSecrets, c.Region)
	}).(pulumi.StringOutput)
}

// PlatformProject is the project of the tenant's folder on the hub, in Argo CD's namespace: the registry
// repository only; destinations each selected cluster (by name) times each of the tenant's namespaces; of
// cluster-scoped kinds the tenant's Namespaces by name only; of namespaced kinds NamespacedKinds only. A commit
// to the folder can shape the tenant's namespaces, nothing else.
func PlatformProject(t TenantSpec, clusters []string, repoURL, argocdNamespace string) map[string]any {
	var dests []gitopsbridge.ProjectDestination
	var namespaces []gitopsbridge.GroupKind
	for _, n := range t.Namespaces {
		namespaces = append(namespaces, gitopsbridge.GroupKind{Group: "", Kind: "Namespace", Name: n.Name})
	}
	for _, c := range clusters {
		for _, n := range t.Namespaces {
			dests = append(dests, gitopsbridge.ProjectDestination{Name: c, Namespace: n.Name})
		}
	}
	return gitopsbridge.AppProject{
		Name: PlatformProjectName(t.Name), Namespace: argocdNamespace,
		Description: fmt.Sprintf("Tenant %s: its namespaces, quotas, limits, network policies and service accounts "+
			"from %s", t.Name, Folder(t.Name)),
		SourceRepos:        []string{repoURL},
		Destinations:       dests,
		ClusterResources:   namespaces,
		NamespaceResources: NamespacedKinds,
	}.Object()
}

// PlatformApplicationSet is the spec of the ApplicationSet that syncs the tenant's folder: a cluster generator
// over the selected clusters' secrets (by their cluster_name label; decommissioned ones too, whose namespaces stay
// until the tenant lets them go), one Application per cluster in the platform project reading the cluster's file
// (FilePath) at target's branch, pruned and self-healed, with the resources finalizer: a cluster the tenant no
// longer selects, or a removed tenant, loses its objects.
func PlatformApplicationSet(t TenantSpec, clusters []string, target gitopsbridge.GitHubTarget) map[string]any {
	return map[string]any{
		"goTemplate":        true,
		"goTemplateOptions": []any{"missingkey=error"},
		"generators":        clusterGenerator(clusters),
		"template": map[string]any{
			"metadata": map[string]any{"name": PlatformSetName(t.Name) + "-{{.name}}",
				"finalizers": []any{"resources-finalizer.argocd.argoproj.io"}},
			"spec": map[string]any{
				"project": PlatformProjectName(t.Name),
				"source": map[string]any{"repoURL": target.RepoURL(), "targetRevision": target.Branch,
					"path": Folder(t.Name), "directory": map[string]any{"include": "{{.name}}.yaml"}},
				"destination": map[string]any{"name": "{{.name}}", "namespace": t.Namespaces[0].Name},
				"syncPolicy":  map[string]any{"automated": map[string]any{"prune": true, "selfHeal": true}},
			},
		},
	}
}
