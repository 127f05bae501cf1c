package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// The hub cluster, and Argo CD on it.
		hub, err := fleet.NewFleetCluster(ctx, "hub", &fleet.FleetClusterArgs{
			Region: "us-east-1",
			Addons: pulumi.BoolMap{"metrics_server": pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}
		argocd, err := fleet.NewGitOpsBridge(ctx, "hub", &fleet.GitOpsBridgeArgs{
			Cluster: hub.ClusterInfo,
			Hub:     &fleet.HubArgs{HighAvailability: pulumi.Bool(true)},
			AddonsRepo: &fleet.RepoArgs{
				Url:  pulumi.String("https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"),
				Path: pulumi.String("bootstrap/control-plane/addons"),
			},
		})
		if err != nil {
			return err
		}
		// A spoke whose role the hub's Argo CD assumes, registered into the hub by its cluster secret.
		spoke, err := fleet.NewFleetCluster(ctx, "spoke", &fleet.FleetClusterArgs{
			Region:       "us-west-2",
			Addons:       pulumi.BoolMap{"aws_load_balancer_controller": pulumi.Bool(true)},
			GitopsAccess: &fleet.GitOpsAccessArgs{HubRoleArn: argocd.ManagementRoleArn},
		})
		if err != nil {
			return err
		}
		registration, err := fleet.NewGitOpsBridge(ctx, "spoke", &fleet.GitOpsBridgeArgs{
			Cluster: spoke.ClusterInfo,
			Spoke:   &fleet.SpokeArgs{HubKubeconfig: hub.Kubeconfig},
		})
		if err != nil {
			return err
		}
		ctx.Export("spokeSecret", registration.SecretName)
		ctx.Export("spokeLabels", registration.Labels)
		return nil
	})
}
