package gitopsbridge

import (
	"slices"
)

// The Argo CD projects GitOpsBridge creates on a hub, one per path from Git into the fleet, so that whoever can
// write a repository gets only what that path is for (Argo CD's AppProject: source repositories, source
// namespaces, destinations and the kinds a sync may create).
const (
	// RegistryProject is the project of the registry Applications: the registry repository, Secrets in Argo
	// CD's namespace on the hub, nothing else.
	RegistryProject = "fleet-registry"
	// AddonsProject is the project of the add-ons repository's bootstrap Application: that repository's
	// ApplicationSets into the add-ons' Applications namespace on the hub (ApplicationsNamespace), nothing else.
	AddonsProject = "fleet-addons"
	// WorkloadsProject is the project of the workloads repository's bootstrap Application: its ApplicationSets
	// into the workloads' Applications namespace on the hub, nothing else.
	WorkloadsProject = "fleet-workloads"
	// AddonApplicationsProject is the project of the Applications the add-ons repository's ApplicationSets
	// generate: Argo CD's own default project, which the GitOps Bridge control-plane template's ApplicationSets
	// name (project: default), written by the hub so that it is fenced: Applications from the add-ons'
	// Applications namespace only, the add-ons repository and its chart repositories, the fleet's spokes (the hub
	// only with hub.addonsOnHub). Without an add-ons repository it permits nothing.
	AddonApplicationsProject = "default"
	// WorkloadApplicationsProject is the project of the Applications the workloads repository's ApplicationSets
	// generate (their template names it): Applications from the workloads' Applications namespace only, the
	// workloads repository and the chart repositories, the fleet's spokes, Namespaces the only cluster-scoped kind.
	WorkloadApplicationsProject = "fleet-workloads-apps"
)

// gitPath is a repository whose ApplicationSets the hub bootstraps: the prefix of its keys in the hub's cluster
// secret (<prefix>_repo_*), the part naming its bootstrap ApplicationSet and its ApplicationsNamespace, its
// bootstrap project, its Applications' project and the cluster-scoped kinds they may create.
type gitPath struct {
	prefix, part, bootstrap, apps, what string
	cluster, clusterDenied              []GroupKind
}

// gitPaths are the add-ons' and the workloads' paths, in that order.
var gitPaths = []gitPath{
	{"addons", "addons", AddonsProject, AddonApplicationsProject, "Add-ons", AnyKind, AdmissionPolicyKinds},
	{"workload", "workloads", WorkloadsProject, WorkloadApplicationsProject, "Workloads", []GroupKind{{Group: "", Kind: "Namespace"}}, nil},
}

// AdmissionPolicyKinds are the kinds of Kubernetes' admission policies (admissionregistration.k8s.io: validating,
// the fleet's guards, and mutating, which could rewrite what the deployer writes before a guard that exempts the
// deployer reads it), with their bindings. The API server applies no admission policy or webhook to these
// objects, so no guard can protect another; the add-ons' project, the only fleet project with cluster-scoped kinds
// beyond Namespaces, denies them (Argo CD's clusterResourceBlacklist, which wins over the whitelist): a commit to
// the add-ons repository cannot write, change or prune a guard on the hub or on a spoke (the tenants' guards).
// None of the GitOps Bridge template's add-on charts ships one; admission webhooks, which several do, stay allowed.
var AdmissionPolicyKinds = []GroupKind{
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"},
}

// repo is the path's repository in a (nil when not given).
func (p gitPath) repo(a GitOpsBridgeArgs) *Repo {
	if p.part == "addons" {
		return a.AddonsRepo
	}
	return a.WorkloadsRepo
}

// givenPaths are the paths whose repository a gives.
func givenPaths(a GitOpsBridgeArgs) []gitPath {
	var out []gitPath
	for _, p := range gitPaths {
		if p.repo(a) != nil {
			out = append(out, p)
		}
	}
	return out
}

// ApplicationsNamespace is the namespace on the hub where a repository's ApplicationSets live and generate their
// Applications (Argo CD's Applications and ApplicationSets in any namespace): "<Argo CD's namespace>-addons" or
// "-workloads". Argo CD admits an Application outside its own namespace only into a project whose
// sourceNamespaces name its namespace, so an ApplicationSet there reaches that one project, whatever it says.
func ApplicationsNamespace(argocdNamespace, repo string) string { return argocdNamespace + "-" + repo }

// Upsert is the annotation that lets the hub's Kubernetes provider take over an object someone else created
// (pulumi-kubernetes' server-side apply, field conflicts forced): Argo CD's server creates project default when
// it starts, before the stack writes it.
var Upsert = map[string]string{"pulumi.com/patchForce": "true"}

