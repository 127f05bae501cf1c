import pulumi
import pulumi_fleet as fleet


def cluster_info(cluster: fleet.FleetCluster) -> fleet.ClusterInfoArgsDict:
    """The cluster's facts as GitOpsBridge and Tenant take them: FleetCluster's clusterInfo output, built from
    its outputs (Python types the output as the output class ClusterInfo, not the input class)."""
    return {
        "cluster_name": cluster.cluster_name,
        "environment": cluster.environment,
        "server": cluster.endpoint,
        "certificate_authority_data": cluster.certificate_authority_data,
        "region": cluster.region,
        "account_id": cluster.account_id,
        "kubernetes_version": cluster.kubernetes_version,
        "kubeconfig": cluster.kubeconfig,
        "spoke_role_arn": cluster.spoke_role_arn,
        "gitops_metadata": cluster.gitops_metadata,
        "addons": cluster.addons,
    }


cfg = pulumi.Config()
spoke = fleet.FleetCluster("spoke", region="us-west-2")

# The payments team on the spoke: its namespace at Pod Security "restricted", its owners'
# EKS access to that namespace only, and its Argo CD project on the hub.
payments = fleet.Tenant(
    "payments",
    hub_kubeconfig=cfg.require_secret("hubKubeconfig"),
    clusters=[{"name": spoke.cluster_name, "region": spoke.region, "cluster": cluster_info(spoke)}],
    tenant={
        "name": "payments",
        "namespaces": [{"name": "payments"}],
        "owners": [{"arn": "arn:aws:iam::111122223333:role/payments-admins", "access": "edit"}],
    },
)

pulumi.export("project", payments.project)
