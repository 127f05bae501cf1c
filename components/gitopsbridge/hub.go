package gitopsbridge

import (
	"slices"

	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// hub installs Argo CD on the cluster: the namespace, the management role and its Pod Identity
// associations, the Helm release (after the associations, so Argo CD's pods start with AWS credentials), the
// admission guard for cluster secrets, the Argo CD projects of each path from Git, the in-cluster secret (or,
// with Git delivery, the registry Applications that sync the cluster secrets from Git, after the guard), and the
// bootstrap objects after the chart has installed Argo CD's CRDs.
func (b *builder) hub(secret secretContent) error {
	h, c := *b.args.Hub, b.comp
	k8s, err := b.hubProvider(b.cluster.Kubeconfig, "k8s")
	if err != nil {
		return err
	}
	ns, err := corev1.NewNamespace(b.ctx, childName(b.name, "namespace"), &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(b.args.Namespace)},
	}, b.child(k8s)...)
	if err != nil {
		return err
	}
	var appNamespaces []string
	for _, p := range givenPaths(b.args) {
		appNamespaces = append(appNamespaces, ApplicationsNamespace(b.args.Namespace, p.part))
	}
	values := ChartValues(h, appNamespaces)
	roleArn, assocs, err := b.managementRole(values)
	if err != nil {
		return err
	}
	release, err := helmv3.NewRelease(b.ctx, childName(b.name, "argocd"), &helmv3.ReleaseArgs{
		Name:           pulumi.String(h.ReleaseName),
		Chart:          pulumi.String(ChartName),
		Version:        pulumi.String(h.ChartVersion),
		RepositoryOpts: &helmv3.RepositoryOptsArgs{Repo: pulumi.String(h.ChartRepository)},
		Namespace:      ns.Metadata.Name().Elem(),
		Values:         pulumi.ToMap(values),
	}, b.child(k8s, pulumi.DependsOn(assocs))...)
	if err != nil {
		return err
	}
	if err := b.hubAddons(k8s, secret.annotations, []pulumi.Resource{release}); err != nil {
		return err
	}
	guard, err := b.guard(k8s, secret.manifest, chartWriters(h, b.args.Namespace, values), nil)
	if err != nil {
		return err
	}
	projects, err := b.projects(k8s, release)
	if err != nil {
		return err
	}
	roles, err := b.controllerRoles(k8s, values, append([]pulumi.Resource{ns}, projects...))
	if err != nil {
		return err
	}
	projects = append(projects, roles...)
	if err := b.registerAndBootstrap(k8s, secret, []pulumi.Resource{ns}, []pulumi.Resource{release}, guard, projects); err != nil {
		return err
	}
	c.ArgoCdReleaseStatus = release.Status.Status()
	c.ArgoCdNamespace = release.Status.Namespace().Elem()
	c.ManagementRoleArn = roleArn
	return nil
}

// registerAndBootstrap registers the hub's clusters, then bootstraps the repositories: without Git (or during a
// handover) the hub's own secret, after secretAfter; with Git the registry Applications, after argocd (what installs
// Argo CD), the guards and the projects; then the bootstrap objects after argocd, the registration and the projects.
func (b *builder) registerAndBootstrap(k8s pulumi.ProviderResource, secret secretContent, secretAfter, argocd,
	guard, projects []pulumi.Resource,
) error {
	var registration []pulumi.Resource
	if b.args.Git == nil || b.args.Handover {
		sec, err := b.clusterSecret(secret, k8s, pulumi.DependsOn(secretAfter))
		if err != nil {
			return err
		}
		if b.args.Git == nil {
			registration = append(registration, sec)
		}
	}
	if b.args.Git != nil {
		var err error
		if registration, err = b.registry(k8s, pulumi.DependsOn(slices.Concat(argocd, guard, projects))); err != nil {
			return err
		}
	}
	return b.bootstrap(k8s, pulumi.DependsOn(slices.Concat(argocd, registration, projects)))
}

// projects creates the hub's Argo CD projects (HubProjects, which leave the hub's own name out of the spokes) after
// the chart that installs their CRD, and the namespaces where the repositories' ApplicationSets live.
func (b *builder) projects(k8s pulumi.ProviderResource, release pulumi.Resource) ([]pulumi.Resource, error) {
	var out []pulumi.Resource
	for _, p := range givenPaths(b.args) {
		n, err := corev1.NewNamespace(b.ctx, childName(b.name, "namespace-"+p.part), &corev1.NamespaceArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(ApplicationsNamespace(b.args.Namespace, p.part))},
		}, b.child(k8s)...)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	for i, p := range HubProjects(b.args, "") {
		obj := p.Object()
		spec := b.cluster.ClusterName.ApplyT(func(hub string) map[string]any {
			return HubProjects(b.args, hub)[i].Object()["spec"].(map[string]any)
		}).(pulumi.MapOutput)
		obj["spec"] = spec
		r, err := NewObject(b.ctx, childName(b.name, "project-"+p.Name), obj,
			b.child(k8s, pulumi.DependsOn([]pulumi.Resource{release}))...)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