// AppProject is an Argo CD AppProject (argoproj.io/v1alpha1) as the product writes it.
type AppProject struct {
	// Name and Namespace (Argo CD's) of the project.
	Name, Namespace string
	// Description says what the project is for: at most 255 bytes (the AppProject CRD's maxLength, chart 10.1.1),
	// so it names no repository URL or namespace list, whose lengths the user sets.
	Description string
	// SourceRepos are the repositories (URLs, Argo CD globs) its Applications may read.
	SourceRepos []string
	// Destinations are where its Applications may deploy.
	Destinations []ProjectDestination
	// ClusterResources are the cluster-scoped kinds a sync may create; none when empty (Argo CD denies every
	// cluster-scoped kind a project does not allow).
	ClusterResources []GroupKind
	// ClusterResourcesDenied are cluster-scoped kinds a sync may not create even where ClusterResources allows
	// them (Argo CD's clusterResourceBlacklist); none when empty.
	ClusterResourcesDenied []GroupKind
	// NamespaceResources are the only namespaced kinds a sync may create; every kind when nil.
	NamespaceResources []GroupKind
	// SignatureKeys are GPG key IDs; when set, Argo CD syncs only commits signed by one of them.
	SignatureKeys []string
	// SourceNamespaces are the namespaces besides Argo CD's whose Applications the project admits.
	SourceNamespaces []string
	// Annotations of the project object.
	Annotations map[string]string
}

// ProjectDestination is a cluster (by server URL or by name) and a namespace, each an Argo CD glob.
type ProjectDestination struct {
	Server, Name, Namespace string
}

// Object is the destination as an AppProject's destinations and an Application's destination spell it: namespace,
// and server or name where set.
func (d ProjectDestination) Object() map[string]any {
	m := map[string]any{"namespace": d.Namespace}
	if d.Server != "" {
		m["server"] = d.Server
	}
	if d.Name != "" {
		m["name"] = d.Name
	}
	return m
}

