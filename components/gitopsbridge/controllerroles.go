package gitopsbridge

import (
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// controllerRoles grants the application controller, when it is not the hub's admin, each of ControllerWrites: a
// Role ControllerWriteRole and its RoleBinding in the write's namespace, after deps (the namespaces), bound to the
// controller's service account in the final chart values.
func (b *builder) controllerRoles(k8s pulumi.ProviderResource, values map[string]any, deps []pulumi.Resource) ([]pulumi.Resource, error) {
	if hubControllerAdmin(*b.args.Hub) {
		return nil, nil
	}
	var out []pulumi.Resource
	for _, w := range ControllerWrites(b.args) {
		r, err := NewControllerWrite(b.ctx, childName(b.name, "sync-role-"+w.Namespace), w,
			ControllerSubject(b.args.Namespace, serviceAccountOf(values, "controller")),
			b.child(k8s, pulumi.DependsOn(deps))...)
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// ControllerSubject is Argo CD's application controller's service account in Argo CD's namespace, as a
// RoleBinding subject.
func ControllerSubject(argocdNamespace, serviceAccount string) rbacv1.SubjectArgs {
	return rbacv1.SubjectArgs{Kind: pulumi.String("ServiceAccount"), Name: pulumi.String(serviceAccount),
		Namespace: pulumi.String(argocdNamespace)}
}

// NewControllerWrite registers the Role ControllerWriteRole with w's rules in w's namespace and its RoleBinding
// to subject, under name ("-binding" for the binding).
func NewControllerWrite(ctx *pulumi.Context, name string, w ControllerWrite, subject rbacv1.SubjectArgs,
	opts ...pulumi.ResourceOption) ([]pulumi.Resource, error) {
	meta := &metav1.ObjectMetaArgs{Name: pulumi.String(ControllerWriteRole), Namespace: pulumi.String(w.Namespace)}
	verbs := pulumi.ToStringArray(ControllerWriteVerbs)
	role, err := rbacv1.NewRole(ctx, name, &rbacv1.RoleArgs{
		Metadata: meta,
		Rules: rbacv1.PolicyRuleArray{rbacv1.PolicyRuleArgs{
			ApiGroups: pulumi.StringArray{pulumi.String(w.Group)},
			Resources: pulumi.ToStringArray(w.Resources),
			Verbs:     verbs,
		}},
	}, opts...)
	if err != nil {
		return nil, err
	}
	binding, err := rbacv1.NewRoleBinding(ctx, name+"-binding", &rbacv1.RoleBindingArgs{
		Metadata: meta,
		RoleRef: rbacv1.RoleRefArgs{ApiGroup: pulumi.String("rbac.authorization.k8s.io"), Kind: pulumi.String("Role"),
			Name: pulumi.String(ControllerWriteRole)},
		Subjects: rbacv1.SubjectArray{subject},
	}, append(opts, pulumi.DependsOn([]pulumi.Resource{role}))...)
	if err != nil {
		return nil, err
	}
	return []pulumi.Resource{role, binding}, nil
}
