package aws

import (
	"context"
	"reflect"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// AccessPolicyRoles are the ClusterRoles that stand for EKS's access policies. EKS authorizes access policies
// itself, not through RBAC. Where its documentation ("Review access policy permissions") gives a policy's rules
// and a default ClusterRole has the same, that ClusterRole stands for it; policyRoles are the others.
var AccessPolicyRoles = map[string]string{
	"AmazonEKSClusterAdminPolicy":  "cluster-admin",
	"AmazonEKSAdminPolicy":         "admin",
	"AmazonEKSEditPolicy":          "edit",
	"AmazonEKSViewPolicy":          "view",
	"AmazonEKSAdminViewPolicy":     "eks:admin-view",
	"AmazonEKSArgoCDClusterPolicy": "eks:argocd-cluster",
	"AmazonEKSArgoCDPolicy":        "eks:argocd",
}

// policyRoles are the ClusterRoles of the access policies no default ClusterRole matches, labelled AccessLabel=role.
//   - AmazonEKSAdminViewPolicy: get, list and watch of every resource, Secrets included, as documented.
//   - The managed Argo CD's two, which EKS associates with a capability's role on its cluster and documents in words
//     only ("Security considerations for EKS Capabilities"; "Register target clusters": the entry grants "no
//     Kubernetes RBAC permissions" for what Applications deploy). AmazonEKSArgoCDClusterPolicy, cluster-wide:
//     namespaces and CustomResourceDefinitions read, for Argo CD's own CRDs and discovery; no read of other kinds,
//     as users of the capability report (an Application then fails its comparison listing them).
//     AmazonEKSArgoCDPolicy, in the capability's namespace: Argo CD's own kinds, and the Secrets, ConfigMaps and
//     Events it keeps there.
var policyRoles = []rbacv1.ClusterRole{
	{ObjectMeta: metav1.ObjectMeta{Name: "eks:admin-view"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"get", "list", "watch"}},
	}},
	{ObjectMeta: metav1.ObjectMeta{Name: "eks:argocd-cluster"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"},
			Verbs: []string{"get", "list", "watch"}},
	}},
	{ObjectMeta: metav1.ObjectMeta{Name: "eks:argocd"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"argoproj.io"}, Resources: []string{"*"}, Verbs: []string{"*"}},
		{APIGroups: []string{""}, Resources: []string{"secrets", "configmaps", "events"}, Verbs: []string{"*"}},
	}},
}

// ensurePolicyRoles creates or updates policyRoles on a control plane.
func ensurePolicyRoles(ctx context.Context, kube kubernetes.Interface) error {
	for _, r := range policyRoles {
		r.Labels = map[string]string{AccessLabel: "role"}
		got, err := kube.RbacV1().ClusterRoles().Get(ctx, r.Name, metav1.GetOptions{})
		if err == nil && reflect.DeepEqual(got.Rules, r.Rules) {
			continue
		}
		if err == nil {
			got.Rules = r.Rules
			_, err = kube.RbacV1().ClusterRoles().Update(ctx, got, metav1.UpdateOptions{})
		} else if ignoreNotFound(err) == nil {
			_, err = kube.RbacV1().ClusterRoles().Create(ctx, &r, metav1.CreateOptions{})
		}
		if ignoreExists(err) != nil {
			return err
		}
	}
	return nil
}
