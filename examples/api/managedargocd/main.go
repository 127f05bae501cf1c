package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		hub, err := fleet.NewFleetCluster(ctx, "hub", &fleet.FleetClusterArgs{Region: "us-west-2"})
		if err != nil {
			return err
		}
		// Argo CD run by EKS for the hub. The role trusts capabilities.eks.amazonaws.com with
		// sts:AssumeRole and sts:TagSession; the platform group signs in through IAM Identity Center.
		argocd, err := fleet.NewArgoCDCapability(ctx, "hub", &fleet.ArgoCDCapabilityArgs{
			ClusterName: hub.ClusterName,
			Region:      hub.Region,
			RoleArn:     pulumi.String(cfg.Require("capabilityRoleArn")),
			ArgoCd: fleet.CapabilityArgoCDArgs{
				AwsIdc: fleet.CapabilityIdentityCenterArgs{
					IdcInstanceArn: pulumi.String(cfg.Require("identityCenterInstanceArn")),
				},
				RbacRoleMappings: fleet.CapabilityRoleMappingArray{fleet.CapabilityRoleMappingArgs{
					Role: pulumi.String("ADMIN"),
					Identities: fleet.CapabilityIdentityArray{fleet.CapabilityIdentityArgs{
						Id:   pulumi.String(cfg.Require("platformGroupId")),
						Type: pulumi.String("SSO_GROUP"),
					}},
				}},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("serverUrl", argocd.ServerUrl)
		ctx.Export("argoCdVersion", argocd.Version)
		return nil
	})
}
