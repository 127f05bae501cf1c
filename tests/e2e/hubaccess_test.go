package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// hubSyncs are what the fleet's Applications on a managed hub have Argo CD do there, as the API server's
// SubjectAccessReview attributes: the bootstrap ApplicationSets and the Applications they generate in each
// repository's namespace, and what the hub's add-ons' charts carry (CRDs, cluster roles and their bindings,
// webhooks, workloads); then, from discovery, a cluster-wide list of every kind the server serves, which Argo CD's
// cache needs for any Application to compare (EKS User Guide, "Register target clusters", Minimum permissions).
func hubSyncs(t *testing.T, admin kubernetes.Interface, argocdNamespace string) []authorizationv1.ResourceAttributes {
	t.Helper()
	var out []authorizationv1.ResourceAttributes
	for _, repo := range []string{"addons", "workloads"} {
		ns := gitopsbridge.ApplicationsNamespace(argocdNamespace, repo)
		for _, r := range []string{"applicationsets", "applications"} {
			out = append(out, authorizationv1.ResourceAttributes{Namespace: ns, Verb: "create", Group: "argoproj.io", Resource: r})
		}
	}
	out = append(out, addonChartWrites()...)
	// An aggregated API with no server behind it (an add-on's, before it runs) fails its group only.
	lists, err := admin.Discovery().ServerPreferredResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		t.Fatalf("discovery of the hub: %v", err)
	}
	listable, err := discovery.GroupVersionResources(discovery.FilteredBy(discovery.SupportsAllVerbs{Verbs: []string{"list"}}, lists))
	if err != nil {
		t.Fatal(err)
	}
	for _, gvr := range slices.SortedFunc(maps.Keys(listable), func(a, b schema.GroupVersionResource) int {
		return strings.Compare(a.String(), b.String())
	}) {
		if !strings.Contains(gvr.Resource, "/") {
			out = append(out, authorizationv1.ResourceAttributes{Verb: "list", Group: gvr.Group, Resource: gvr.Resource})
		}
	}
	return out
}

// addonChartWrites are what an add-on's chart writes when it is installed, as SubjectAccessReview attributes: CRDs,
// cluster roles and their bindings, admission webhooks, and its controller's Deployment (in kube-system, where the
// template installs metrics-server and the load balancer controller).
func addonChartWrites() []authorizationv1.ResourceAttributes {
	var out []authorizationv1.ResourceAttributes
	for _, gr := range [][2]string{{"apiextensions.k8s.io", "customresourcedefinitions"}, {"rbac.authorization.k8s.io", "clusterroles"},
		{"rbac.authorization.k8s.io", "clusterrolebindings"}, {"admissionregistration.k8s.io", "validatingwebhookconfigurations"},
		{"admissionregistration.k8s.io", "mutatingwebhookconfigurations"}} {
		out = append(out, authorizationv1.ResourceAttributes{Verb: "create", Group: gr[0], Resource: gr[1]})
	}
	return append(out, authorizationv1.ResourceAttributes{Namespace: "kube-system", Verb: "create", Group: "apps", Resource: "deployments"})
}

// denied are the attributes the API server does not allow user with groups, as "verb group/resource in ns".
func denied(ctx context.Context, t *testing.T, admin kubernetes.Interface, user string, groups []string,
	attrs []authorizationv1.ResourceAttributes,
) []string {
	t.Helper()
	_, no := access(ctx, t, admin, user, groups, attrs)
	return no
}

// access are the attributes the API server allows user with groups and those it does not, each as
// "verb group/resource in ns".
func access(ctx context.Context, t *testing.T, admin kubernetes.Interface, user string, groups []string,
	attrs []authorizationv1.ResourceAttributes,
) (allowed, denied []string) {
	t.Helper()
	for _, a := range attrs {
		review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: user, Groups: groups, ResourceAttributes: &a}}
		got, err := admin.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("SubjectAccessReview %+v: %v", a, err)
		}
		s := fmt.Sprintf("%s %s/%s in %q", a.Verb, a.Group, a.Resource, a.Namespace)
		if got.Status.Allowed {
			allowed = append(allowed, s)
		} else {
			denied = append(denied, s)
		}
	}
	return allowed, denied
}

// bindOnly binds group to the ClusterRoles standing for EKS's two Argo CD access policies as EKS associates them
// with a capability's role (the cluster one cluster-wide, the other in Argo CD's namespace), and nothing else.
func bindOnly(ctx context.Context, t *testing.T, admin kubernetes.Interface, group, argocdNamespace string) {
	t.Helper()
	subjects := []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: group}}
	meta := metav1.ObjectMeta{Name: "e2e-argocd-policies-only"}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: meta,
		Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "eks:argocd-cluster"}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	meta.Namespace = argocdNamespace
	if _, err := admin.RbacV1().RoleBindings(argocdNamespace).Create(ctx, &rbacv1.RoleBinding{ObjectMeta: meta,
		Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "eks:argocd"}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
