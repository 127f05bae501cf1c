package gitopsbridge

import (
	"maps"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// SecretTypeLabel marks a Secret as an Argo CD cluster secret (Argo CD declarative setup).
const SecretTypeLabel = "argocd.argoproj.io/secret-type"

// DecommissionLabel marks the cluster secret of a cluster being decommissioned ("true"). Workload
// ApplicationSets select clusters with the requirement DecommissionRequirement, so they drop it.
const DecommissionLabel = "fleet_decommission"

// DecommissionRequirement is the label selector requirement (Kubernetes LabelSelectorRequirement, as an
// ApplicationSet cluster generator's matchExpressions takes it) that leaves decommissioned clusters out.
var DecommissionRequirement = map[string]any{"key": DecommissionLabel, "operator": "NotIn", "values": []any{"true"}}

// AddonLabel is the label that enables or disables an add-on on a cluster: enable_<addon> (GitOps Bridge).
func AddonLabel(addon string) string { return addons.EnableLabel(addon) }

// Labels are the cluster secret's labels, the ones the GitOps Bridge ApplicationSets select clusters by: the
// Argo CD secret type, cluster_name, environment, kubernetes_version, the cluster's wave (WaveLabel),
// enable_<addon>: "true"|"false" for every add-on given, and the metadata keys that selectors test too
// (addons.LabelKeys: aws_cluster_name, which the aws/ cert-manager and Velero sets require and the OSS cert-manager
// set requires absent).
func Labels(clusterName, environment, kubernetesVersion string, wave int, enabled map[string]bool,
	metadata map[string]string,
) map[string]string {
	l := map[string]string{
		SecretTypeLabel:      "cluster",
		"cluster_name":       clusterName,
		"environment":        environment,
		"kubernetes_version": kubernetesVersion,
		WaveLabel:            WaveValue(wave),
	}
	for addon, on := range enabled {
		l[AddonLabel(addon)] = map[bool]string{true: "true", false: "false"}[on]
	}
	for _, k := range addons.LabelKeys {
		if v, ok := metadata[k]; ok {
			l[k] = v
		}
	}
	return l
}

// Repo is a Git repository Argo CD reads: ApplicationSets for add-ons or workloads.
type Repo struct {
	// URL of the repository, for example "https://github.com/acme/gitops-addons".
	URL string `pulumi:"url"`
	// BasePath is the folder that holds everything of this repository's kind, for example "addons/". Default: "".
	BasePath string `pulumi:"basePath,optional"`
	// Path is the folder, under BasePath, the bootstrap Application reads, for example "bootstrap/control-plane/addons".
	Path string `pulumi:"path"`
	// Revision is the branch, tag or commit. Default: "HEAD".
	Revision string `pulumi:"revision,optional"`
}

// repoAnnotations are the gitops-bridge keys of a repository: <prefix>_repo_url, _basepath, _path, _revision.
func repoAnnotations(prefix string, r *Repo) map[string]string {
	if r == nil {
		return nil
	}
	rev := r.Revision
	if rev == "" {
		rev = "HEAD"
	}
	return map[string]string{
		prefix + "_repo_url":      r.URL,
		prefix + "_repo_basepath": r.BasePath,
		prefix + "_repo_path":     r.Path,
		prefix + "_repo_revision": rev,
	}
}

// Annotations are the cluster secret's annotations, later sources winning: the cluster's GitOps Bridge
// metadata, then the addons_repo_* and workload_repo_* keys of the repositories, then the user's metadata.
func Annotations(clusterMetadata, metadata map[string]string, addonsRepo, workloadsRepo *Repo) map[string]string {
	a := map[string]string{}
	maps.Copy(a, clusterMetadata)
	maps.Copy(a, repoAnnotations("addons", addonsRepo))
	maps.Copy(a, repoAnnotations("workload", workloadsRepo))
	maps.Copy(a, metadata)
	return a
}
