package gitopsbridge

// The Argo CD projects GitOpsBridge creates on a hub, one per path from Git into the fleet, so that whoever can
// write a repository gets only what that path is for (Argo CD's AppProject: source repositories, destinations
// and the kinds a sync may create).
const (
	// RegistryProject is the project of the registry Applications: the registry repository, Secrets in Argo
	// CD's namespace on the hub, nothing else.
	RegistryProject = "fleet-registry"
	// AddonsProject is the project of the add-ons repository's bootstrap Application: that repository and the
	// add-ons' chart repositories, the fleet's clusters.
	AddonsProject = "fleet-addons"
	// WorkloadsProject is the project of the workloads repository's bootstrap Application.
	WorkloadsProject = "fleet-workloads"
)

// AppProject is an Argo CD AppProject (argoproj.io/v1alpha1) as the product writes it.
type AppProject struct {
	// Name and Namespace (Argo CD's) of the project.
	Name, Namespace string
	// Description says what the project is for.
	Description string
	// SourceRepos are the repositories (URLs, Argo CD globs) its Applications may read.
	SourceRepos []string
	// Destinations are where its Applications may deploy.
	Destinations []ProjectDestination
	// ClusterResources are the cluster-scoped kinds a sync may create; none when empty (Argo CD denies every
	// cluster-scoped kind a project does not allow).
	ClusterResources []GroupKind
	// NamespaceResources are the only namespaced kinds a sync may create; every kind when nil.
	NamespaceResources []GroupKind
	// SignatureKeys are GPG key IDs; when set, Argo CD syncs only commits signed by one of them.
	SignatureKeys []string
}

// ProjectDestination is a cluster (by server URL or by name) and a namespace, each an Argo CD glob.
type ProjectDestination struct {
	Server, Name, Namespace string
}

// GroupKind is an API group ("" for core) and kind, each an Argo CD glob, and for a cluster-scoped kind
// optionally the objects' Name (a filepath.Match glob; every object when empty): Argo CD 3.4's
// ClusterResourceRestrictionItem.
type GroupKind struct {
	Group, Kind, Name string
}

// AnyKind allows every kind of every group.
var AnyKind = []GroupKind{{Group: "*", Kind: "*"}}

