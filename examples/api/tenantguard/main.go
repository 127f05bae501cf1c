package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		spoke, err := fleet.NewFleetCluster(ctx, "spoke", &fleet.FleetClusterArgs{Region: "us-west-2"})
		if err != nil {
			return err
		}
		// Refuses an up or destroy that would delete the payments namespace while it holds
		// PersistentVolumeClaims; set preventDeletion to false to let it go.
		_, err = fleet.NewTenantGuard(ctx, "payments-spoke", &fleet.TenantGuardArgs{
			Tenant:                   pulumi.String("payments"),
			Namespaces:               pulumi.StringArray{pulumi.String("payments")},
			PreventDeletion:          pulumi.Bool(true),
			ClusterName:              spoke.ClusterName,
			Region:                   spoke.Region,
			Endpoint:                 spoke.Endpoint,
			CertificateAuthorityData: spoke.CertificateAuthorityData,
		})
		return err
	})
}
