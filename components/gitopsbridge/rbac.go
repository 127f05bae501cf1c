package gitopsbridge

// rule is one RBAC policy rule as the chart's clusterRoleRules take it.
func rule(groups, resources, verbs []string) map[string]any {
	return map[string]any{"apiGroups": anyList(groups), "resources": anyList(resources), "verbs": anyList(verbs)}
}

// serverClusterRoleRules are the rules of Argo CD's server's cluster role on the hub (argo-cd chart 10.1.1's
// server.clusterRoleRules): the chart's own (argocd-server/clusterrole.yaml) without `delete` and `patch` on every
// kind, `create` of Jobs and Workflows, and `create` of pods/exec. What stays: reading live objects, events and
// pod logs for the UI, and reading and updating Applications and ApplicationSets (creating and deleting
// Applications too with appNamespaces, Applications in any namespace, as the chart grants then). The chart's
// default would let whoever holds the server's identity, or an API user allowed to delete a resource, delete or
// patch any object of the hub, the fleet's admission policies included: the API server applies no admission
// policy to those (Kubernetes' "ValidatingAdmissionPolicy" docs), so only RBAC keeps them. To give the UI its
// resource actions on the hub back, set server.clusterRoleRules in hub.values.
//
// Its reads leave out Secrets: the chart's `get` on every kind would read every Secret of the hub (every stage's
// Pulumi access token, the tenants' and add-ons' credentials), and RBAC cannot subtract, so the reads are listed:
// every core resource but Secrets (ServerReadableCoreResources), and every kind of ServerReadableGroups. Argo CD's
// own Secrets in its namespace stay readable through the chart's argocd-server Role. The live manifest of a kind
// outside these groups (an add-on's CRD on the hub) is forbidden in the UI unless hub.values gives it back.
func serverClusterRoleRules(appNamespaces []string) []any {
	rules := []any{
		rule([]string{""}, ServerReadableCoreResources, []string{"get"}),
		rule(ServerReadableGroups, []string{"*"}, []string{"get"}),
		rule([]string{""}, []string{"events"}, []string{"list", "create"}),
		rule([]string{""}, []string{"pods", "pods/log"}, []string{"get"}),
		rule([]string{"argoproj.io"}, []string{"applications", "applicationsets"}, []string{"get", "list", "update", "watch"}),
	}
	if len(appNamespaces) > 0 {
		rules = append(rules, rule([]string{"argoproj.io"}, []string{"applications"}, []string{"create", "delete", "update", "patch"}))
	}
	return rules
}

// ServerReadableCoreResources are the core (v1) resources Argo CD's server reads on the hub for its UI: all of
// Kubernetes 1.36's but secrets (and bindings and componentstatuses, which hold nothing to show).
var ServerReadableCoreResources = []string{"configmaps", "endpoints", "events", "limitranges", "namespaces", "nodes",
	"persistentvolumeclaims", "persistentvolumes", "pods", "pods/log", "podtemplates", "replicationcontrollers",
	"resourcequotas", "serviceaccounts", "services"}

// ServerReadableGroups are the API groups whose every kind Argo CD's server reads on the hub: Kubernetes 1.36's
// built-in groups (none holds a Secret's data) and the kinds the fleet syncs to the hub (Argo CD's, PKO's Stacks,
// Kargo's).
var ServerReadableGroups = []string{"admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io",
	"apps", "autoscaling", "batch", "certificates.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
	"events.k8s.io", "flowcontrol.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io", "policy",
	"rbac.authorization.k8s.io", "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io", "storagemigration.k8s.io",
	"argoproj.io", "pulumi.com", "auto.pulumi.com", "kargo.akuity.io"}

// controllerClusterRoleRules are the rules of Argo CD's application controller's cluster role on a hub whose
// controller is not its cluster admin (hubControllerAdmin false; argo-cd chart 10.1.1's
// controller.clusterRoleRules, which replace the chart's every verb on every kind): reading every kind (its cluster
// cache and diffs read the hub's live objects, Secrets included, as the chart's role does), updating Applications
// in any namespace (their status, operation and finalizers), and recording events. Everything it writes on the
// hub beyond that is granted namespace by namespace, for the fleet's own paths from Git (ControllerWrites, and
// StackDelivery's stage namespaces, which it grants itself): no admission policy, no RBAC, no pod, no
// service-account token, anywhere. RBAC cannot grant "every kind but the admission policies", and a cluster-wide
// grant of pods or tokens is cluster admin by escalation, so the grant is a list.
func controllerClusterRoleRules() []any {
	return []any{
		rule([]string{"*"}, []string{"*"}, []string{"get", "list", "watch"}),
		map[string]any{"nonResourceURLs": anyList([]string{"*"}), "verbs": anyList([]string{"get"})},
		rule([]string{"argoproj.io"}, []string{"applications"}, []string{"get", "list", "watch", "update", "patch"}),
		rule([]string{""}, []string{"events"}, []string{"create", "patch", "list"}),
	}
}

// hubControllerAdmin says whether the application controller keeps the chart's cluster role on the hub (every
// verb on every kind): when the hub asks for it (hub.controllerClusterAdmin) or its add-ons install onto the hub
// (hub.addonsOnHub: add-on charts carry CRDs, cluster roles and webhooks).
func hubControllerAdmin(h Hub) bool { return h.ControllerClusterAdmin || h.AddonsOnHub }

// ControllerWrite is a namespace of the hub where Argo CD's application controller writes (create, update,
// patch, delete) the resources of one API group, for one path from Git.
type ControllerWrite struct {
	// Namespace on the hub.
	Namespace string
	// Group is the API group ("" for core) and Resources its resources ("secrets").
	Group     string
	Resources []string
}

// ControllerWriteRole is the name of the Role and RoleBinding that grant the application controller a
// ControllerWrite (StackDelivery's stage namespaces use it too).
const ControllerWriteRole = "gitops-fleet-argocd-sync"

// ControllerWriteVerbs are the verbs of a ControllerWrite: what a sync does to an object (create, update, patch,
// and delete when it prunes).
var ControllerWriteVerbs = []string{"create", "update", "patch", "delete"}

// ControllerWrites are the writes the fleet's own paths need of the application controller on the hub: with
// git, the registry's cluster secrets in Argo CD's namespace (which the cluster-secret guard then checks one by
// one); with each repository, its ApplicationSets in its ApplicationsNamespace.
func ControllerWrites(a GitOpsBridgeArgs) []ControllerWrite {
	var out []ControllerWrite
	if a.Git != nil {
		out = append(out, ControllerWrite{Namespace: a.Namespace, Group: "", Resources: []string{"secrets"}})
	}
	for _, p := range givenPaths(a) {
		out = append(out, ControllerWrite{Namespace: ApplicationsNamespace(a.Namespace, p.part), Group: "argoproj.io",
			Resources: []string{"applicationsets"}})
	}
	return out
}