// Object is the project as a Kubernetes object.
func (p AppProject) Object() map[string]any {
	dests := make([]any, len(p.Destinations))
	for i, d := range p.Destinations {
		m := map[string]any{"namespace": d.Namespace}
		if d.Server != "" {
			m["server"] = d.Server
		}
		if d.Name != "" {
			m["name"] = d.Name
		}
		dests[i] = m
	}
	spec := map[string]any{
		"description":  p.Description,
		"sourceRepos":  anyList(p.SourceRepos),
		"destinations": dests,
		// An empty list, not an absent one: no cluster-scoped kind. Argo CD reads both the same way; the list
		// says so to a reader.
		"clusterResourceWhitelist": groupKinds(p.ClusterResources),
	}
	if p.NamespaceResources != nil {
		spec["namespaceResourceWhitelist"] = groupKinds(p.NamespaceResources)
	}
	if len(p.SignatureKeys) > 0 {
		keys := make([]any, len(p.SignatureKeys))
		for i, k := range p.SignatureKeys {
			keys[i] = map[string]any{"keyID": k}
		}
		spec["signatureKeys"] = keys
	}
	return map[string]any{
		"apiVersion": ArgoAPIVersion,
		"kind":       "AppProject",
		"metadata":   map[string]any{"name": p.Name, "namespace": p.Namespace},
		"spec":       spec,
	}
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func groupKinds(gks []GroupKind) []any {
	out := make([]any, len(gks))
	for i, gk := range gks {
		out[i] = map[string]any{"group": gk.Group, "kind": gk.Kind}
		if gk.Name != "" {
			out[i].(map[string]any)["name"] = gk.Name
		}
	}
	return out
}

// DefaultChartRepositories are the Helm chart repositories the add-on ApplicationSets of the GitOps Bridge
// control-plane template use (their addonChartRepository values at addons.TemplateRepository, the OCI ones as
// public.ecr.aws/<namespace>): the add-ons project's sources besides the add-ons repository.
var DefaultChartRepositories = []string{
	"https://argoproj.github.io/argo-helm",
	"https://aws.github.io/eks-charts",
	"https://aws.github.io/secrets-store-csi-driver-provider-aws",
	"https://cert-manager.github.io/aws-privateca-issuer",
	"https://charts.external-secrets.io",
	"https://charts.fairwinds.com/stable",
	"https://charts.jetstack.io",
	"https://gitops-bridge-dev.github.io/gitops-bridge-helm-charts",
	"https://kedacore.github.io/charts",
	"https://kubernetes-sigs.github.io/aws-efs-csi-driver",
	"https://kubernetes-sigs.github.io/aws-fsx-csi-driver",
	"https://kubernetes-sigs.github.io/cluster-proportional-autoscaler",
	"https://kubernetes-sigs.github.io/external-dns",
	"https://kubernetes-sigs.github.io/metrics-server",
	"https://kubernetes-sigs.github.io/secrets-store-csi-driver/charts",
	"https://kubernetes.github.io/autoscaler",
	"https://kubernetes.github.io/ingress-nginx",
	"https://kyverno.github.io/kyverno",
	"https://nvidia.github.io/gpu-operator",
	"https://open-policy-agent.github.io/gatekeeper/charts",
	"https://prometheus-community.github.io/helm-charts",
	"https://vmware-tanzu.github.io/helm-charts",
	"public.ecr.aws/aws-controllers-k8s",
	"public.ecr.aws/aws-application-networking-k8s",
	"public.ecr.aws/karpenter",
}

// HubProjects are the Argo CD projects of a hub (arguments with their defaults):
//   - fleet-registry (with git): sources the registry repository only; destination Argo CD's namespace on the
//     hub; no cluster-scoped kind; of namespaced kinds core Secret only. A registry commit can register a cluster,
//     nothing else (and the admission guard checks what the secret says).
//   - fleet-addons (with addonsRepo) and fleet-workloads (with workloadsRepo): sources the repository and
//     hub.chartRepositories; destinations the hub and the clusters of hub.fleetClusters by name, every
//     namespace. Add-ons install CRDs and cluster roles, so every cluster-scoped kind; workloads Namespaces only.
//
// hub.signatureKeys go on every one.
func HubProjects(a GitOpsBridgeArgs) []AppProject {
	h, ns := *a.Hub, a.Namespace
	var out []AppProject
	if a.Git != nil {
		out = append(out, AppProject{
			Name: RegistryProject, Namespace: ns,
			Description:        "Cluster secrets from the registry repository: Secrets in " + ns + " on the hub, nothing else",
			SourceRepos:        []string{a.Git.Target().RepoURL()},
			Destinations:       []ProjectDestination{{Server: InClusterServer, Namespace: ns}},
			NamespaceResources: []GroupKind{{Group: "", Kind: "Secret"}},
			SignatureKeys:      h.SignatureKeys,
		})
	}
	fleet := []ProjectDestination{{Server: InClusterServer, Namespace: "*"}}
	for _, c := range h.FleetClusters {
		fleet = append(fleet, ProjectDestination{Name: c, Namespace: "*"})
	}
	for _, r := range []struct {
		name, what string
		repo       *Repo
		cluster    []GroupKind
	}{
		{AddonsProject, "Add-ons", a.AddonsRepo, AnyKind},
		{WorkloadsProject, "Workloads", a.WorkloadsRepo, []GroupKind{{Group: "", Kind: "Namespace"}}},
	} {
		if r.repo == nil {
			continue
		}
		out = append(out, AppProject{
			Name: r.name, Namespace: ns,
			Description:      r.what + " of the fleet: " + r.repo.URL + " and its chart repositories, onto the fleet's clusters",
			SourceRepos:      append([]string{r.repo.URL}, h.ChartRepositories...),
			Destinations:     fleet,
			ClusterResources: r.cluster,
			SignatureKeys:    h.SignatureKeys,
		})
	}
	return out
}
