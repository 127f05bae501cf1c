package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// committedFile is the content the emulated GitHub holds for path of the registry repository.
func committedFile(env *fleettest.Env, path string) string {
	t := env.T()
	t.Helper()
	for _, r := range env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile") {
		if state, err := r.Plain(); err == nil && state["file"] == path {
			return fmt.Sprint(state["content"])
		}
	}
	t.Fatalf("nothing is committed to %s", path)
	return ""
}

// testTenantFolderPins replays a tenant's folder on a spoke's real API server, as Argo CD's application controller
// would sync it (the policies exempt no one but the fences' deployer): the spoke holds the tenant's admission
// policies, written by the deployer; a commit that sets Pod Security "privileged" on the tenant's namespace is
// refused with the policy's message, the file as the stack committed it is admitted, its fences are pinned
// (testTenantFences), a SecretStore that reads with external-secrets' own role (no auth) is refused, and the
// add-ons repository's path to the guards is closed (testTenantReach).
func testTenantFolderPins(ctx context.Context, t *testing.T, spoke *fleettest.Cluster, tenantName, content string) {
	cluster := spoke.Name
	dyn := spoke.Dynamic()
	policies := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"}
	bindings := policies
	bindings.Resource = "validatingadmissionpolicybindings"
	for _, p := range append([]string{tenant.NamespacePolicyName(tenantName), tenant.SecretStorePolicyName(tenantName),
		tenant.ServicePolicyName(tenantName), tenant.ExternalSecretPolicyName(tenantName)},
		append(tenant.FencePolicyNames(tenantName), tenant.ReachPolicyNames(tenantName)...)...) {
		if _, err := dyn.Resource(policies).Get(ctx, p, metav1.GetOptions{}); err != nil {
			t.Errorf("%s: policy %s: %v", cluster, p, err)
		}
		if _, err := dyn.Resource(bindings).Get(ctx, p, metav1.GetOptions{}); err != nil {
			t.Errorf("%s: binding %s: %v", cluster, p, err)
		}
	}

	namespaces := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"})
	var synced []string
	for _, doc := range strings.Split(content, "---\n")[1:] {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		if obj["kind"] != "Namespace" {
			continue
		}
		evil := (&unstructured.Unstructured{Object: obj}).DeepCopy()
		labels := evil.GetLabels()
		labels["pod-security.kubernetes.io/enforce"] = "privileged"
		evil.SetLabels(labels)
		_, err := namespaces.Create(ctx, evil, metav1.CreateOptions{})
		if err == nil || !strings.Contains(err.Error(), "tenant namespace "+evil.GetName()+" enforces, audits and warns Pod Security level") {
			t.Errorf("%s: the tenant's namespace %s as privileged: %v, want the namespaces policy's refusal", cluster, evil.GetName(), err)
		}
		if _, err := namespaces.Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
			t.Errorf("%s: the tenant's namespace as committed: %v", cluster, err)
			continue
		}
		synced = append(synced, evil.GetName())
	}
	if len(synced) == 0 {
		t.Fatalf("%s: no namespace of the committed file was admitted:\n%s", cluster, content)
	}

	// A Service that claims an address for other workloads' traffic (CVE-2020-8554).
	_, err := spoke.Typed().CoreV1().Services(synced[0]).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: synced[0]},
		Spec:       corev1.ServiceSpec{ExternalIPs: []string{"10.96.0.10"}, Ports: []corev1.ServicePort{{Port: 53}}},
	}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+tenant.ServicePolicyName(tenantName)+"'") {
		t.Errorf("%s: a Service with externalIPs in %s: %v, want the services policy's refusal", cluster, synced[0], err)
	}
	// Removing the Namespace from the file: Argo CD would prune it, but the Prune=false the stack wrote cannot go.
	live, err := namespaces.Get(ctx, synced[0], metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	unpinned := live.DeepCopy()
	unpinned.SetAnnotations(nil)
	if _, err := namespaces.Update(ctx, unpinned, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}); err == nil ||
		!strings.Contains(err.Error(), "Prune=false") {
		t.Errorf("%s: the tenant's namespace %s without Prune=false: %v, want the namespaces policy's refusal", cluster, synced[0], err)
	}

	testTenantFences(ctx, t, spoke, tenantName, content, synced[0])

	// A SecretStore (the kind external-secrets serves; a stand-in CRD here) that reads with external-secrets' own role.
	stores := schema.GroupVersionResource{Group: "external-secrets.io", Version: "v1beta1", Resource: "secretstores"}
	openCRD(ctx, t, dyn, stores, "SecretStore", "Namespaced")
	store := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "external-secrets.io/v1beta1", "kind": "SecretStore",
		"metadata": map[string]any{"name": "platform", "namespace": synced[0]},
		"spec":     map[string]any{"provider": map[string]any{"aws": map[string]any{"service": "SecretsManager", "region": spoke.Region}}}}}
	_, err = dyn.Resource(stores).Namespace(synced[0]).Create(ctx, store, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+tenant.SecretStorePolicyName(tenantName)+"'") {
		t.Errorf("%s: a SecretStore without auth in %s: %v, want the secret-stores policy's refusal", cluster, synced[0], err)
	}

	testTenantReach(ctx, t, spoke, tenantName)
}

