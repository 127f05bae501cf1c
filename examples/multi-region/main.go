// Command multi-region creates one FleetCluster per region in three regions from a single Pulumi stack.
// The Argo CD hub runs in the first region; the other two clusters let the hub's role manage them.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

// program is the stack: the hub role ARN comes from config until the GitOpsBridge creates it.
func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	hubRoleArn := cfg.Get("hubRoleArn")
	regions := []struct{ region, cidr string }{
		{"us-east-1", "10.10.0.0/16"},
		{"us-east-2", "10.20.0.0/16"},
		{"us-west-2", "10.30.0.0/16"},
	}
	for _, r := range regions {
		args := fleetcluster.FleetClusterArgs{
			ClusterName: "apps-" + fleetcluster.RegionCode(r.region),
			Region:      r.region,
			VpcCidr:     r.cidr,
			Addons: map[string]bool{
				"aws_load_balancer_controller": true,
				"external_dns":                 true,
				"metrics_server":               true,
			},
			Tags: map[string]string{"team": "platform"},
		}
		if hubRoleArn != "" {
			args.GitOpsAccess = &fleetcluster.GitOpsAccess{HubRoleArn: pulumi.String(hubRoleArn)}
		}
		cluster, err := fleetcluster.NewFleetCluster(ctx, r.region, args)
		if err != nil {
			return err
		}
		ctx.Export(r.region+"-endpoint", cluster.Endpoint)
		ctx.Export(r.region+"-gitopsMetadata", cluster.GitOpsMetadata)
		ctx.Export(r.region+"-kubeconfig", cluster.Kubeconfig)
	}
	return nil
}
