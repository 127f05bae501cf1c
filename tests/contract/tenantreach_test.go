package contract

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

var (
	clusterRoleBindingKind = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}
	clusterRoleBindings    = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}
	roleBindingKind        = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"}
	roleBindings           = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
	clusterRoleKind        = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}
	clusterRoles           = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	roleKind               = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}
	roles                  = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}
	podKind                = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	tokenRequestKind       = schema.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}
	serviceAccounts        = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	pods                   = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// The writers of a spoke the reach policies bind, and those they exempt.
const (
	reachDeployer = "arn:aws:sts::111122223333:assumed-role/deployer/"
	// argoOnSpoke is Argo CD's sync on a spoke: the spoke role the hub assumes, cluster admin through its access entry.
	argoOnSpoke = "arn:aws:sts::111122223333:assumed-role/gitops-fleet-spoke-use2/argocd"
	// addonJob is a pod of an add-on's namespace (a Job the add-ons repository adds), as its service account.
	addonJob = "system:serviceaccount:karpenter:karpenter"
)

// reachingRequests are what lifts the admission guards, as Kubernetes' RBAC authorizer reads a request: writing an
// admission policy or its binding, binding or escalating a role, impersonating (a service account of kube-system,
// where the controllers' are). A controller's token is fenced at the TokenRequest (system-token-requests), since
// charts grant creating tokens (external-secrets' controller, cert-manager's).
func reachingRequests() []rbacRequest {
	var out []rbacRequest
	for _, verb := range []string{"create", "update", "patch", "delete", "deletecollection"} {
		for _, r := range []string{"validatingadmissionpolicies", "validatingadmissionpolicybindings",
			"mutatingadmissionpolicies", "mutatingadmissionpolicybindings"} {
			out = append(out, rbacRequest{verb: verb, group: "admissionregistration.k8s.io", resource: r})
		}
	}
	for _, verb := range []string{"bind", "escalate"} {
		out = append(out, rbacRequest{verb: verb, group: "rbac.authorization.k8s.io", resource: "clusterroles"},
			rbacRequest{verb: verb, group: "rbac.authorization.k8s.io", resource: "roles", namespace: "kube-system"})
	}
	out = append(out, rbacRequest{verb: "impersonate", resource: "users"}, rbacRequest{verb: "impersonate", resource: "groups"},
		rbacRequest{verb: "impersonate", resource: "serviceaccounts", namespace: "kube-system"},
		rbacRequest{verb: "impersonate", group: "authentication.k8s.io", resource: "uids"},
		// A client certificate for any user, system:masters included: the CSR approval plugin asks for the signer by
		// name and by its domain's wildcard.
		rbacRequest{verb: "approve", group: "certificates.k8s.io", resource: "signers", name: "kubernetes.io/kube-apiserver-client"},
		rbacRequest{verb: "approve", group: "certificates.k8s.io", resource: "signers", name: "kubernetes.io/*"})
	return out
}

// reaches is the first reaching request rules allow, per the RBAC authorizer.
func reaches(rules ...rbacv1.PolicyRule) (rbacRequest, bool) {
	for _, q := range reachingRequests() {
		if rbac.RulesAllow(q.attributes(), rules...) {
			return q, true
		}
	}
	return rbacRequest{}, false
}

// bootstrapClusterRoles are Kubernetes' own ClusterRoles (bootstrap policy, its controllers' included), each with
// its rules, aggregated ones resolved as the aggregation controller resolves them.
func bootstrapClusterRoles() []rbacv1.ClusterRole {
	all := append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...)
	out := slices.Clone(all)
	for i, r := range out {
		if r.AggregationRule == nil {
			continue
		}
		for _, sel := range r.AggregationRule.ClusterRoleSelectors {
			s, err := metav1.LabelSelectorAsSelector(&sel)
			if err != nil {
				panic(err)
			}
			for _, o := range all {
				if o.Name != r.Name && s.Matches(labels.Set(o.Labels)) {
					out[i].Rules = append(out[i].Rules, o.Rules...)
				}
			}
		}
	}
	return out
}

func clusterRoleBinding(name, role string, subjects ...rbacv1.Subject) *rbacv1.ClusterRoleBinding {
	if len(subjects) == 0 {
		subjects = []rbacv1.Subject{{Kind: "ServiceAccount", Name: "evil", Namespace: "default"}}
	}
	return &rbacv1.ClusterRoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subjects,
		RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role}}
}

