package tenant

import (
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// A tenant's guards are admission policies, and the API server applies no admission policy to admission policies:
// whoever RBAC lets write them lifts every guard. On a cluster a tenant selects, the writers that are not the stack
// (Argo CD's sync of the add-ons repository, which EKS access makes cluster admin; every pod's service account) are
// therefore kept from gaining that permission, by five more policies; the first two bind everyone but the deployer,
// system:masters and EKS's own identities, the others everyone but the controller manager's token requests (no pod
// has a reason to run as a controller, and kube-controller-manager itself may run in system:masters, as kwokctl's
// does):
//   - a role binding names none of the roles that reach the guards (ReachingClusterRoles: cluster-admin, admin and
//     edit, which impersonate service accounts, the client certificates' approver, Kubernetes' controllers' and
//     EKS's roles);
//   - a role grants none of what reaches them (writes of admission policies, bind and escalate, impersonation,
//     approving any user's client certificate), and aggregates no other role;
//   - no pod in kube-system runs as a kube-controller-manager controller's service account (the garbage
//     collector's deletes every kind), no service-account token Secret is made for one, and no one but the
//     controller manager requests one's token.
// An update that keeps a binding's subjects, or a role's rules and aggregation, passes (metadata only: the garbage
// collector's, Helm's labels). So a commit that adds a ClusterRoleBinding to cluster-admin and a Job under it is
// refused at the binding, and a Job as the garbage collector at the pod. Velero's chart binds its server to
// cluster-admin: on a cluster that runs Velero that one binding is admitted, and whoever controls Velero's pods (the
// add-ons repository) stays that cluster's admin (docs/security.md).

// ReachPolicyNames are the policies that keep the tenant's guards from the other writers, in the order
// ReachPolicies gives them: tenant-<tenant>-role-bindings, -roles, -system-pods, -system-tokens and
// -system-token-requests.
func ReachPolicyNames(tenant string) []string {
	p := ProjectName(tenant)
	return []string{p + "-role-bindings", p + "-roles", p + "-system-pods", p + "-system-tokens", p + "-system-token-requests"}
}

// TokenRequester is the username that requests kube-controller-manager's controllers' tokens
// (--use-service-account-credentials: the controller manager asks the TokenRequest API for each controller's).
const TokenRequester = "system:kube-controller-manager"

// ReachingClusterRoles are the ClusterRoles a binding by anyone but the stack may not name: those of Kubernetes'
// bootstrap policy (v1.36) that the RBAC authorizer lets write admission policies, bind or escalate roles,
// impersonate, or approve any user's client certificate (the contract test derives them from Kubernetes' own
// policy), and two that create any service account's token (system:node, system:kube-controller-manager; tokens
// are fenced at the request too). ReachingClusterRolePrefixes adds kube-controller-manager's controllers' roles and
// EKS's own.
var ReachingClusterRoles = []string{
	"cluster-admin", "admin", "edit", "system:aggregate-to-admin", "system:aggregate-to-edit",
	"system:kube-controller-manager", "system:node", "system:certificates.k8s.io:kube-apiserver-client-approver",
}

// ReachingClusterRolePrefixes begin the names of more ClusterRoles that reach the guards: Kubernetes' controllers'
// (system:controller:generic-garbage-collector deletes every kind) and EKS's own (eks:).
var ReachingClusterRolePrefixes = []string{"system:controller:", admission.EKSUserPrefix}

// ControllerServiceAccounts are kube-controller-manager's controllers' service accounts in kube-system (Kubernetes'
// bootstrap policy, v1.36; --use-service-account-credentials): no pod runs as one, and a pod that did would act
// with the controller's role (the garbage collector's and namespace controller's delete every kind, the
// aggregation controller's escalates every ClusterRole).
var ControllerServiceAccounts = []string{
	"attachdetach-controller", "certificate-controller", "clusterrole-aggregation-controller", "cronjob-controller",
	"daemon-set-controller", "deployment-controller", "device-taint-eviction-controller", "disruption-controller",
	"endpoint-controller", "endpointslice-controller", "endpointslicemirroring-controller",
	"ephemeral-volume-controller", "expand-controller", "generic-garbage-collector", "horizontal-pod-autoscaler",
	"job-controller", "legacy-service-account-token-cleaner", "namespace-controller", "node-controller",
	"persistent-volume-binder", "pod-garbage-collector", "pv-protection-controller", "pvc-protection-controller",
	"replicaset-controller", "replication-controller", "resource-claim-controller", "resourcequota-controller",
	"root-ca-cert-publisher", "route-controller", "selinux-warning-controller", "service-account-controller",
	"service-cidrs-controller", "service-controller", "statefulset-controller", "ttl-after-finished-controller",
	"ttl-controller", "validatingadmissionpolicy-status-controller", "volumeattributesclass-protection-controller",
}

// AggregationController is the username of kube-controller-manager's ClusterRole aggregation controller, which
// writes the rules of aggregated ClusterRoles (admin, edit, view): the roles policy lets it write those only.
const AggregationController = "system:serviceaccount:kube-system:clusterrole-aggregation-controller"

// VeleroBinding is the ClusterRoleBinding Velero's chart writes (rbac.clusterAdministrator, the default): its
// server's service account to cluster-admin. A cluster that runs the velero add-on admits it, as it is.
type VeleroBinding struct {
	// Name is the binding's name (<fullname>-server: velero-server for the release velero).
	Name string
	// Namespace and ServiceAccount are its one subject (the add-on's namespace and server service account).
	Namespace, ServiceAccount string
}

// Velero is the binding Velero's chart writes on a cluster that runs the add-on, from the catalogue's namespace
// and server service account (the chart names the binding as the account: <fullname>-server); nil when the cluster
// does not run it.
func Velero(runs bool) *VeleroBinding {
	a, ok := addons.Lookup("velero")
	if !runs || !ok || a.Identity == nil || len(a.Identity.ServiceAccounts) == 0 {
		return nil
	}
	account := a.Identity.ServiceAccounts[0].Name
	return &VeleroBinding{Name: account, Namespace: a.Identity.Namespace, ServiceAccount: account}
}

// ReachExemptions are who the role-bindings and roles policies let through: the deployer, system:masters and EKS's
// own identities (the managed add-ons' installer writes their RBAC); the aggregation controller writes aggregated
// roles only. The system-pods and system-tokens policies exempt no one; system-token-requests, TokenRequester.
func ReachExemptions(deployer string) admission.Exemptions {
	return admission.Exemptions{Deployer: deployer, Masters: true, EKS: true, Writers: []string{AggregationController}}
}

// grantsNothing is why the reach policies do not see DELETE.
const grantsNothing = "deleting a role, a binding, a pod or a token grants nothing"

// ReachPolicies are the five policies that keep the tenant's guards from every writer but the stack (see above),
// deployer being the stack's EKS username; velero, when set, is the one binding to cluster-admin the cluster
// admits. Their bindings select every namespace (role bindings, roles) or kube-system (pods, tokens, token
// requests).
func ReachPolicies(t TenantSpec, deployer string, velero *VeleroBinding) []admission.Policy {
	names := ReachPolicyNames(t.Name)
	vars := ReachExemptions(deployer).Variables()
	accounts, _ := admission.Literal(ControllerServiceAccounts)
	roles, _ := admission.Literal(ReachingClusterRoles)
	var prefixes []string
	for _, p := range ReachingClusterRolePrefixes {
		prefixes = append(prefixes, "object.roleRef.name.startsWith("+admission.String(p)+")")
	}
	veleroExpr := "false"
	if velero != nil {
		veleroExpr = "request.resource.resource == 'clusterrolebindings' && object.metadata.name == " + admission.String(velero.Name) +
			" && object.roleRef.name == 'cluster-admin' && object.?subjects.orValue([]).size() == 1 && " +
			"object.subjects[0].kind == 'ServiceAccount' && object.subjects[0].name == " + admission.String(velero.ServiceAccount) +
			" && object.subjects[0].?namespace.orValue('') == " + admission.String(velero.Namespace)
	}
	return []admission.Policy{
		{
			Name: names[0], Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings",
			Also: []string{"clusterrolebindings"}, DeleteUnguarded: grantsNothing,
			Variables: slices.Concat(vars, []admission.Variable{{Name: "velero", Expression: veleroExpr},
				// roleRef is immutable: an update that keeps the subjects grants no one anything new (the garbage
				// collector's and Helm's metadata writes).
				{Name: "same", Expression: "request.operation == 'UPDATE' && " +
					"object.?subjects.orValue([]) == oldObject.?subjects.orValue([])"}}),
			Validations: []admission.Validation{{
				Expression: "variables.exempt || variables.velero || variables.same || object.roleRef.kind != 'ClusterRole' || !(object.roleRef.name in " +
					roles + " || " + strings.Join(prefixes, " || ") + ")",
				Message: "only the stack binds a role that reaches the admission guards (cluster-admin, admin, edit, " +
					"Kubernetes' controllers' and EKS's roles)",
				MessageExpression: "'binding ' + object.metadata.name + ' names ClusterRole ' + object.roleRef.name + " +
					"', which can lift the admission guards; only the stack binds it (docs/security.md)'",
			}},
		},
		{
			Name: names[1], Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles",
			Also: []string{"clusterroles"}, DeleteUnguarded: grantsNothing,
			Variables: slices.Concat(vars, []admission.Variable{
				// A Role or a ClusterRole: only a ClusterRole has aggregationRule, so it is read as neither (a Role's
				// schema has no such field, and the controller manager's type check, status.typeChecking, would
				// say so; tests/contract's TestGuardsTypeCheck).
				{Name: "role", Expression: "dyn(object)"},
				// An update that keeps the rules and the aggregation grants nothing new (metadata only).
				{Name: "same", Expression: "request.operation == 'UPDATE' && " +
					"object.?rules.orValue([]) == oldObject.?rules.orValue([]) && " +
					"has(variables.role.aggregationRule) == has(dyn(oldObject).aggregationRule) && " +
					"(!has(variables.role.aggregationRule) || variables.role.aggregationRule == dyn(oldObject).aggregationRule)"}}),
			Validations: []admission.Validation{
				{
					Expression: "variables.exempt || variables.same || variables.writer || !has(variables.role.aggregationRule)",
					Message:    "a ClusterRole by anyone but the stack aggregates no other role (it would take their rules, cluster-admin's too)",
				},
				{
					Expression: "variables.exempt || variables.same || (variables.writer && has(variables.role.aggregationRule)) || " +
						"object.?rules.orValue([]).all(r, !(" + reachingRule + "))",
					Message: "a role by anyone but the stack grants no write of admission policies, no bind, escalate or " +
						"impersonate, and no approval of any user's client certificate: those lift the admission guards",
					MessageExpression: "'role ' + object.metadata.name + ' grants a rule that can lift the admission guards " +
						"(writes of admission policies, bind, escalate, impersonate, or approving any user\\'s client certificate); only the stack writes it'",
				},
			},
		},
		{
			Name: names[2], Group: "", Version: "v1", Resource: "pods", Namespaces: []string{"kube-system"},
			Operations: []string{"CREATE"}, DeleteUnguarded: grantsNothing,
			Validations: []admission.Validation{{
				Expression: "!(object.spec.?serviceAccountName.orValue('') in " + accounts +
					" || object.spec.?serviceAccount.orValue('') in " + accounts + ")",
				Message: "no pod runs as a kube-controller-manager controller's service account",
				MessageExpression: "'pod ' + object.metadata.?name.orValue(object.metadata.?generateName.orValue('')) + " +
					"' runs as controller service account ' + object.spec.?serviceAccountName.orValue(object.spec.?serviceAccount.orValue('')) + " +
					"', which can lift the admission guards'",
			}},
		},
		{
			Name: names[3], Group: "", Version: "v1", Resource: "secrets", Namespaces: []string{"kube-system"},
			DeleteUnguarded: grantsNothing,
			Validations: []admission.Validation{{
				Expression: "object.?type.orValue('') != 'kubernetes.io/service-account-token' || " +
					"!(object.metadata.?annotations.orValue({})[?'kubernetes.io/service-account.name'].orValue('') in " + accounts + ")",
				Message: "no service-account token Secret is made for a kube-controller-manager controller",
			}},
		},
		{
			Name: names[4], Group: "", Version: "v1", Resource: "serviceaccounts/token", Namespaces: []string{"kube-system"},
			Operations: []string{"CREATE"}, DeleteUnguarded: "a token request is created only",
			Variables: admission.Exemptions{Writers: []string{TokenRequester}}.Variables(),
			Validations: []admission.Validation{{
				Expression: "variables.writer || !(request.name in " + accounts + ")",
				Message:    "no one but kube-controller-manager requests a token of a kube-controller-manager controller",
				MessageExpression: "'a token of controller service account ' + request.name + ' is requested by ' + " +
					"request.userInfo.username + ', not kube-controller-manager; it can lift the admission guards'",
			}},
		},
	}
}

// reachingRule is a CEL test of one PolicyRule r: true when the RBAC authorizer could let it write an admission
// policy or its binding, bind or escalate a role, impersonate a user, group, service account or uid, or approve
// a client certificate for any user (signer kubernetes.io/kube-apiserver-client, by name or as kubernetes.io/*, as
// the CSR approval plugin asks; cert-manager's charts approve their own signers only) (RBAC's matching: "*" for any
// verb, group or resource). A service account's token is fenced at the request instead
// (the system-token-requests policy): external-secrets' and cert-manager's charts grant creating tokens.
const reachingRule = "has(r.apiGroups) && has(r.resources) && (" +
	"(r.verbs.exists(v, v in ['*', 'create', 'update', 'patch', 'delete', 'deletecollection']) && " +
	"r.apiGroups.exists(g, g in ['*', 'admissionregistration.k8s.io']) && " +
	"r.resources.exists(x, x in ['*', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', " +
	"'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'])) || " +
	"(r.verbs.exists(v, v in ['*', 'bind', 'escalate']) && r.apiGroups.exists(g, g in ['*', 'rbac.authorization.k8s.io']) && " +
	"r.resources.exists(x, x in ['*', 'roles', 'clusterroles'])) || " +
	"(r.verbs.exists(v, v in ['*', 'impersonate']) && r.apiGroups.exists(g, g in ['*', '', 'authentication.k8s.io']) && " +
	"r.resources.exists(x, x in ['*', 'users', 'groups', 'serviceaccounts', 'uids'] || x.startsWith('userextras'))) || " +
	"(r.verbs.exists(v, v in ['*', 'approve']) && r.apiGroups.exists(g, g in ['*', 'certificates.k8s.io']) && " +
	"r.resources.exists(x, x in ['*', 'signers']) && (r.?resourceNames.orValue([]).size() == 0 || " +
	"r.resourceNames.exists(n, n in ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/*']))))"
