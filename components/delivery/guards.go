package delivery

import "github.com/gitops-fleet/pulumi-fleet/components/admission"

// The Stack guard in the fleet's table of guards (admission.List).
var _ = admission.List(admission.Guard{
	Name: StackPolicyName("<project>"), Where: "the hub", Writer: "StackDelivery",
	Pins: "a stage's Stacks: the delivery's own, by namespace and name, with the spec it wrote but the promoted commit and the workspace's resources; no program source, identity, host access or field the pinned PKO does not know",
	Example: func() (admission.Policy, admission.Exemptions) {
		a := WithDefaults(StackDeliveryArgs{Project: "fleet",
			Program:   ProgramRepository{RepoUrl: "https://github.com/acme/platform.git"},
			Manifests: ManifestsRepository{Owner: "acme", Repository: "platform", Path: "deploy/stacks"},
			Stages:    []DeliveryStage{{Name: "dev", Stack: "acme/fleet/dev", Branch: "main"}}}, "fleet")
		return StackGuard(a), admission.Exemptions{}
	},
})
