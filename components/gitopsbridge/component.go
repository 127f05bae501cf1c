package gitopsbridge

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// GitOpsBridge is the Argo CD registration of one cluster: its cluster secret, and on a hub Argo CD itself.
//
// The cluster secret carries the GitOps Bridge contract: the enable_<addon> labels and the metadata annotations
// (add-on IAM roles, region, repositories) the add-on ApplicationSets template from. In hub mode it installs Argo CD
// from the argo-cd Helm chart with an IAM management role, the AppProjects that bound what Git may deploy, and the
// bootstrap Applications of the add-ons and workloads repositories. In spoke mode it writes the spoke's secret on
// the hub (spoke.hubKubeconfig), or with git commits it to the registry repository the hub syncs. Guide:
// https://github.com/gitops-fleet/pulumi-fleet/blob/main/docs/gitopsbridge.md.
type GitOpsBridge struct {
	pulumi.ResourceState

	// SecretName is the name of the Argo CD cluster secret.
	SecretName pulumi.StringOutput `pulumi:"secretName"`
	// SecretNamespace is the namespace of the cluster secret on the hub.
	SecretNamespace pulumi.StringOutput `pulumi:"secretNamespace"`
	// Labels are the cluster secret's labels (secret type, cluster_name, environment, kubernetes_version,
	// enable_<addon>).
	Labels pulumi.StringMapOutput `pulumi:"labels"`
	// Annotations are the cluster secret's annotations (cluster metadata, repository coordinates, metadata).
	Annotations pulumi.StringMapOutput `pulumi:"annotations"`
	// Manifest is the cluster secret as YAML with sorted keys, the text Git delivery commits. It holds the
	// server, CA data and role ARN, never a credential.
	Manifest pulumi.StringOutput `pulumi:"manifest"`
	// ArgoCdReleaseStatus is the Helm release status of Argo CD ("deployed"); "" in spoke mode.
	ArgoCdReleaseStatus pulumi.StringOutput `pulumi:"argocdReleaseStatus"`
	// ArgoCdNamespace is the namespace Argo CD runs in on the hub ("" in spoke mode).
	ArgoCdNamespace pulumi.StringOutput `pulumi:"argocdNamespace"`
	// ManagementRoleArn is the IAM role of Argo CD on the hub, to give every spoke FleetCluster as
	// gitopsAccess.hubRoleArn, or with hub.mode managed the capability's role, as gitopsAccess.capabilityRoleArn;
	// "" in spoke mode.
	ManagementRoleArn pulumi.StringOutput `pulumi:"managementRoleArn"`
	// ArgoCdServerUrl is the managed Argo CD's server URL (its UI and API; webhooks go to <url>/api/webhook); ""
	// unless hub.mode is managed.
	ArgoCdServerUrl pulumi.StringOutput `pulumi:"argocdServerUrl"`
	// GitFileUrl is the GitHub URL of the committed manifest; "" without git.
	GitFileUrl pulumi.StringOutput `pulumi:"gitFileUrl"`
	// PullRequestNumber is the number of the pull request that adds the manifest; 0 unless git.pullRequest.
	PullRequestNumber pulumi.IntOutput `pulumi:"pullRequestNumber"`
}

// NewGitOpsBridge validates args, then registers a GitOpsBridge and its children. A validation error
// (*ValidationError) lists every problem and leaves nothing registered.
func NewGitOpsBridge(ctx *pulumi.Context, name string, args GitOpsBridgeArgs,
	opts ...pulumi.ResourceOption,
) (*GitOpsBridge, error) {
	a := withDefaults(args, name)
	explicit, err := ExplicitProviders(opts)
	if err != nil {
		return nil, err
	}
	if err := Validate(a, explicit.Kubernetes != nil); err != nil {
		return nil, err
	}
	comp := &GitOpsBridge{}
	if err := ctx.RegisterComponentResource(TypeToken, name, comp, opts...); err != nil {
		return nil, err
	}
	if args.Hub != nil {
		for _, w := range append(ManagedWarnings(*a.Hub), ManagedRepositoryWarnings(a)...) {
			_ = ctx.Log.Warn(w, &pulumi.LogArgs{Resource: comp})
		}
	}
	b := newBuilder(ctx, name, a, comp, explicit)
	if err := b.build(); err != nil {
		return nil, err
	}
	return comp, ctx.RegisterResourceOutputs(comp, pulumi.Map{
		"secretName":          comp.SecretName,
		"secretNamespace":     comp.SecretNamespace,
		"labels":              comp.Labels,
		"annotations":         comp.Annotations,
		"manifest":            comp.Manifest,
		"argocdReleaseStatus": comp.ArgoCdReleaseStatus,
		"argocdNamespace":     comp.ArgoCdNamespace,
		"managementRoleArn":   comp.ManagementRoleArn,
		"argocdServerUrl":     comp.ArgoCdServerUrl,
		"gitFileUrl":          comp.GitFileUrl,
		"pullRequestNumber":   comp.PullRequestNumber,
	})
}
