package gitopsbridge

import (
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Providers are the providers given in a component's resource options (provider and providers), by package;
// each wins over the one the component would create. GitOpsBridge and StackDelivery read them.
type Providers struct {
	Kubernetes *kubernetes.Provider
	AWS        *aws.Provider
	GitHub     *github.Provider
}

// ExplicitProviders are the providers of opts.
func ExplicitProviders(opts []pulumi.ResourceOption) (Providers, error) {
	ro, err := pulumi.NewResourceOptions(opts...)
	if err != nil {
		return Providers{}, err
	}
	var p Providers
	for _, r := range append([]pulumi.ProviderResource{ro.Provider}, ro.Providers...) {
		switch r := r.(type) {
		case *kubernetes.Provider:
			p.Kubernetes = r
		case *aws.Provider:
			p.AWS = r
		case *github.Provider:
			p.GitHub = r
		}
	}
	return p, nil
}

// builder registers the children of one GitOpsBridge: in hub mode the namespace, the management role, Argo
// CD and the bootstrap; in both modes the cluster secret; then Git delivery.
type builder struct {
	ctx      *pulumi.Context
	name     string
	args     GitOpsBridgeArgs
	comp     *GitOpsBridge
	explicit Providers
	cluster  clusterinfo.Fields
	aws      pulumi.ProviderResource // awsProvider's, once made
}

func newBuilder(ctx *pulumi.Context, name string, args GitOpsBridgeArgs, comp *GitOpsBridge, explicit Providers) *builder {
	return &builder{ctx: ctx, name: name, args: args, comp: comp, explicit: explicit,
		cluster: clusterinfo.FieldsOf(args.Cluster)}
}

func (b *builder) build() error {
	c := b.comp
	secret := b.secretContent()
	c.SecretName = pulumi.String(b.args.SecretName).ToStringOutput()
	c.SecretNamespace = pulumi.String(b.args.Namespace).ToStringOutput()
	c.Labels, c.Annotations, c.Manifest = secret.labels, secret.annotations, secret.manifest
	c.ArgoCdReleaseStatus = pulumi.String("").ToStringOutput()
	c.ArgoCdNamespace = pulumi.String("").ToStringOutput()
	c.ManagementRoleArn = pulumi.String("").ToStringOutput()
	c.ArgoCdServerUrl = pulumi.String("").ToStringOutput()
	c.GitFileUrl = pulumi.String("").ToStringOutput()
	c.PullRequestNumber = pulumi.Int(0).ToIntOutput()

	// With Git delivery, Git is the source of truth: the hub's registry Applications bring every cluster
	// secret (the hub's own included) from the registry repository, so Pulumi writes none into the hub.
	switch {
	case b.args.Hub != nil && b.args.Hub.Managed():
		if err := b.hubManaged(secret); err != nil {
			return err
		}
	case b.args.Hub != nil:
		if err := b.hub(secret); err != nil {
			return err
		}
	case b.args.Git == nil || b.args.Handover:
		if err := b.spoke(secret); err != nil {
			return err
		}
	}
	if b.args.Git != nil {
		return b.deliver(secret.manifest)
	}
	return nil
}

// hubProvider is the kubernetes provider of the hub, where the secret is written: the explicit one, or one
// built from kubeconfig (kept secret) and named <name>-<part>.
func (b *builder) hubProvider(kubeconfig pulumi.StringInput, part string) (pulumi.ProviderResource, error) {
	if b.explicit.Kubernetes != nil {
		return b.explicit.Kubernetes, nil
	}
	return clusterinfo.NewKubernetesProvider(b.ctx, childName(b.name, part), kubeconfig, pulumi.Parent(b.comp))
}

// child are the options of a child that goes through provider.
func (b *builder) child(provider pulumi.ProviderResource, extra ...pulumi.ResourceOption) []pulumi.ResourceOption {
	return append([]pulumi.ResourceOption{pulumi.Parent(b.comp), pulumi.Provider(provider)}, extra...)
}

func childName(name, part string) string { return name + "-" + part }
