package main

import (
	"github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// VPC CIDRs for two clusters: spoke-use2 keeps the one it gives, hub gets a /16 from the pool
		// that stays its own when clusters are added or removed.
		ledger, err := fleet.NewClusterLedger(ctx, "ledger", &fleet.ClusterLedgerArgs{
			CidrPool:         pulumi.String("10.0.0.0/8"),
			CidrPrefixLength: pulumi.Int(16),
			Clusters: fleet.LedgerEntryArray{
				&fleet.LedgerEntryArgs{Name: pulumi.String("hub"), Region: pulumi.String("us-east-1")},
				&fleet.LedgerEntryArgs{
					Name:    pulumi.String("spoke-use2"),
					Region:  pulumi.String("us-east-2"),
					VpcCidr: pulumi.String("10.42.0.0/16"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("vpcCidrs", ledger.VpcCidrs)
		return nil
	})
}
