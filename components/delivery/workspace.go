package delivery

import (
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// AuthDelegator is the ClusterRole every Stack's ServiceAccount is bound to: PKO's workspace uses the API
// server to check who calls it (PKO v2 docs/migration.md).
const AuthDelegator = "system:auth-delegator"

// stackPrerequisites creates what the Stacks need on the hub before Argo CD applies them: their namespace, the
// backend's access token and the program's Git token Secrets, and per stage the workspace's ServiceAccount with its ClusterRoleBindings. It returns
// those of each stage, by stage, the shared ones included.
func (b *builder) stackPrerequisites() (map[string][]pulumi.Resource, error) {
	a := b.args
	ns, err := corev1.NewNamespace(b.ctx, childName(b.name, "namespace"), &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(a.Namespace)},
	}, b.child(b.k8s)...)
	if err != nil {
		return nil, err
	}
	shared := []pulumi.Resource{ns}
	tokens := []struct {
		part, name string
		value      pulumi.StringInput
	}{{"access-token", AccessTokenSecret, a.PulumiAccessToken}, {"program-git-token", ProgramTokenSecret, a.Program.GitToken}}
	for _, t := range tokens {
		if t.value == nil {
			continue
		}
		sec, err := corev1.NewSecret(b.ctx, childName(b.name, t.part), &corev1.SecretArgs{
			Metadata:   &metav1.ObjectMetaArgs{Name: pulumi.String(t.name), Namespace: pulumi.String(a.Namespace)},
			StringData: pulumi.StringMap{accessTokenKey: pulumi.ToSecret(t.value).(pulumi.StringOutput)},
		}, b.child(b.k8s, ns)...)
		if err != nil {
			return nil, err
		}
		shared = append(shared, sec)
	}
	out := map[string][]pulumi.Resource{}
	for _, l := range b.links {
		sa, err := corev1.NewServiceAccount(b.ctx, childName(b.name, l.Name+"-sa"), &corev1.ServiceAccountArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(l.ServiceAccountName), Namespace: pulumi.String(a.Namespace)},
		}, b.child(b.k8s, ns)...)
		if err != nil {
			return nil, err
		}
		res := append([]pulumi.Resource{sa}, shared...)
		for _, role := range append([]string{AuthDelegator}, l.ClusterRoles...) {
			crb, err := rbacv1.NewClusterRoleBinding(b.ctx, childName(b.name, l.Name+"-"+role),
				&rbacv1.ClusterRoleBindingArgs{
					Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(BindingName(a.Namespace, l.ServiceAccountName, role))},
					RoleRef: rbacv1.RoleRefArgs{
						ApiGroup: pulumi.String("rbac.authorization.k8s.io"),
						Kind:     pulumi.String("ClusterRole"),
						Name:     pulumi.String(role),
					},
					Subjects: rbacv1.SubjectArray{rbacv1.SubjectArgs{
						Kind:      pulumi.String("ServiceAccount"),
						Name:      pulumi.String(l.ServiceAccountName),
						Namespace: pulumi.String(a.Namespace),
					}},
				}, b.child(b.k8s, sa)...)
			if err != nil {
				return nil, err
			}
			res = append(res, crb)
		}
		out[l.Name] = res
	}
	return out, nil
}

// BindingName is the ClusterRoleBinding of a Stack's ServiceAccount to role: "<namespace>:<account>:<role>".
func BindingName(namespace, account, role string) string {
	return namespace + ":" + account + ":" + role
}
