package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// An EKS cluster in its own VPC, with the AWS Load Balancer Controller's IAM role.
		cluster, err := fleet.NewFleetCluster(ctx, "dev", &fleet.FleetClusterArgs{
			Region: "us-east-1",
			Addons: pulumi.BoolMap{"aws_load_balancer_controller": pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}
		ctx.Export("kubeconfig", cluster.Kubeconfig)
		return nil
	})
}
