// Command multi-region creates an Argo CD fleet from a single Pulumi stack: a hub cluster in us-east-1 that
// runs Argo CD, and two spoke clusters in us-east-2 and us-west-2 that the hub manages by assuming their
// spoke roles. FleetCluster's clusterInfo output plugs into GitOpsBridge with no glue.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

// addons are the GitOps Bridge add-ons of every cluster.
var addons = map[string]bool{
	"aws_load_balancer_controller": true,
	"external_dns":                 true,
	"metrics_server":               true,
}

// program is the stack. Config: addonsRepoUrl (default: the gitops-bridge control-plane template).
func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	addonsRepo := &gitopsbridge.Repo{
		URL:  cfg.Get("addonsRepoUrl"),
		Path: "bootstrap/control-plane/addons",
	}
	if addonsRepo.URL == "" {
		addonsRepo.URL = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"
	}

	hub, err := fleetcluster.NewFleetCluster(ctx, "hub", fleetcluster.FleetClusterArgs{
		Region: "us-east-1", VpcCidr: "10.10.0.0/16", Addons: addons,
	})
	if err != nil {
		return err
	}
	argocd, err := gitopsbridge.NewGitOpsBridge(ctx, "hub", gitopsbridge.GitOpsBridgeArgs{
		Cluster:    hub.ClusterInfo,
		Hub:        &gitopsbridge.Hub{HighAvailability: true},
		AddonsRepo: addonsRepo,
	})
	if err != nil {
		return err
	}
	ctx.Export("hub-endpoint", hub.Endpoint)
	ctx.Export("argocdManagementRoleArn", argocd.ManagementRoleArn)

	spokes := []struct{ name, region, cidr string }{
		{"spoke-use2", "us-east-2", "10.20.0.0/16"},
		{"spoke-usw2", "us-west-2", "10.30.0.0/16"},
	}
	for _, s := range spokes {
		spoke, err := fleetcluster.NewFleetCluster(ctx, s.name, fleetcluster.FleetClusterArgs{
			Region: s.region, VpcCidr: s.cidr, Addons: addons,
			GitOpsAccess: &fleetcluster.GitOpsAccess{HubRoleArn: argocd.ManagementRoleArn},
		})
		if err != nil {
			return err
		}
		reg, err := gitopsbridge.NewGitOpsBridge(ctx, s.name, gitopsbridge.GitOpsBridgeArgs{
			Cluster:    spoke.ClusterInfo,
			Spoke:      &gitopsbridge.Spoke{HubKubeconfig: hub.Kubeconfig},
			AddonsRepo: addonsRepo,
		})
		if err != nil {
			return err
		}
		ctx.Export(s.name+"-endpoint", spoke.Endpoint)
		ctx.Export(s.name+"-clusterSecret", reg.Manifest)
	}
	return nil
}