// HubDestination is where the fleet's own Applications on the hub deploy into namespace (the bootstrap and
// registry Applications, and the add-ons with hub.addonsOnHub), and what the hub's projects permit of it: the
// in-cluster server on a self-managed hub; on a managed hub (hub.mode managed) the hub's own cluster secret by
// name (hubName), since the managed Argo CD names every cluster, the hub too, by its EKS cluster ARN and takes no
// in-cluster server (EKS User Guide, "Register target clusters": the default kubernetes.default.svc "is not
// supported").
func HubDestination(a GitOpsBridgeArgs, hubName, namespace string) ProjectDestination {
	if a.Hub != nil && a.Hub.Managed() {
		return ProjectDestination{Name: hubName, Namespace: namespace}
	}
	return ProjectDestination{Server: InClusterServer, Namespace: namespace}
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
		dests[i] = d.Object()
	}
	spec := map[string]any{
		"description":  p.Description,
		"sourceRepos":  anyList(p.SourceRepos),
		"destinations": dests,
		// An empty list, not an absent one: no cluster-scoped kind. Argo CD reads both the same way; the list
		// says so to a reader.
		"clusterResourceWhitelist": groupKinds(p.ClusterResources),
	}
	if len(p.ClusterResourcesDenied) > 0 {
		spec["clusterResourceBlacklist"] = groupKinds(p.ClusterResourcesDenied)
	}
	if p.NamespaceResources != nil {
		spec["namespaceResourceWhitelist"] = groupKinds(p.NamespaceResources)
	}
	if len(p.SourceNamespaces) > 0 {
		spec["sourceNamespaces"] = anyList(p.SourceNamespaces)
	}
	if len(p.SignatureKeys) > 0 {
		keys := make([]any, len(p.SignatureKeys))
		for i, k := range p.SignatureKeys {
			keys[i] = map[string]any{"keyID": k}
		}
		spec["signatureKeys"] = keys
	}
	metadata := map[string]any{"name": p.Name, "namespace": p.Namespace}
	if len(p.Annotations) > 0 {
		annotations := map[string]any{}
		for k, v := range p.Annotations {
			annotations[k] = v
		}
		metadata["annotations"] = annotations
	}
	return map[string]any{
		"apiVersion": ArgoAPIVersion,
		"kind":       "AppProject",
		"metadata":   metadata,
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

// HubProjects are the Argo CD projects of a hub whose own cluster secret is named hubName (arguments with their
// defaults). Each path from Git reaches one project, and each project only what the path is for:
//   - fleet-registry (with git): sources the registry repository only; destination Argo CD's namespace on the
//     hub; no cluster-scoped kind; of namespaced kinds core Secret only. A registry commit can register a cluster,
//     nothing else (and the admission guard checks what the secret says).
//   - fleet-addons and fleet-workloads (with addonsRepo, workloadsRepo): the bootstrap Application's, which
//     syncs the repository's ApplicationSets: sources that repository; destination its ApplicationsNamespace on
//     the hub; of kinds argoproj.io ApplicationSet only. A commit cannot write an Application, an AppProject or
//     anything else, nor reach Argo CD's namespace.
//   - default (always; AddonApplicationsProject) and fleet-workloads-apps (with workloadsRepo): the Applications
//     the ApplicationSets generate, admitted from that ApplicationsNamespace only (sourceNamespaces); sources the
//     repository and hub.chartRepositories; destinations the clusters of hub.fleetClusters by name, every
//     namespace, never the hub (hubName is left out), except for add-ons with hub.addonsOnHub (every namespace of
//     the hub but Argo CD's). Add-ons install CRDs and cluster roles, so every cluster-scoped kind but the
//     admission policies and their bindings (AdmissionPolicyKinds); workloads Namespaces only, of namespaced kinds
//     WorkloadKinds only, and no namespace of WorkloadsReservedNamespaces (workloadsDenied), neither as a destination
//     nor as a Namespace object. Without an add-ons repository default permits nothing.
//
// hub.signatureKeys go on every one.
func HubProjects(a GitOpsBridgeArgs, hubName string) []AppProject {
	h, ns := *a.Hub, a.Namespace
	var out []AppProject
	if a.Git != nil {
		out = append(out, AppProject{
			Name: RegistryProject, Namespace: ns,
			Description:        "Cluster secrets from the registry repository: Secrets in " + ns + " on the hub, nothing else",
			SourceRepos:        []string{a.Git.Target().RepoURL()},
			Destinations:       []ProjectDestination{HubDestination(a, hubName, ns)},
			NamespaceResources: []GroupKind{{Group: "", Kind: "Secret"}},
			SignatureKeys:      h.SignatureKeys,
		})
	}
	var spokes []ProjectDestination
	for _, c := range h.FleetClusters {
		if c != hubName {
			spokes = append(spokes, ProjectDestination{Name: c, Namespace: "*"})
		}
	}
	for _, r := range givenPaths(a) {
		repo, onHub := r.repo(a), r.part == "addons" && h.AddonsOnHub
		apps := ApplicationsNamespace(ns, r.part)
		out = append(out, AppProject{
			Name: r.bootstrap, Namespace: ns,
			Description:        r.what + " bootstrap: the ApplicationSets of its repository (sourceRepos) into " + apps + " on the hub, nothing else",
			SourceRepos:        []string{repo.URL},
			Destinations:       []ProjectDestination{HubDestination(a, hubName, apps)},
			NamespaceResources: []GroupKind{{Group: "argoproj.io", Kind: "ApplicationSet"}},
			SignatureKeys:      h.SignatureKeys,
		})
		dests := slices.Clone(spokes)
		onto := "the fleet's spokes"
		if onHub {
			dests = append([]ProjectDestination{HubDestination(a, hubName, "!"+ns)}, dests...)
			onto += " and the hub (every namespace but " + ns + ")"
		}
		kinds, clusterDenied := []GroupKind(nil), r.clusterDenied
		if r.part == "workloads" {
			reserved := WorkloadsReservedNamespaces(a)
			dests = append(dests, workloadsDenied(hubName, reserved)...)
			kinds = WorkloadKinds
			for _, n := range reserved {
				clusterDenied = append(clusterDenied, GroupKind{Group: "", Kind: "Namespace", Name: n})
			}
			onto += ", none of the reserved namespaces (kube-*, Argo CD's, the add-ons', the tenants')"
		}
		out = append(out, AppProject{
			Name: r.apps, Namespace: ns,
			Description: r.what + " of the fleet: the Applications of " + apps + ", from its repository and chart " +
				"repositories (sourceRepos), onto " + onto,
			SourceNamespaces:       []string{apps},
			SourceRepos:            append([]string{repo.URL}, h.ChartRepositories...),
			Destinations:           dests,
			ClusterResources:       r.cluster,
			ClusterResourcesDenied: clusterDenied,
			NamespaceResources:     kinds,
			SignatureKeys:          h.SignatureKeys,
			Annotations:            upsert(r.apps),
		})
	}
	if a.AddonsRepo == nil {
		out = append(out, AppProject{
			Name: AddonApplicationsProject, Namespace: ns,
			Description: "Argo CD's default project, fenced: no add-ons repository, so it permits nothing",
			// Not nil: an empty whitelist of namespaced kinds admits none (nil admits every one).
			NamespaceResources: []GroupKind{},
			Annotations:        Upsert,
		})
	}
	return out
}

// upsert are the annotations of a project the hub writes: Upsert for Argo CD's default project, none otherwise.
func upsert(name string) map[string]string {
	if name == AddonApplicationsProject {
		return Upsert
	}
	return nil
}
