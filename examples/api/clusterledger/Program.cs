using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    // VPC CIDRs for two clusters: spoke-use2 keeps the one it gives, hub gets a /16 from the pool
    // that stays its own when clusters are added or removed.
    var ledger = new Fleet.ClusterLedger("ledger", new()
    {
        CidrPool = "10.0.0.0/8",
        CidrPrefixLength = 16,
        Clusters =
        {
            new Fleet.Inputs.LedgerEntryArgs { Name = "hub", Region = "us-east-1" },
            new Fleet.Inputs.LedgerEntryArgs { Name = "spoke-use2", Region = "us-east-2", VpcCidr = "10.42.0.0/16" },
        },
    });

    return new Dictionary<string, object?>
    {
        ["vpcCidrs"] = ledger.VpcCidrs,
    };
});