// testTenantFences writes the fences of namespace ns from the tenant's committed file (its ResourceQuota, LimitRange
// and NetworkPolicies) on the spoke's real API server as a writer that is not the deployer (Argo CD's sync, here an
// impersonated user with cluster-admin through a binding of its own, not system:masters): each is admitted as the
// file has it, so the API server's typed object equals the spec the stack computed. Then, as a dry run, an
// allow-all NetworkPolicy, a deny-all loosened to ingress only, a raised quota and the deny-all's deletion (Argo
// CD's prune of a commit that drops it) are refused with the fences' messages, and so is the namespace's deletion
// with the namespaces policy's.
func testTenantFences(ctx context.Context, t *testing.T, spoke *fleettest.Cluster, tenantName, content, ns string) {
	const committer = "fleet-e2e:tenant-committer"
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "fleet-e2e-tenant-committer"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: committer}}}
	if _, err := spoke.Typed().RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dyn := spoke.DynamicAs(committer, "system:authenticated")
	resources := map[string]schema.GroupVersionResource{
		"ResourceQuota": {Version: "v1", Resource: "resourcequotas"},
		"LimitRange":    {Version: "v1", Resource: "limitranges"},
		"NetworkPolicy": {Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"},
	}
	var denyAll, quota *unstructured.Unstructured
	written := 0
	for _, doc := range strings.Split(content, "---\n")[1:] {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		gvr, ok := resources[u.GetKind()]
		if !ok || u.GetNamespace() != ns {
			continue
		}
		live, err := dyn.Resource(gvr).Namespace(ns).Create(ctx, u, metav1.CreateOptions{})
		if err != nil {
			t.Errorf("%s: the file's %s %s/%s, written by Argo CD: %v", spoke.Name, u.GetKind(), ns, u.GetName(), err)
			continue
		}
		written++
		switch {
		case u.GetKind() == "NetworkPolicy" && u.GetName() == tenant.DenyAllPolicy:
			denyAll = live
		case u.GetKind() == "ResourceQuota":
			quota = live
		}
	}
	if written < 6 || denyAll == nil || quota == nil {
		t.Fatalf("%s: %d fences of %s written, the deny-all %v, the quota %v; want the file's six", spoke.Name, written, ns,
			denyAll != nil, quota != nil)
	}
	dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	netpols := dyn.Resource(resources["NetworkPolicy"]).Namespace(ns)
	allowAll := denyAll.DeepCopy()
	allowAll.SetName("allow-all")
	allowAll.SetResourceVersion("")
	allowAll.Object["spec"] = map[string]any{"podSelector": map[string]any{}, "ingress": []any{map[string]any{}},
		"egress": []any{map[string]any{}}, "policyTypes": []any{"Ingress", "Egress"}}
	_, err := netpols.Create(ctx, allowAll, dry)
	want := "tenant NetworkPolicy " + ns + "/allow-all is not one the stack computed"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: an allow-all NetworkPolicy in %s: %v, want %q", spoke.Name, ns, err, want)
	}
	loosened := denyAll.DeepCopy()
	loosened.Object["spec"].(map[string]any)["policyTypes"] = []any{"Ingress"}
	_, err = netpols.Update(ctx, loosened, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "differs from the spec the stack computed") {
		t.Errorf("%s: the deny-all loosened to ingress only: %v, want the network-policies fence's refusal", spoke.Name, err)
	}
	// The quota as it is now: the quota controller writes its status after the create.
	quotas := dyn.Resource(resources["ResourceQuota"]).Namespace(ns)
	raised, err := quotas.Get(ctx, quota.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raised.Object["spec"].(map[string]any)["hard"].(map[string]any)["requests.cpu"] = "64"
	_, err = quotas.Update(ctx, raised, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+tenant.FencePolicyNames(tenantName)[0]+"'") {
		t.Errorf("%s: a raised quota: %v, want the quotas fence's refusal", spoke.Name, err)
	}
	err = netpols.Delete(ctx, tenant.DenyAllPolicy, metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "are deleted by the stack only") {
		t.Errorf("%s: the deny-all deleted by a commit's prune: %v, want the network-policies fence's refusal", spoke.Name, err)
	}
	// The namespace itself, deleted as Argo CD's resources finalizer would with the tenant's Application (Prune=false
	// does not hold there): the namespaces policy refuses it, matched on the live namespace's labels.
	err = dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Delete(ctx, ns,
		metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+tenant.NamespacePolicyName(tenantName)+"'") ||
		!strings.Contains(err.Error(), "deleted by the stack only") {
		t.Errorf("%s: the tenant's namespace %s deleted with its Application: %v, want the namespaces policy's refusal", spoke.Name, ns, err)
	}
}
