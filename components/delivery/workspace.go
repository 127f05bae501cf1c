package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// AuthDelegator is the ClusterRole every Stack's ServiceAccount is bound to: PKO's workspace uses the API
// server to check who calls it (PKO v2 docs/migration.md).
const AuthDelegator = "system:auth-delegator"

// ClusterAdmin is the ClusterRole that owns the hub; clusterRoles name it only with allowClusterAdmin.
const ClusterAdmin = "cluster-admin"

// AdminClusterRoles are Kubernetes' user-facing ClusterRoles that, bound cluster-wide as clusterRoles are, own the
// hub too: cluster-admin; admin and edit, which read and write every namespace's Secrets (Argo CD's, every stage's
// Pulumi token) and run pods as any of their service accounts (Kubernetes' "User-facing roles" docs: edit "allows
// ... using any ServiceAccount in the namespace"). clusterRoles name them only with allowClusterAdmin.
var AdminClusterRoles = []string{ClusterAdmin, "admin", "edit"}

// stackPrerequisites creates what each stage's Stacks need on the hub before Argo CD applies them, in the
// stage's own namespace: the namespace, the stage's own backend access token and program Git token Secrets, the
// deploy ServiceAccount with its ClusterRoleBindings and, for a stage with a preview Stack, the preview
// ServiceAccount, bound to system:auth-delegator only; and Argo CD's application controller's grant to write
// the namespace's Stacks (gitopsbridge.ControllerWriteRole). Nothing is shared between stages. It returns them by stage.
func (b *builder) stackPrerequisites() (map[string][]pulumi.Resource, error) {
	out := map[string][]pulumi.Resource{}
	for _, l := range b.links {
		if !l.ownsWorkspace() {
			continue
		}
		res, err := b.stageWorkspace(l.DeliveryStage)
		if err != nil {
			return nil, err
		}
		out[l.Name] = res
	}
	return out, nil
}

func (b *builder) stageWorkspace(s DeliveryStage) ([]pulumi.Resource, error) {
	ns, err := corev1.NewNamespace(b.ctx, childName(b.name, s.Name+"-namespace"), &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(s.Namespace)},
	}, b.child(b.k8s)...)
	if err != nil {
		return nil, err
	}
	res := []pulumi.Resource{ns}
	type token struct {
		part, name string
		value      pulumi.StringInput
	}
	tokens := []token{{"access-token", AccessTokenSecret, s.PulumiAccessToken}, {"program-git-token", ProgramTokenSecret, s.ProgramGitToken}}
	if s.PreviewServiceAccountName != "" { // preview: true, or a preview stage targets it
		tokens = append(tokens, token{"preview-access-token", PreviewAccessTokenSecret, s.PreviewAccessToken})
	}
	for _, t := range tokens {
		if t.value == nil {
			continue
		}
		sec, err := corev1.NewSecret(b.ctx, childName(b.name, s.Name+"-"+t.part), &corev1.SecretArgs{
			Metadata:   &metav1.ObjectMetaArgs{Name: pulumi.String(t.name), Namespace: pulumi.String(s.Namespace)},
			StringData: pulumi.StringMap{accessTokenKey: pulumi.ToSecret(t.value).(pulumi.StringOutput)},
		}, b.child(b.k8s, ns)...)
		if err != nil {
			return nil, err
		}
		res = append(res, sec)
	}
	type identity struct {
		part, account string
		roles         []string
	}
	identities := []identity{{"sa", s.ServiceAccountName, append([]string{AuthDelegator}, s.ClusterRoles...)}}
	if s.PreviewServiceAccountName != "" { // preview: true, or a preview stage targets it
		identities = append(identities, identity{"preview-sa", s.PreviewServiceAccountName, []string{AuthDelegator}})
	}
	for _, id := range identities {
		sa, err := corev1.NewServiceAccount(b.ctx, childName(b.name, s.Name+"-"+id.part), &corev1.ServiceAccountArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(id.account), Namespace: pulumi.String(s.Namespace)},
		}, b.child(b.k8s, ns)...)
		if err != nil {
			return nil, err
		}
		res = append(res, sa)
		for _, role := range id.roles {
			part := s.Name + "-" + role
			if id.part != "sa" {
				part = s.Name + "-preview-" + role
			}
			crb, err := rbacv1.NewClusterRoleBinding(b.ctx, childName(b.name, part), &rbacv1.ClusterRoleBindingArgs{
				Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(BindingName(s.Namespace, id.account, role))},
				RoleRef: rbacv1.RoleRefArgs{
					ApiGroup: pulumi.String("rbac.authorization.k8s.io"),
					Kind:     pulumi.String("ClusterRole"),
					Name:     pulumi.String(role),
				},
				Subjects: rbacv1.SubjectArray{rbacv1.SubjectArgs{
					Kind:      pulumi.String("ServiceAccount"),
					Name:      pulumi.String(id.account),
					Namespace: pulumi.String(s.Namespace),
				}},
			}, b.child(b.k8s, sa)...)
			if err != nil {
				return nil, err
			}
			res = append(res, crb)
		}
	}
	// Argo CD's application controller syncs the stage's Stacks into its namespace: a grant of its own, for a hub
	// whose controller is not the cluster's admin (GitOpsBridge's hub.controllerClusterAdmin).
	sync, err := gitopsbridge.NewControllerWrite(b.ctx, childName(b.name, s.Name+"-argocd-sync"),
		gitopsbridge.ControllerWrite{Namespace: s.Namespace, Group: "pulumi.com", Resources: []string{"stacks"}},
		gitopsbridge.ControllerSubject(b.args.ArgocdNamespace, gitopsbridge.ApplicationControllerServiceAccount),
		b.child(b.k8s, ns)...)
	if err != nil {
		return nil, err
	}
	return append(res, sync...), nil
}

// BindingName is the ClusterRoleBinding of a Stack's ServiceAccount to role: "<namespace>:<account>:<role>".
func BindingName(namespace, account, role string) string {
	return namespace + ":" + account + ":" + role
}
