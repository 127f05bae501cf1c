package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// A hub running Argo CD and a spoke it manages, in two regions. The VPC CIDRs are
		// allocated from 10.0.0.0/8 and kept by the fleet's ClusterLedger.
		f, err := fleet.NewFleet(ctx, "fleet", &fleet.FleetArgs{
			Repositories: &fleet.RepositoriesArgs{
				Addons: &fleet.RepoArgs{
					Url:      pulumi.String("https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"),
					Revision: pulumi.String("main"),
					Path:     pulumi.String("bootstrap/control-plane/addons"),
				},
			},
			Clusters: fleet.ClusterSpecArray{
				&fleet.ClusterSpecArgs{
					Name:   pulumi.String("hub"),
					Region: pulumi.String("us-east-1"),
					Role:   pulumi.String("hub"),
					Addons: pulumi.BoolMap{"metrics_server": pulumi.Bool(true)},
				},
				&fleet.ClusterSpecArgs{
					Name:   pulumi.String("spoke-use2"),
					Region: pulumi.String("us-east-2"),
					Role:   pulumi.String("spoke"),
					Addons: pulumi.BoolMap{
						"aws_load_balancer_controller": pulumi.Bool(true),
						"karpenter":                    pulumi.Bool(true),
					},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("vpcCidrs", f.VpcCidrs)
		ctx.Export("argocdManagementRoleArn", f.ArgocdManagementRoleArn)
		return nil
	})
}
