package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		spoke, err := fleet.NewFleetCluster(ctx, "spoke", &fleet.FleetClusterArgs{
			Region: "us-west-2",
			Addons: pulumi.BoolMap{"aws_load_balancer_controller": pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}
		// Deleted before the cluster (it depends on it): removes the load balancers, volumes and
		// Karpenter nodes the add-ons made, and waits until AWS has nothing tagged to the cluster.
		_, err = fleet.NewClusterDrain(ctx, "spoke", &fleet.ClusterDrainArgs{
			ClusterName:              spoke.ClusterName,
			Region:                   spoke.Region,
			Endpoint:                 spoke.Endpoint,
			CertificateAuthorityData: spoke.CertificateAuthorityData,
			Timeout:                  pulumi.String("30m"),
		}, pulumi.DependsOn([]pulumi.Resource{spoke}))
		if err != nil {
			return err
		}
		// What the add-on controllers made for the cluster that is still there.
		leftovers := fleet.GetStillTaggedOutput(ctx, fleet.GetStillTaggedOutputArgs{
			ClusterName: spoke.ClusterName,
			Region:      spoke.Region,
		})
		ctx.Export("stillTagged", leftovers.Arns())
		return nil
	})
}
