package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// argoCDUser is the Kubernetes username of Argo CD's service account sa in Argo CD's namespace: who its pods are
// to the hub's API server (and whom a test impersonates to write as them).
func argoCDUser(sa string) string {
	return "system:serviceaccount:" + gitopsbridge.DefaultNamespace + ":" + sa
}

// argoCDGroups are the groups the API server gives a service account of Argo CD's namespace (argoCDUser), for a
// SubjectAccessReview to ask as that account.
func argoCDGroups() []string {
	return []string{"system:serviceaccounts", "system:serviceaccounts:" + gitopsbridge.DefaultNamespace, "system:authenticated"}
}

// controllerAsAdmin gives Argo CD's application controller, for the test's length, what it holds in namespace on a
// hub where it is the hub's admin (hub.addonsOnHub, a tenant on the hub, hub.controllerClusterAdmin): every Secret
// (Kubernetes' edit cluster role). The dev hub's controller is narrowed (its add-ons are its stack's), so RBAC would
// refuse it before the fleet's guards answer; with this binding the guard, not RBAC, is what a test of the guard
// meets.
func controllerAsAdmin(ctx context.Context, t *testing.T, hub *fleettest.Hub, namespace string) {
	t.Helper()
	bindings := hub.Typed().RbacV1().RoleBindings(namespace)
	const name = "e2e-controller-as-admin"
	if _, err := bindings.Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: gitopsbridge.DefaultNamespace,
			Name: gitopsbridge.ApplicationControllerServiceAccount}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bindings.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	// The authorizer answers from its informer's cache: wait until it has the binding.
	user := argoCDUser(gitopsbridge.ApplicationControllerServiceAccount)
	write := []authorizationv1.ResourceAttributes{{Verb: "update", Resource: "secrets", Namespace: namespace}}
	if no, ok := waitFor(30*time.Second, func() ([]string, bool) {
		_, no := access(ctx, t, hub.Typed(), user, argoCDGroups(), write)
		return no, len(no) == 0
	}); !ok {
		t.Fatalf("30 s after the binding the controller still may not %v", no)
	}
}

// addonRole says what is wrong with addon's service account on kube, whose namespace and name the cluster secret's
// annotations give (<addon>_namespace, <addon>_service_account): nil when it carries the IAM role the fleet made
// for the add-on (<addon>_iam_role_arn, as eks.amazonaws.com/role-arn) and the offline cloud holds that role.
func addonRole(ctx context.Context, kube kubernetes.Interface, cloud *fleettest.Cloud, annotations map[string]string,
	addon string,
) error {
	role := annotations[addon+addons.IAMRoleArnSuffix]
	sa, err := kube.CoreV1().ServiceAccounts(annotations[addon+addons.NamespaceSuffix]).Get(ctx,
		annotations[addon+"_service_account"], metav1.GetOptions{})
	switch {
	case err != nil:
		return fmt.Errorf("%s's service account: %w", addon, err)
	case role == "" || sa.Annotations["eks.amazonaws.com/role-arn"] != role:
		return fmt.Errorf("%s's service account has role %q, want the fleet's %q", addon,
			sa.Annotations["eks.amazonaws.com/role-arn"], role)
	case !cloud.RoleExists(role):
		return fmt.Errorf("%s's role %s is not in the offline cloud", addon, role)
	}
	return nil
}

// defaultClass is the annotation that marks a cluster's default StorageClass.
const defaultClass = "storageclass.kubernetes.io/is-default-class"

// fieldManagers are the managers of o's fields, each with its operation (Apply or Update).
func fieldManagers(o metav1.Object) map[string]metav1.ManagedFieldsOperationType {
	out := map[string]metav1.ManagedFieldsOperationType{}
	for _, f := range o.GetManagedFields() {
		out[f.Manager] = f.Operation
	}
	return out
}

// stackManager is true for the Kubernetes provider's field manager (pulumi-kubernetes-<hash>): a stack's writes.
func stackManager(m string) bool { return strings.HasPrefix(m, "pulumi-kubernetes") }
