package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// StackDelivery delivers the fleet's own Pulumi stacks by GitOps on the hub: PKO and Kargo, one pulumi.com/v1
// Stack per stage in Git, one Argo CD Application per stage and Kargo's Project, Warehouse and chained Stages.
//
// Each stage's Stack pins a commit of the program (or follows a branch) and lives on the stage's own branch of the
// manifests repository, which its Application syncs; Kargo promotes new commits from stage to stage, through the
// stage's approvers or verification when it has them. It can install PKO, Kargo and Argo Rollouts on the hub too.
// Guide: https://github.com/gitops-fleet/pulumi-fleet/blob/main/docs/stackdelivery.md.
type StackDelivery struct {
	pulumi.ResourceState

	// Project is the Kargo Project (and its namespace).
	Project pulumi.StringOutput `pulumi:"project"`
	// Stages are the stage names in promotion order, from the one that takes Freight from the Warehouse.
	Stages pulumi.StringArrayOutput `pulumi:"stages"`
	// StackNames are the Stack objects' names by stage; for a stage with stacks, the prefix of its Stack objects.
	StackNames pulumi.StringMapOutput `pulumi:"stackNames"`
	// StageStacks are the names of each stage's Stack objects by stage (its preview Stack aside): one, or one per
	// stacks entry ("<stackName>-<name>").
	StageStacks pulumi.StringArrayMapOutput `pulumi:"stageStacks"`
	// ApplicationNames are the Argo CD Applications' names by stage.
	ApplicationNames pulumi.StringMapOutput `pulumi:"applicationNames"`
	// Manifests are the Stack manifests (YAML, sorted keys) by file path in the manifests repository.
	Manifests pulumi.StringMapOutput `pulumi:"manifests"`
	// ManifestUrls are the GitHub URLs of the stages' stack.yaml templates on the manifests branch, by stage.
	ManifestUrls pulumi.StringMapOutput `pulumi:"manifestUrls"`
	// StageBranches are the stages' own branches of the manifests repository, by stage: where Kargo renders
	// each promotion and what the stage's Application syncs.
	StageBranches pulumi.StringMapOutput `pulumi:"stageBranches"`
	// StageKinds are the stages' kinds ("update", "preview" or "gate"), by stage.
	StageKinds pulumi.StringMapOutput `pulumi:"stageKinds"`
	// StageSources are where each stage takes Freight from, by stage: "Warehouse" (direct) and the upstream
	// stages, in that order. With stages (in graph order) they draw the graph.
	StageSources pulumi.StringArrayMapOutput `pulumi:"stageSources"`
	// PullRequestNumber is the number of the pull request that adds the manifests; 0 unless
	// manifests.pullRequest.
	PullRequestNumber pulumi.IntOutput `pulumi:"pullRequestNumber"`
	// OperatorReleaseStatus is the PKO Helm release's status ("deployed"); "" with operator.existing.
	OperatorReleaseStatus pulumi.StringOutput `pulumi:"operatorReleaseStatus"`
	// KargoReleaseStatus is the Kargo Helm release's status ("deployed"); "" with kargo.existing.
	KargoReleaseStatus pulumi.StringOutput `pulumi:"kargoReleaseStatus"`
}

// NewStackDelivery validates args, then registers a StackDelivery and its children. A validation error
// (*ValidationError) lists every problem and leaves nothing registered.
func NewStackDelivery(ctx *pulumi.Context, name string, args StackDeliveryArgs,
	opts ...pulumi.ResourceOption,
) (*StackDelivery, error) {
	a := WithDefaults(args, name)
	explicit, err := gitopsbridge.ExplicitProviders(opts)
	if err != nil {
		return nil, err
	}
	if err := Validate(a, explicit.Kubernetes != nil); err != nil {
		return nil, err
	}
	links, _ := graph(a.Stages) // Validate checked the graph
	comp := &StackDelivery{}
	if err := ctx.RegisterComponentResource(TypeToken, name, comp, opts...); err != nil {
		return nil, err
	}
	b := &builder{ctx: ctx, name: name, args: a, links: links, comp: comp, explicit: explicit}
	if err := b.build(); err != nil {
		return nil, err
	}
	return comp, ctx.RegisterResourceOutputs(comp, pulumi.Map{
		"project":               comp.Project,
		"stages":                comp.Stages,
		"stackNames":            comp.StackNames,
		"stageStacks":           comp.StageStacks,
		"applicationNames":      comp.ApplicationNames,
		"manifests":             comp.Manifests,
		"manifestUrls":          comp.ManifestUrls,
		"stageBranches":         comp.StageBranches,
		"stageKinds":            comp.StageKinds,
		"stageSources":          comp.StageSources,
		"pullRequestNumber":     comp.PullRequestNumber,
		"operatorReleaseStatus": comp.OperatorReleaseStatus,
		"kargoReleaseStatus":    comp.KargoReleaseStatus,
	})
}
