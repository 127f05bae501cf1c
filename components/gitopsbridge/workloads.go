package gitopsbridge

import (
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// The workloads repository deploys applications onto the spokes; it is not the platform. Its project
// (WorkloadApplicationsProject) admits only the namespaced kinds applications are made of (WorkloadKinds: no
// SecretStore, which without auth reads AWS Secrets Manager as external-secrets' own role, no RBAC) and no
// namespace the platform or a tenant owns (WorkloadsReservedNamespaces): a Pod in kube-system, a Pod as an add-on's
// service account in its namespace (which carries the add-on's IAM role through Pod Identity), or anything in a
// tenant's namespace is refused by Argo CD, as is a Namespace object of one of those names, which a sync would
// otherwise adopt and a later commit prune.

// WorkloadKinds are the namespaced kinds an application's Applications may create (the workloads repository's
// project and, by default, a tenant's: Argo CD's namespaceResourceWhitelist, deny by default): Pods and their
// controllers (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob), Service, ConfigMap, Secret,
// ServiceAccount, PersistentVolumeClaim, HorizontalPodAutoscaler, PodDisruptionBudget and External Secrets'
// ExternalSecret (which reads through a SecretStore the platform made). No SecretStore, NetworkPolicy, quota, limit
// range, Role or RoleBinding: those are the platform's.
var WorkloadKinds = []GroupKind{
	{Group: "", Kind: "Pod"},
	{Group: "", Kind: "Service"},
	{Group: "", Kind: "ConfigMap"},
	{Group: "", Kind: "Secret"},
	{Group: "", Kind: "ServiceAccount"},
	{Group: "", Kind: "PersistentVolumeClaim"},
	{Group: "apps", Kind: "Deployment"},
	{Group: "apps", Kind: "StatefulSet"},
	{Group: "apps", Kind: "DaemonSet"},
	{Group: "apps", Kind: "ReplicaSet"},
	{Group: "batch", Kind: "Job"},
	{Group: "batch", Kind: "CronJob"},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"},
	{Group: "policy", Kind: "PodDisruptionBudget"},
	{Group: "external-secrets.io", Kind: "ExternalSecret"},
}

// WorkloadsReservedNamespaces are the namespaces (Argo CD globs) the workloads repository may not deploy into:
// Kubernetes' own (kube-*), Argo CD's and its Applications namespaces (<namespace>, <namespace>-*), every add-on's
// (addons.Namespaces), and hub.reservedNamespaces (the tenants'), sorted.
func WorkloadsReservedNamespaces(a GitOpsBridgeArgs) []string {
	out := []string{"kube-*", a.Namespace, a.Namespace + "-*"}
	out = append(out, addons.Namespaces()...)
	if a.Hub != nil {
		out = append(out, a.Hub.ReservedNamespaces...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// workloadsDenied are the project destinations that refuse the hub and the reserved namespaces on every cluster.
// Argo CD v3.5 (AppProject.isDestinationMatched) refuses a destination when an entry's negated name or server does
// not match it, and a negated namespace only in an entry whose server matches; such an entry also admits every
// other namespace of the servers it matches, so every cluster but the hub, which the entries naming the hub (its
// cluster secret's name, and the in-cluster server) refuse outright, whatever the namespace.
func workloadsDenied(hubName string, reserved []string) []ProjectDestination {
	out := []ProjectDestination{{Server: "!" + InClusterServer, Namespace: "*"}}
	if hubName != "" {
		out = append(out, ProjectDestination{Name: "!" + hubName, Namespace: "*"})
	}
	for _, n := range reserved {
		out = append(out, ProjectDestination{Server: "*", Namespace: "!" + n})
	}
	return out
}