func clusterRole(name string, rules ...rbacv1.PolicyRule) *rbacv1.ClusterRole {
	return &rbacv1.ClusterRole{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"},
		ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
}

// reachPolicies are the sample tenant's reach policies by resource, with Velero or without.
func reachPolicies(t *testing.T, velero bool) map[string]*admitter {
	out := map[string]*admitter{}
	for _, p := range tenant.ReachPolicies(payments(), reachDeployer+admission.SessionNameTemplate, tenant.Velero(velero)) {
		out[p.Resource] = newAdmitter(t, p.Object(), p.Binding())
	}
	return out
}

// TestTenantReach: the policies that keep a tenant's guards from every writer but the stack, run through
// Kubernetes' own admission code, against Kubernetes' own RBAC: the add-ons repository's path to the guards (a
// ClusterRoleBinding to cluster-admin and a Job under it) is refused at the binding; so is a binding, by Argo CD on
// the spoke or by an add-on's pod, to every role of Kubernetes' bootstrap policy that its RBAC authorizer lets
// write an admission policy, bind, escalate, impersonate or mint a token, and a role granting any rule that does;
// a pod, token Secret or token request in kube-system as any of kube-controller-manager's controllers is refused
// (the controller manager requests its controllers' tokens). What charts
// write (their own roles and bindings, auth-delegator, the webhook configurations cert-manager's injector patches)
// is admitted, and so is all of it by the deployer, system:masters and EKS's own identities, and an update that
// changes only metadata (the garbage collector's finalizers, Helm's labels).
func TestTenantReach(t *testing.T) {
	ps := reachPolicies(t, false)
	bootstrap := bootstrapClusterRoles()
	bootstrapRole := func(name string) rbacv1.ClusterRole {
		t.Helper()
		i := slices.IndexFunc(bootstrap, func(r rbacv1.ClusterRole) bool { return r.Name == name })
		if i < 0 {
			t.Fatalf("Kubernetes' bootstrap policy has no ClusterRole %s", name)
		}
		return bootstrap[i]
	}
	admitObj := func(p *admitter, obj any, old any, ns, who string, gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) (bool, string) {
		t.Helper()
		var o, oo map[string]any
		if obj != nil {
			o = deepCopy(t, obj)
		}
		if old != nil {
			oo = deepCopy(t, old)
		}
		return p.admit(t, o, oo, ns, who, gvk, gvr)
	}

	t.Run("the ClusterRoleBinding-plus-Job path", func(t *testing.T) {
		for _, who := range []string{argoOnSpoke, addonJob} {
			ok, msg := admitObj(ps["rolebindings"], clusterRoleBinding("evil", "cluster-admin"), nil, "", who, clusterRoleBindingKind, clusterRoleBindings)
			if ok || !strings.Contains(msg, "names ClusterRole cluster-admin, which can lift the admission guards") {
				t.Errorf("%s binds cluster-admin: %v %s; want refused", who, ok, msg)
			}
		}
		job := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"generateName": "evil-", "namespace": "kube-system"},
			"spec": map[string]any{"serviceAccountName": "generic-garbage-collector",
				"containers": []any{map[string]any{"name": "kubectl", "image": "bitnami/kubectl"}}}}
		// The Job controller creates the Job's pod: the policy reads the pod, whoever creates it.
		ok, msg := ps["pods"].admit(t, job, nil, "kube-system", "system:serviceaccount:kube-system:job-controller", podKind, pods)
		if ok || !strings.Contains(msg, "runs as controller service account generic-garbage-collector") {
			t.Errorf("a Job's pod as the garbage collector: %v %s; want refused", ok, msg)
		}
		// kube-controller-manager may run in system:masters (kwokctl's does): the pod policy exempts no one.
		if ok, msg := ps["pods"].admit(t, job, nil, "kube-system", "system:kube-controller-manager", podKind, pods); ok {
			t.Errorf("a Job's pod as the garbage collector, created by kube-controller-manager as itself: admitted %s", msg)
		}
		field(job, "spec")["serviceAccount"] = "generic-garbage-collector"
		delete(field(job, "spec"), "serviceAccountName")
		if ok, msg := ps["pods"].admit(t, job, nil, "kube-system", argoOnSpoke, podKind, pods); ok {
			t.Errorf("a pod naming the garbage collector in the deprecated serviceAccount: admitted %s", msg)
		}
	})

	t.Run("bindings to Kubernetes' reaching roles", func(t *testing.T) {
		reaching := 0
		for _, r := range bootstrap {
			q, ok := reaches(r.Rules...)
			crb := clusterRoleBinding("b", r.Name)
			rb := &rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
				ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "kube-system"}, Subjects: crb.Subjects, RoleRef: crb.RoleRef}
			gotCluster, _ := admitObj(ps["rolebindings"], crb, nil, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings)
			gotNamespaced, _ := admitObj(ps["rolebindings"], rb, nil, "kube-system", addonJob, roleBindingKind, roleBindings)
			if ok {
				reaching++
				if gotCluster || gotNamespaced {
					t.Errorf("a binding to %s (which may %s %s/%s%s) is admitted: list it in tenant.ReachingClusterRoles",
						r.Name, q.verb, q.group, q.resource, q.subresource)
				}
			}
			if strings.HasPrefix(r.Name, "system:controller:") && gotCluster {
				t.Errorf("a binding to controller role %s is admitted", r.Name)
			}
			deployed, msg := admitObj(ps["rolebindings"], crb, nil, "", reachDeployer+"pulumi-1", clusterRoleBindingKind, clusterRoleBindings)
			if !deployed {
				t.Errorf("the deployer binds %s: refused: %s", r.Name, msg)
			}
		}
		if reaching < 6 {
			t.Errorf("%d of Kubernetes' roles reach the guards; want at least cluster-admin, edit, the garbage collector's ...", reaching)
		}
		for _, name := range tenant.ReachingClusterRoles {
			if !slices.ContainsFunc(bootstrap, func(r rbacv1.ClusterRole) bool { return r.Name == name }) {
				t.Errorf("tenant.ReachingClusterRoles lists %s, which is no role of Kubernetes' bootstrap policy", name)
			}
		}
	})

	t.Run("roles granting what reaches the guards", func(t *testing.T) {
		// Every rule of Kubernetes' own roles, and the wildcards RBAC matches, alone in a ClusterRole Argo CD writes:
		// refused exactly when the RBAC authorizer lets the rule reach the guards.
		var rules []rbacv1.PolicyRule
		for _, r := range bootstrap {
			rules = append(rules, r.Rules...)
		}
		rules = append(rules,
			rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
			rbacv1.PolicyRule{Verbs: []string{"delete"}, APIGroups: []string{"admissionregistration.k8s.io"}, Resources: []string{"*"}},
			rbacv1.PolicyRule{Verbs: []string{"patch"}, APIGroups: []string{"*"}, Resources: []string{"validatingadmissionpolicybindings"}},
			rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"clusterroles"}},
			rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{""}, Resources: []string{"serviceaccounts"}},
			// external-secrets' controller requests the tokens its stores name; cert-manager its own.
			rbacv1.PolicyRule{Verbs: []string{"create"}, APIGroups: []string{""}, Resources: []string{"serviceaccounts/token"}},
			rbacv1.PolicyRule{Verbs: []string{"create"}, APIGroups: []string{""}, Resources: []string{"serviceaccounts/token"},
				ResourceNames: []string{"cert-manager"}},
			rbacv1.PolicyRule{Verbs: []string{"impersonate"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"uids"}},
			rbacv1.PolicyRule{Verbs: []string{"approve"}, APIGroups: []string{"certificates.k8s.io"}, Resources: []string{"signers"}},
			rbacv1.PolicyRule{Verbs: []string{"approve"}, APIGroups: []string{"certificates.k8s.io"}, Resources: []string{"signers"},
				ResourceNames: []string{"kubernetes.io/*"}},
			// cert-manager's controller approves requests of its own issuers' signers.
			rbacv1.PolicyRule{Verbs: []string{"approve"}, APIGroups: []string{"cert-manager.io"}, Resources: []string{"signers"},
				ResourceNames: []string{"issuers.cert-manager.io/*", "clusterissuers.cert-manager.io/*"}},
			rbacv1.PolicyRule{Verbs: []string{"approve"}, APIGroups: []string{"certificates.k8s.io"}, Resources: []string{"signers"},
				ResourceNames: []string{"issuers.cert-manager.io/*", "clusterissuers.cert-manager.io/*"}},
			// What charts grant: cert-manager's injector patches webhook configurations; controllers own their CRDs.
			rbacv1.PolicyRule{Verbs: []string{"get", "list", "watch", "update", "patch"}, APIGroups: []string{"admissionregistration.k8s.io"},
				Resources: []string{"validatingwebhookconfigurations", "mutatingwebhookconfigurations"}},
			rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"karpenter.sh"}, Resources: []string{"*"}},
			rbacv1.PolicyRule{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
			rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{""}, Resources: []string{"configmaps", "secrets"}},
			rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"*"}},
		)
		refusedRules, admittedRules := 0, 0
		for i, rule := range rules {
			q, reach := reaches(rule)
			role := clusterRole(fmt.Sprintf("chart-%d", i), rule)
			ok, msg := admitObj(ps["roles"], role, nil, "", argoOnSpoke, clusterRoleKind, clusterRoles)
			switch {
			case reach && ok:
				t.Errorf("a ClusterRole granting %+v (it may %s %s/%s) is admitted", rule, q.verb, q.group, q.resource)
			case !reach && !ok:
				t.Errorf("a ClusterRole granting %+v (which reaches nothing) is refused: %s", rule, msg)
			case reach:
				refusedRules++
				if !strings.Contains(msg, "grants a rule that can lift the admission guards") {
					t.Errorf("a ClusterRole granting %+v: %s", rule, msg)
				}
			default:
				admittedRules++
			}
			namespaced := &rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
				ObjectMeta: metav1.ObjectMeta{Name: role.Name, Namespace: "kube-system"}, Rules: role.Rules}
			if got, _ := admitObj(ps["roles"], namespaced, nil, "kube-system", addonJob, roleKind, roles); got != ok {
				t.Errorf("a Role granting %+v: admitted %v, as a ClusterRole %v", rule, got, ok)
			}
		}
		if refusedRules < 10 || admittedRules < 100 {
			t.Errorf("%d rules refused, %d admitted: the corpus is Kubernetes' own roles", refusedRules, admittedRules)
		}
		// An aggregated role takes the rules of every ClusterRole its selector picks, cluster-admin's included.
		aggregated := clusterRole("evil")
		aggregated.AggregationRule = &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{
			{MatchLabels: map[string]string{"kubernetes.io/bootstrapping": "rbac-defaults"}}}}
		if ok, msg := admitObj(ps["roles"], aggregated, nil, "", argoOnSpoke, clusterRoleKind, clusterRoles); ok ||
			!strings.Contains(msg, "aggregates no other role") {
			t.Errorf("Argo CD writes an aggregated ClusterRole: %v %s; want refused", ok, msg)
		}
		// The aggregation controller writes aggregated roles' rules (admin's include impersonating service
		// accounts), and nothing else.
		admin := bootstrapRole("admin")
		before := admin.DeepCopy()
		before.Rules = nil
		if ok, msg := admitObj(ps["roles"], &admin, before, "", tenant.AggregationController, clusterRoleKind, clusterRoles); !ok {
			t.Errorf("the aggregation controller writes admin's rules: refused: %s", msg)
		}
		evil := clusterRole("evil", rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}})
		if ok, _ := admitObj(ps["roles"], evil, nil, "", tenant.AggregationController, clusterRoleKind, clusterRoles); ok {
			t.Error("the aggregation controller writes a role of all rules that aggregates nothing: admitted")
		}
		for _, who := range []string{reachDeployer + "pulumi-1", "eks:addon-manager"} {
			if ok, msg := admitObj(ps["roles"], evil, nil, "", who, clusterRoleKind, clusterRoles); !ok {
				t.Errorf("%s writes a role of all rules: refused: %s", who, msg)
			}
		}
	})

	t.Run("what charts bind", func(t *testing.T) {
		for _, b := range []*rbacv1.ClusterRoleBinding{
			clusterRoleBinding("system:metrics-server", "system:metrics-server"),
			clusterRoleBinding("metrics-server:system:auth-delegator", "system:auth-delegator"),
			clusterRoleBinding("aws-load-balancer-controller-rolebinding", "aws-load-balancer-controller-role"),
			clusterRoleBinding("view-all", "view"),
		} {
			if ok, msg := admitObj(ps["rolebindings"], b, nil, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings); !ok {
				t.Errorf("a chart's binding %s to %s: refused: %s", b.Name, b.RoleRef.Name, msg)
			}
		}
		rb := &rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
			ObjectMeta: metav1.ObjectMeta{Name: "metrics-server-auth-reader", Namespace: "kube-system"},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "metrics-server", Namespace: "kube-system"}},
			RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "extension-apiserver-authentication-reader"}}
		if ok, msg := admitObj(ps["rolebindings"], rb, nil, "kube-system", argoOnSpoke, roleBindingKind, roleBindings); !ok {
			t.Errorf("metrics-server's RoleBinding in kube-system: refused: %s", msg)
		}
		if ok, msg := admitObj(ps["rolebindings"], clusterRoleBinding("eks:addon", "cluster-admin"), nil, "", "eks:addon-manager",
			clusterRoleBindingKind, clusterRoleBindings); !ok {
			t.Errorf("EKS's own binding: refused: %s", msg)
		}
	})

	t.Run("updates", func(t *testing.T) {
		// The stack's own binding to cluster-admin (a stage's allowClusterAdmin), its finalizer taken off by the
		// garbage collector at a foreground deletion; Helm relabelling it: metadata only, admitted.
		mine := clusterRoleBinding("stage-admin", "cluster-admin")
		finalizing := mine.DeepCopy()
		finalizing.Finalizers = []string{"foregroundDeletion"}
		for who, pair := range map[string][2]*rbacv1.ClusterRoleBinding{
			"system:serviceaccount:kube-system:generic-garbage-collector": {mine, finalizing},
			argoOnSpoke: {func() *rbacv1.ClusterRoleBinding {
				b := mine.DeepCopy()
				b.Labels = map[string]string{"app.kubernetes.io/managed-by": "Helm"}
				return b
			}(), mine},
		} {
			if ok, msg := admitObj(ps["rolebindings"], pair[0], pair[1], "", who, clusterRoleBindingKind, clusterRoleBindings); !ok {
				t.Errorf("%s updates the metadata of a binding to cluster-admin: refused: %s", who, msg)
			}
		}
		// A subject added to a binding that already names cluster-admin (Kubernetes' own, for system:masters).
		own := clusterRoleBinding("cluster-admin", "cluster-admin", rbacv1.Subject{APIGroup: "rbac.authorization.k8s.io", Kind: "Group", Name: "system:masters"})
		joined := own.DeepCopy()
		joined.Subjects = append(joined.Subjects, rbacv1.Subject{Kind: "ServiceAccount", Name: "evil", Namespace: "default"})
		if ok, _ := admitObj(ps["rolebindings"], joined, own, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings); ok {
			t.Error("Argo CD adds a subject to Kubernetes' cluster-admin binding: admitted")
		}
		// A role's labels changed, then its rules made reaching.
		admin := bootstrapRole("cluster-admin")
		relabelled := admin.DeepCopy()
		relabelled.Labels = map[string]string{"team": "platform"}
		if ok, msg := admitObj(ps["roles"], relabelled, &admin, "", argoOnSpoke, clusterRoleKind, clusterRoles); !ok {
			t.Errorf("Argo CD relabels cluster-admin's ClusterRole: refused: %s", msg)
		}
		view := clusterRole("chart-view", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}})
		widened := view.DeepCopy()
		widened.Rules = append(widened.Rules, rbacv1.PolicyRule{Verbs: []string{"delete"}, APIGroups: []string{"admissionregistration.k8s.io"},
			Resources: []string{"validatingadmissionpolicies"}})
		if ok, _ := admitObj(ps["roles"], widened, view, "", argoOnSpoke, clusterRoleKind, clusterRoles); ok {
			t.Error("Argo CD widens a chart's role to delete admission policies: admitted")
		}
		aggregating := view.DeepCopy()
		aggregating.AggregationRule = &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{"x": "y"}}}}
		if ok, _ := admitObj(ps["roles"], aggregating, view, "", argoOnSpoke, clusterRoleKind, clusterRoles); ok {
			t.Error("Argo CD makes a chart's role aggregate others: admitted")
		}
	})

	t.Run("Velero's own binding", func(t *testing.T) {
		v := tenant.Velero(true)
		if v == nil || *v != (tenant.VeleroBinding{Name: "velero-server", Namespace: "velero", ServiceAccount: "velero-server"}) {
			t.Fatalf("Velero's binding %+v; want velero-server to cluster-admin for velero/velero-server, as its chart writes it", v)
		}
		own := clusterRoleBinding(v.Name, "cluster-admin", rbacv1.Subject{Kind: "ServiceAccount", Name: v.ServiceAccount, Namespace: v.Namespace})
		with, without := reachPolicies(t, true), ps
		if ok, msg := admitObj(with["rolebindings"], own, nil, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings); !ok {
			t.Errorf("on a cluster that runs Velero, its chart's binding: refused: %s", msg)
		}
		if ok, _ := admitObj(without["rolebindings"], own, nil, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings); ok {
			t.Error("on a cluster without Velero, its chart's binding to cluster-admin: admitted")
		}
		more := own.DeepCopy()
		more.Subjects = append(more.Subjects, rbacv1.Subject{Kind: "ServiceAccount", Name: "evil", Namespace: "default"})
		renamed := clusterRoleBinding("velero-evil", "cluster-admin", own.Subjects...)
		other := clusterRoleBinding(v.Name, "cluster-admin", rbacv1.Subject{Kind: "ServiceAccount", Name: v.ServiceAccount, Namespace: "default"})
		for name, b := range map[string]*rbacv1.ClusterRoleBinding{"a second subject": more, "another name": renamed, "another namespace": other} {
			if ok, _ := admitObj(with["rolebindings"], b, nil, "", argoOnSpoke, clusterRoleBindingKind, clusterRoleBindings); ok {
				t.Errorf("Velero's binding with %s: admitted", name)
			}
		}
	})

	t.Run("kube-system's controller accounts", func(t *testing.T) {
		var accounts []string
		for _, b := range bootstrappolicy.ControllerRoleBindings() {
			for _, s := range b.Subjects {
				if s.Kind == "ServiceAccount" && s.Namespace == "kube-system" {
					accounts = append(accounts, s.Name)
				}
			}
		}
		if len(accounts) < 30 {
			t.Fatalf("%d controller service accounts in Kubernetes' bootstrap policy", len(accounts))
		}
		for _, sa := range accounts {
			if !slices.Contains(tenant.ControllerServiceAccounts, sa) {
				t.Errorf("controller service account %s is not in tenant.ControllerServiceAccounts", sa)
			}
			pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p", "namespace": "kube-system"},
				"spec": map[string]any{"serviceAccountName": sa, "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}
			if ok, _ := ps["pods"].admit(t, pod, nil, "kube-system", "system:serviceaccount:kube-system:replicaset-controller", podKind, pods); ok {
				t.Errorf("a pod in kube-system as %s: admitted", sa)
			}
			request := map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": map[string]any{}}
			for _, who := range []string{argoOnSpoke, "system:serviceaccount:external-secrets:external-secrets"} {
				if ok, _ := ps["serviceaccounts/token"].admitSubresource(t, request, nil, "kube-system", sa, "token", who,
					tokenRequestKind, serviceAccounts); ok {
					t.Errorf("%s requests a token of %s: admitted", who, sa)
				}
			}
			if ok, msg := ps["serviceaccounts/token"].admitSubresource(t, request, nil, "kube-system", sa, "token",
				tenant.TokenRequester, tokenRequestKind, serviceAccounts); !ok {
				t.Errorf("kube-controller-manager requests its controller %s's token: refused: %s", sa, msg)
			}
			token := map[string]any{"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token",
				"metadata": map[string]any{"name": sa + "-token", "namespace": "kube-system",
					"annotations": map[string]any{"kubernetes.io/service-account.name": sa}}}
			if ok, _ := ps["secrets"].admit(t, token, nil, "kube-system", argoOnSpoke, secretKind, secretResource); ok {
				t.Errorf("a token Secret for %s in kube-system: admitted", sa)
			}
		}
		for _, sa := range []string{"aws-load-balancer-controller", "metrics-server", ""} {
			pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p", "namespace": "kube-system"},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}
			if sa != "" {
				field(pod, "spec")["serviceAccountName"] = sa
			}
			if ok, msg := ps["pods"].admit(t, pod, nil, "kube-system", "system:serviceaccount:kube-system:replicaset-controller", podKind, pods); !ok {
				t.Errorf("an add-on's pod as %q in kube-system: refused: %s", sa, msg)
			}
		}
		request := map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": map[string]any{}}
		for _, who := range []string{"system:node:ip-10-0-1-1.ec2.internal", "system:serviceaccount:external-secrets:external-secrets"} {
			if ok, msg := ps["serviceaccounts/token"].admitSubresource(t, request, nil, "kube-system", "metrics-server", "token",
				who, tokenRequestKind, serviceAccounts); !ok {
				t.Errorf("%s requests metrics-server's token: refused: %s", who, msg)
			}
		}
		for _, s := range []map[string]any{
			{"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": map[string]any{"name": "s", "namespace": "kube-system"}},
			{"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token", "metadata": map[string]any{
				"name": "t", "namespace": "kube-system", "annotations": map[string]any{"kubernetes.io/service-account.name": "metrics-server"}}},
		} {
			if ok, msg := ps["secrets"].admit(t, s, nil, "kube-system", argoOnSpoke, secretKind, secretResource); !ok {
				t.Errorf("a chart's Secret %v in kube-system: refused: %s", field(s, "metadata")["name"], msg)
			}
		}
	})
}
