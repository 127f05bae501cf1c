package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// builder registers the children of one StackDelivery, in this order: the charts (cert-manager, PKO, Kargo),
// the Stacks' namespace, access token Secret, ServiceAccounts and bindings, the Stack health check in
// argocd-cm, the manifests in Git, the Applications, then Kargo's Project, ProjectConfig, credentials,
// Warehouse and Stages along the chain, and the approvers' RBAC.
type builder struct {
	ctx      *pulumi.Context
	name     string
	args     StackDeliveryArgs
	links    []link
	comp     *StackDelivery
	explicit gitopsbridge.Providers
	k8s      pulumi.ProviderResource
	// workspaces are each update stage's workspace objects (stackPrerequisites), by stage.
	workspaces map[string][]pulumi.Resource
}

func (b *builder) build() error {
	k8s, err := b.hubProvider()
	if err != nil {
		return err
	}
	b.k8s = k8s
	charts, err := b.install()
	if err != nil {
		return err
	}
	if b.workspaces, err = b.stackPrerequisites(); err != nil {
		return err
	}
	files, err := b.deliver()
	if err != nil {
		return err
	}
	apps, err := b.applications(charts.operator, files)
	if err != nil {
		return err
	}
	if err := b.kargo(charts.kargo, apps); err != nil {
		return err
	}
	b.outputs()
	return nil
}

// outputs sets the outputs that are known from the inputs.
func (b *builder) outputs() {
	a, c := b.args, b.comp
	var stages pulumi.StringArray
	stackNames, appNames, branches := pulumi.StringMap{}, pulumi.StringMap{}, pulumi.StringMap{}
	kinds, sources, stacks := pulumi.StringMap{}, pulumi.StringArrayMap{}, pulumi.StringArrayMap{}
	for _, l := range b.links {
		stages = append(stages, pulumi.String(l.Name))
		kinds[l.Name] = pulumi.String(l.Kind)
		var src []string
		if l.direct {
			src = append(src, WarehouseSource)
		}
		sources[l.Name] = pulumi.ToStringArray(append(src, l.upstreams...))
		if !l.deploys() {
			continue
		}
		stackNames[l.Name] = pulumi.String(l.StackName)
		stacks[l.Name] = pulumi.ToStringArray(stackNamesOf(l.DeliveryStage))
		appNames[l.Name] = pulumi.String(ApplicationName(a.Project, l.Name))
		branches[l.Name] = pulumi.String(StageBranch(a.Manifests, l.Name))
	}
	c.Project = pulumi.String(a.Project).ToStringOutput()
	c.Stages = stages.ToStringArrayOutput()
	c.StackNames = stackNames.ToStringMapOutput()
	c.ApplicationNames = appNames.ToStringMapOutput()
	c.StageBranches = branches.ToStringMapOutput()
	c.StageKinds = kinds.ToStringMapOutput()
	c.StageSources = sources.ToStringArrayMapOutput()
	c.StageStacks = stacks.ToStringArrayMapOutput()
}

// hubProvider is the explicit kubernetes provider, or one built from kubeconfig (kept secret).
func (b *builder) hubProvider() (pulumi.ProviderResource, error) {
	if b.explicit.Kubernetes != nil {
		return b.explicit.Kubernetes, nil
	}
	return clusterinfo.NewKubernetesProvider(b.ctx, childName(b.name, "hub"), b.args.Kubeconfig, pulumi.Parent(b.comp))
}

// child are the options of a child that goes through provider after the given resources.
func (b *builder) child(provider pulumi.ProviderResource, after ...pulumi.Resource) []pulumi.ResourceOption {
	opts := []pulumi.ResourceOption{pulumi.Parent(b.comp), pulumi.Provider(provider)}
	if len(after) > 0 {
		opts = append(opts, pulumi.DependsOn(after))
	}
	return opts
}

func childName(name, part string) string { return name + "-" + part }
