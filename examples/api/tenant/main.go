package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		spoke, err := fleet.NewFleetCluster(ctx, "spoke", &fleet.FleetClusterArgs{Region: "us-west-2"})
		if err != nil {
			return err
		}
		// The payments team on the spoke: its namespace at Pod Security "restricted", its owners'
		// EKS access to that namespace only, and its Argo CD project on the hub.
		payments, err := fleet.NewTenant(ctx, "payments", &fleet.TenantArgs{
			HubKubeconfig: cfg.RequireSecret("hubKubeconfig"),
			Clusters: fleet.TenantClusterArray{
				&fleet.TenantClusterArgs{
					Name:    spoke.ClusterName,
					Region:  spoke.Region,
					Cluster: spoke.ClusterInfo,
				},
			},
			Tenant: &fleet.TenantSpecArgs{
				Name: pulumi.String("payments"),
				Namespaces: fleet.TenantNamespaceArray{
					&fleet.TenantNamespaceArgs{Name: pulumi.String("payments")},
				},
				Owners: fleet.TenantOwnerArray{
					&fleet.TenantOwnerArgs{
						Arn:    pulumi.String("arn:aws:iam::111122223333:role/payments-admins"),
						Access: pulumi.String("edit"),
					},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("project", payments.Project)
		return nil
	})
}
