package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		// The fleet's own stacks delivered on the hub: a PKO Stack per stage, each pinned to a
		// commit of the program, promoted dev -> prod by Kargo; prod needs the platform leads.
		delivery, err := fleet.NewStackDelivery(ctx, "delivery", &fleet.StackDeliveryArgs{
			Kubeconfig:        cfg.RequireSecret("hubKubeconfig"),
			PulumiAccessToken: cfg.RequireSecret("pulumiAccessToken"),
			Program: &fleet.ProgramRepositoryArgs{
				RepoUrl: pulumi.String("https://github.com/acme/platform-fleet.git"),
			},
			Manifests: &fleet.ManifestsRepositoryArgs{
				Owner:      pulumi.String("acme"),
				Repository: pulumi.String("platform-fleet"),
			},
			Stages: fleet.DeliveryStageArray{
				&fleet.DeliveryStageArgs{
					Name:   pulumi.String("dev"),
					Stack:  pulumi.String("acme/platform-fleet/dev"),
					Commit: pulumi.String("81d3a29597266e2c6dee3d95e1a055caf008a79d"),
				},
				&fleet.DeliveryStageArgs{
					Name:      pulumi.String("prod"),
					Stack:     pulumi.String("acme/platform-fleet/prod"),
					Commit:    pulumi.String("81d3a29597266e2c6dee3d95e1a055caf008a79d"),
					Approvers: &fleet.ApproversArgs{Groups: pulumi.StringArray{pulumi.String("platform-leads")}},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("stages", delivery.Stages)
		ctx.Export("applications", delivery.ApplicationNames)
		return nil
	})
}
