package delivery

import (
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// kargo creates the Project after Kargo, then in its namespace the ProjectConfig, the git credentials, the
// Warehouse, the Stages in graph order (each after its upstream stages and its Application) and the approvers' RBAC.
func (b *builder) kargo(release []pulumi.Resource, apps map[string]pulumi.Resource) error {
	a := b.args
	project, err := b.object("project", Project(a), release)
	if err != nil {
		return err
	}
	inProject := []pulumi.Resource{project}
	if _, err := b.object("project-config", ProjectConfig(a), inProject); err != nil {
		return err
	}
	var creds []pulumi.Resource
	for _, c := range GitCredentials(a) {
		sec, err := corev1.NewSecret(b.ctx, childName(b.name, c.Name), &corev1.SecretArgs{
			Metadata: &metav1.ObjectMetaArgs{
				Name:      pulumi.String(c.Name),
				Namespace: pulumi.String(a.Project),
				Labels:    pulumi.StringMap{CredentialTypeLabel: pulumi.String("git")},
			},
			StringData: pulumi.StringMap{
				"repoURL":  pulumi.String(c.RepoURL),
				"username": pulumi.String(gitUsername),
				"password": pulumi.ToSecret(c.Token).(pulumi.StringOutput),
			},
		}, b.child(b.k8s, project)...)
		if err != nil {
			return err
		}
		creds = append(creds, sec)
	}
	warehouse, err := b.object("warehouse", Warehouse(a), append(inProject, creds...))
	if err != nil {
		return err
	}
	verification, err := b.verification(project)
	if err != nil {
		return err
	}
	stages := map[string]pulumi.Resource{}
	for _, l := range b.links { // in graph order: every upstream first
		after := append([]pulumi.Resource{warehouse}, verification...)
		if app, ok := apps[l.Name]; ok {
			after = append(after, app)
		}
		for _, u := range l.upstreams {
			after = append(after, stages[u])
		}
		stage, err := b.object(l.Name+"-stage", KargoStage(a, l), after)
		if err != nil {
			return err
		}
		stages[l.Name] = stage
		if l.Approvers != nil {
			if err := b.approvers(l.DeliveryStage, stage); err != nil {
				return err
			}
		}
	}
	return nil
}

// approvers lets the stage's approvers promote into it: a ServiceAccount Kargo maps their OIDC claims to, a
// Role granting promote on the Stage, and the RoleBinding between them, in the project's namespace.
func (b *builder) approvers(s DeliveryStage, stage pulumi.Resource) error {
	a, name := b.args, PromoterName(s.Name)
	claims, err := Claims(*s.Approvers)
	if err != nil {
		return err
	}
	sa, err := corev1.NewServiceAccount(b.ctx, childName(b.name, name+"-sa"), &corev1.ServiceAccountArgs{
		Metadata: &metav1.ObjectMetaArgs{
			Name:        pulumi.String(name),
			Namespace:   pulumi.String(a.Project),
			Annotations: pulumi.StringMap{ClaimsAnnotation: pulumi.String(claims)},
		},
	}, b.child(b.k8s, stage)...)
	if err != nil {
		return err
	}
	var rules rbacv1.PolicyRuleArray
	for _, r := range PromoterRules(s.Name) {
		rules = append(rules, rbacv1.PolicyRuleArgs{
			ApiGroups: pulumi.ToStringArray(r.APIGroups), Resources: pulumi.ToStringArray(r.Resources),
			Verbs: pulumi.ToStringArray(r.Verbs), ResourceNames: pulumi.ToStringArray(r.ResourceNames),
		})
	}
	role, err := rbacv1.NewRole(b.ctx, childName(b.name, name+"-role"), &rbacv1.RoleArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(name), Namespace: pulumi.String(a.Project)},
		Rules:    rules,
	}, b.child(b.k8s, stage)...)
	if err != nil {
		return err
	}
	_, err = rbacv1.NewRoleBinding(b.ctx, childName(b.name, name+"-binding"), &rbacv1.RoleBindingArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(name), Namespace: pulumi.String(a.Project)},
		RoleRef: rbacv1.RoleRefArgs{
			ApiGroup: pulumi.String("rbac.authorization.k8s.io"),
			Kind:     pulumi.String("Role"),
			Name:     pulumi.String(name),
		},
		Subjects: rbacv1.SubjectArray{rbacv1.SubjectArgs{
			Kind: pulumi.String("ServiceAccount"), Name: pulumi.String(name), Namespace: pulumi.String(a.Project),
		}},
	}, b.child(b.k8s, sa, role)...)
	return err
}
