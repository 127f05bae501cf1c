import * as fleet from "@gitops-fleet/fleet";

// VPC CIDRs for two clusters: spoke-use2 keeps the one it gives, hub gets a /16 from the pool
// that stays its own when clusters are added or removed.
const ledger = new fleet.ClusterLedger("ledger", {
    cidrPool: "10.0.0.0/8",
    cidrPrefixLength: 16,
    clusters: [
        { name: "hub", region: "us-east-1" },
        { name: "spoke-use2", region: "us-east-2", vpcCidr: "10.42.0.0/16" },
    ],
});

export const vpcCidrs = ledger.vpcCidrs;
