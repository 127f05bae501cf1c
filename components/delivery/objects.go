package delivery

import (
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apiextensions"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// custom creates a custom object of apiVersion and kind through the hub's provider after the given resources:
// object holds metadata (name, namespace, annotations, finalizers) and any top-level fields (spec).
func (b *builder) custom(part, apiVersion, kind string, object map[string]any, after []pulumi.Resource,
) (pulumi.Resource, error) {
	md := object["metadata"].(map[string]any)
	meta := &metav1.ObjectMetaArgs{Name: pulumi.String(md["name"].(string))}
	if ns, ok := md["namespace"].(string); ok {
		meta.Namespace = pulumi.String(ns)
	}
	if an, ok := md["annotations"].(map[string]any); ok {
		meta.Annotations = pulumi.ToStringMap(toStrings(an))
	}
	if fin, ok := md["finalizers"].([]any); ok {
		var fs pulumi.StringArray
		for _, f := range fin {
			fs = append(fs, pulumi.String(f.(string)))
		}
		meta.Finalizers = fs
	}
	fields := kubernetes.UntypedArgs{}
	for k, v := range object {
		if k != "metadata" && k != "apiVersion" && k != "kind" {
			fields[k] = v
		}
	}
	return apiextensions.NewCustomResource(b.ctx, childName(b.name, part), &apiextensions.CustomResourceArgs{
		ApiVersion:  pulumi.String(apiVersion),
		Kind:        pulumi.String(kind),
		Metadata:    meta,
		OtherFields: fields,
	}, b.child(b.k8s, after...)...)
}

func toStrings(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v.(string)
	}
	return out
}

// applications adds the Stack health check to argocd-cm, then creates each stage's Argo CD Application after
// PKO (its CRD), the check, the stage's prerequisites and its manifests. It returns them by stage.
func (b *builder) applications(operator []pulumi.Resource, prerequisites, files map[string][]pulumi.Resource,
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
	out := map[string]pulumi.Resource{}
	for _, l := range b.links {
		after := append(append(append([]pulumi.Resource{health}, operator...), prerequisites[l.Name]...), files[l.Name]...)
		app, err := b.custom(l.Name+"-application", argoAPIVersion, "Application", Application(a, l.Name), after)
		if err != nil {
			return nil, err
		}
		out[l.Name] = app
	}
	return out, nil
}
