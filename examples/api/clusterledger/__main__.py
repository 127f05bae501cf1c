import pulumi
import pulumi_fleet as fleet

# VPC CIDRs for two clusters: spoke-use2 keeps the one it gives, hub gets a /16 from the pool
# that stays its own when clusters are added or removed.
ledger = fleet.ClusterLedger(
    "ledger",
    cidr_pool="10.0.0.0/8",
    cidr_prefix_length=16,
    clusters=[
        {"name": "hub", "region": "us-east-1"},
        {"name": "spoke-use2", "region": "us-east-2", "vpc_cidr": "10.42.0.0/16"},
    ],
)

pulumi.export("vpcCidrs", ledger.vpc_cidrs)
