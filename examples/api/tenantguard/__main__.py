import pulumi_fleet as fleet

spoke = fleet.FleetCluster("spoke", region="us-west-2")

# Refuses an up or destroy that would delete the payments namespace while it holds
# PersistentVolumeClaims; set prevent_deletion to False to let it go.
fleet.TenantGuard(
    "payments-spoke",
    tenant="payments",
    namespaces=["payments"],
    prevent_deletion=True,
    cluster_name=spoke.cluster_name,
    region=spoke.region,
    endpoint=spoke.endpoint,
    certificate_authority_data=spoke.certificate_authority_data,
)
