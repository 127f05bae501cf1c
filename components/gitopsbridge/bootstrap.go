package gitopsbridge

import (
	"fmt"
	"maps"

	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apiextensions"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// BootstrapApplicationSet is the ApplicationSet that bootstraps a repository in the gitops-bridge way: a
// cluster generator selects the hub's own cluster secret (by its cluster_name label) and the one generated
// Application reads the folder named by that secret's <prefix>_repo_* annotations, recursively, in the
// repository's project (fleet-addons or fleet-workloads), into the repository's ApplicationsNamespace on the hub
// (namespace is Argo CD's), which the stack creates. The folder holds the repository's ApplicationSets, which then
// select clusters by their enable_<addon> labels and template them from their annotations; their Applications
// stay in that namespace, so Argo CD admits them only into the repository's Applications project. prefix is
// "addons" or "workload"; the Application's destination is the hub as HubDestination names it.
func BootstrapApplicationSet(a GitOpsBridgeArgs, prefix, hubClusterName string) map[string]any {
	namespace := a.Namespace
	annotation := func(key string) string {
		return "{{.metadata.annotations." + prefix + "_repo_" + key + "}}"
	}
	var path gitPath
	for _, p := range gitPaths {
		if p.prefix == prefix {
			path = p
		}
	}
	return map[string]any{
		"goTemplate":        true,
		"goTemplateOptions": []any{"missingkey=error"},
		"syncPolicy":        map[string]any{"preserveResourcesOnDeletion": true},
		"generators": []any{map[string]any{"clusters": map[string]any{"selector": map[string]any{
			"matchLabels": map[string]any{SecretTypeLabel: "cluster", "cluster_name": hubClusterName},
		}}}},
		"template": map[string]any{
			"metadata": map[string]any{"name": "bootstrap-" + prefix + "-{{.name}}"},
			"spec": map[string]any{
				"project": path.bootstrap,
				"source": map[string]any{
					"repoURL":        annotation("url"),
					"targetRevision": annotation("revision"),
					"path":           annotation("basepath") + annotation("path"),
					"directory":      map[string]any{"recurse": true},
				},
				"destination": HubDestination(a, hubClusterName, ApplicationsNamespace(namespace, path.part)).Object(),
				"syncPolicy":  map[string]any{"automated": map[string]any{"selfHeal": true}},
			},
		},
	}
}

// bootstrap creates the ApplicationSets of the addons and workloads repositories and the hub.bootstrap
// objects, through the hub's provider after Argo CD.
func (b *builder) bootstrap(k8s pulumi.ProviderResource, after pulumi.ResourceOption) error {
	ns := b.args.Namespace
	for _, r := range givenPaths(b.args) {
		spec := b.cluster.ClusterName.ApplyT(func(hub string) map[string]any {
			return BootstrapApplicationSet(b.args, r.prefix, hub)
		}).(pulumi.MapOutput)
		_, err := apiextensions.NewCustomResource(b.ctx, childName(b.name, "bootstrap-"+r.part), &apiextensions.CustomResourceArgs{
			ApiVersion:  pulumi.String(ArgoAPIVersion),
			Kind:        pulumi.String("ApplicationSet"),
			Metadata:    &metav1.ObjectMetaArgs{Name: pulumi.String("bootstrap-" + r.part), Namespace: pulumi.String(ns)},
			OtherFields: kubernetes.UntypedArgs{"spec": spec},
		}, b.child(k8s, after)...)
		if err != nil {
			return err
		}
	}
	for _, obj := range b.args.Hub.Bootstrap {
		md := maps.Clone(objectMetadata(obj))
		if ns, _ := md["namespace"].(string); ns == "" {
			md["namespace"] = b.args.Namespace
		}
		withNamespace := maps.Clone(obj)
		withNamespace["metadata"] = md
		kind := obj["kind"].(string)
		if _, err := NewObject(b.ctx, childName(b.name, kind+"-"+objectName(obj)), withNamespace, b.child(k8s, after)...); err != nil {
			return err
		}
	}
	return nil
}

// NewObject registers an untyped Kubernetes object as a CustomResource named name: its apiVersion and kind, the
// name, namespace, labels, annotations and finalizers of its metadata, and every other top-level field (spec)
// as it is. GitOpsBridge's bootstrap objects and StackDelivery's Argo CD and Kargo objects go through it.
func NewObject(ctx *pulumi.Context, name string, obj map[string]any, opts ...pulumi.ResourceOption,
) (*apiextensions.CustomResource, error) {
	md := objectMetadata(obj)
	meta := &metav1.ObjectMetaArgs{
		Name:        pulumi.String(objectName(obj)),
		Labels:      stringMap(md["labels"]),
		Annotations: stringMap(md["annotations"]),
	}
	if ns, _ := md["namespace"].(string); ns != "" {
		meta.Namespace = pulumi.String(ns)
	}
	if fs, ok := md["finalizers"].([]any); ok {
		var finalizers pulumi.StringArray
		for _, f := range fs {
			finalizers = append(finalizers, pulumi.String(fmt.Sprint(f)))
		}
		meta.Finalizers = finalizers
	}
	rest := maps.Clone(obj)
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		delete(rest, k)
	}
	return apiextensions.NewCustomResource(ctx, name, &apiextensions.CustomResourceArgs{
		ApiVersion:  pulumi.String(fmt.Sprint(obj["apiVersion"])),
		Kind:        pulumi.String(fmt.Sprint(obj["kind"])),
		Metadata:    meta,
		OtherFields: kubernetes.UntypedArgs(rest),
	}, opts...)
}

// stringMap turns a map of strings from untyped metadata into an input (nil when there is none).
func stringMap(v any) pulumi.StringMapInput {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := pulumi.StringMap{}
	for k, s := range m {
		out[k] = pulumi.Sprintf("%v", s)
	}
	return out
}
