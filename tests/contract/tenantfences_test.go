package contract

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

var (
	quotaKind          = schema.GroupVersionKind{Version: "v1", Kind: "ResourceQuota"}
	quotaResource      = schema.GroupVersionResource{Version: "v1", Resource: "resourcequotas"}
	limitRangeKind     = schema.GroupVersionKind{Version: "v1", Kind: "LimitRange"}
	limitRangeResource = schema.GroupVersionResource{Version: "v1", Resource: "limitranges"}
	netpolKind         = schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}
	netpolResource     = schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"}
)

// TestTenantFences: Kubernetes' own admission code runs the tenant's fence policies (its namespaces' ResourceQuotas,
// LimitRanges and NetworkPolicies) over what a commit to tenants/<tenant>/ (Argo CD's sync and prune) and the
// namespace's owners (edit rights on NetworkPolicies) can do. Every fence of the stack's own file is admitted, each
// object as the API server types it (quantities and ports included); an allow-all NetworkPolicy, a loosened deny-all,
// a raised quota or limit are refused, and so is a deletion of any fence, but by the deployer (any session of its
// role) and kube-controller-manager deleting the namespace. Another namespace is not the tenant's to fence.
func TestTenantFences(t *testing.T) {
	a := payments()
	const deployerRole = "arn:aws:sts::111122223333:assumed-role/deployer/"
	ps, err := tenant.FencePolicies(a, deployerRole+admission.SessionNameTemplate)
	if err != nil {
		t.Fatal(err)
	}
	byResource := map[string]admission.Policy{}
	for _, p := range ps {
		byResource[p.Resource] = p
	}
	objs := folderObjects(t, a, true, "us-east-2")
	type kindOf struct {
		gvk schema.GroupVersionKind
		gvr schema.GroupVersionResource
	}
	kinds := map[string]kindOf{"ResourceQuota": {quotaKind, quotaResource}, "LimitRange": {limitRangeKind, limitRangeResource},
		"NetworkPolicy": {netpolKind, netpolResource}}
	const committer = "system:serviceaccount:argocd:argocd-application-controller"
	const owner = "arn:aws:sts::111122223333:assumed-role/payments/alice"
	fenced := 0
	for key, obj := range objs {
		k, ok := kinds[obj["kind"].(string)]
		if !ok {
			continue
		}
		fenced++
		p := byResource[k.gvr.Resource]
		ns := field(obj, "metadata")["namespace"].(string)
		for _, op := range []struct {
			name     string
			obj, old map[string]any
		}{{"create", obj, nil}, {"update", obj, obj}} {
			if ok, msg := admit(t, p, op.obj, op.old, ns, committer, k.gvk, k.gvr); !ok {
				t.Errorf("the file's %s, %s by Argo CD: refused: %s", key, op.name, msg)
			}
		}
		for _, who := range []string{committer, owner} {
			if ok, msg := admit(t, p, nil, obj, ns, who, k.gvk, k.gvr); ok || !strings.Contains(msg, "are deleted by the stack only") {
				t.Errorf("%s deletes the file's %s: %v %s; want refused", who, key, ok, msg)
			}
		}
		for _, who := range []string{deployerRole + "pulumi-1700000000", "system:serviceaccount:kube-system:namespace-controller"} {
			if ok, msg := admit(t, p, nil, obj, ns, who, k.gvk, k.gvr); !ok {
				t.Errorf("%s deletes the file's %s: refused: %s", who, key, msg)
			}
		}
	}
	if fenced != 2*(1+1+4) {
		t.Errorf("the file has %d fences; want a quota, a limit range and four network policies in each of the two namespaces", fenced)
	}

	denyAll := objs["NetworkPolicy/payments/"+tenant.DenyAllPolicy]
	quota := objs["ResourceQuota/payments/"+tenant.QuotaName]
	limits := objs["LimitRange/payments-batch/"+tenant.LimitRangeName]
	if denyAll == nil || quota == nil || limits == nil {
		t.Fatalf("the file has no deny-all, quota or limit range: %v", objs)
	}
	allowAll := edited(t, denyAll, func(o map[string]any) {
		field(o, "metadata")["name"] = "allow-all"
		field(o, "spec")["ingress"] = []any{map[string]any{}}
		field(o, "spec")["egress"] = []any{map[string]any{}}
	})
	for name, tc := range map[string]struct {
		obj, old  map[string]any
		namespace string
		user      string
		k         kindOf
		want      string
	}{
		"an allow-all NetworkPolicy from a commit": {obj: allowAll, namespace: "payments", user: committer, k: kinds["NetworkPolicy"],
			want: "tenant NetworkPolicy payments/allow-all is not one the stack computed for the tenant"},
		"an allow-all NetworkPolicy from an owner": {obj: allowAll, namespace: "payments", user: owner, k: kinds["NetworkPolicy"],
			want: "is not one the stack computed"},
		"deny-all loosened to deny ingress only": {obj: edited(t, denyAll, func(o map[string]any) {
			field(o, "spec")["policyTypes"] = []any{"Ingress"}
		}), old: denyAll, namespace: "payments", user: committer, k: kinds["NetworkPolicy"],
			want: "tenant NetworkPolicy payments/" + tenant.DenyAllPolicy + " differs from the spec the stack computed for it"},
		"a raised quota": {obj: edited(t, quota, func(o map[string]any) { field(o, "spec", "hard")["requests.cpu"] = "64" }),
			old: quota, namespace: "payments", user: committer, k: kinds["ResourceQuota"], want: "differs from the spec the stack computed"},
		"a quota scoped away": {obj: edited(t, quota, func(o map[string]any) { field(o, "spec")["scopes"] = []any{"BestEffort"} }),
			old: quota, namespace: "payments", user: committer, k: kinds["ResourceQuota"], want: "differs from the spec"},
		"a second quota": {obj: edited(t, quota, func(o map[string]any) { field(o, "metadata")["name"] = "more" }),
			namespace: "payments", user: committer, k: kinds["ResourceQuota"], want: "is not one the stack computed"},
		"a raised default limit": {obj: edited(t, limits, func(o map[string]any) {
			o["spec"].(map[string]any)["limits"].([]any)[0].(map[string]any)["default"].(map[string]any)["cpu"] = "32"
		}), old: limits, namespace: "payments-batch", user: committer, k: kinds["LimitRange"], want: "differs from the spec"},
		"the deployer's own change": {obj: edited(t, quota, func(o map[string]any) { field(o, "spec", "hard")["requests.cpu"] = "8" }),
			old: quota, namespace: "payments", user: deployerRole + "pulumi-1700000000", k: kinds["ResourceQuota"]},
		"an allow-all NetworkPolicy in a namespace not the tenant's": {obj: edited(t, allowAll, func(o map[string]any) {
			field(o, "metadata")["namespace"] = "search"
		}), namespace: "search", user: committer, k: kinds["NetworkPolicy"]},
	} {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, byResource[tc.k.gvr.Resource], tc.obj, tc.old, tc.namespace, tc.user, tc.k.gvk, tc.k.gvr)
			switch {
			case tc.want == "" && !ok:
				t.Errorf("refused: %s", msg)
			case tc.want != "" && ok:
				t.Errorf("admitted (%s), want refused with %q", msg, tc.want)
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Errorf("refused with %q, want %q", msg, tc.want)
			}
		})
	}
}
