package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// object creates an untyped Argo CD or Kargo object through the hub's provider after the given resources.
func (b *builder) object(part string, obj map[string]any, after []pulumi.Resource) (pulumi.Resource, error) {
	return gitopsbridge.NewObject(b.ctx, childName(b.name, part), obj, b.child(b.k8s, after...)...)
}

// applications adds the Stack health check to argocd-cm, creates the delivery's Argo CD project and the Stack
// guard, then each stage's Argo CD Application after PKO (its CRD), the check, the project, the guard, the
// workspace the stage's Stacks run in (b.workspaces) and its manifests. It returns them by stage.
func (b *builder) applications(operator []pulumi.Resource, files map[string][]pulumi.Resource,
) (map[string]pulumi.Resource, error) {
	a := b.args
	health, err := corev1.NewConfigMapPatch(b.ctx, childName(b.name, "stack-health"), &corev1.ConfigMapPatchArgs{
		Metadata: &metav1.ObjectMetaPatchArgs{
			Name:      pulumi.String("argocd-cm"),
			Namespace: pulumi.String(a.ArgocdNamespace),
		},
		Data: pulumi.StringMap{HealthCheckKey: pulumi.String(HealthCheck)},
	}, b.child(b.k8s)...)
	if err != nil {
		return nil, err
	}
	project, err := b.object("argocd-project", AppProject(a).Object(), nil)
	if err != nil {
		return nil, err
	}
	policy := StackGuard(a)
	guard, err := admission.Register(b.ctx, childName(b.name, "stacks"), policy.Name, policy.Namespaces,
		pulumi.ToOutput(policy).(pulumi.AnyOutput), b.child(b.k8s)...)
	if err != nil {
		return nil, err
	}
	out := map[string]pulumi.Resource{}
	for _, l := range b.links {
		if !l.deploys() {
			continue
		}
		after := append(append(append(append([]pulumi.Resource{health, project}, guard...), operator...),
			b.workspaces[l.workspaceStage()]...), files[l.Name]...)
		app, err := b.object(l.Name+"-application", Application(a, l.DeliveryStage), after)
		if err != nil {
			return nil, err
		}
		out[l.Name] = app
	}
	return out, nil
}
