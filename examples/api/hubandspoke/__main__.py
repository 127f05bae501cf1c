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


# The hub cluster, and Argo CD on it.
hub = fleet.FleetCluster("hub", region="us-east-1", addons={"metrics_server": True})
argocd = fleet.GitOpsBridge(
    "hub",
    cluster=cluster_info(hub),
    hub={"high_availability": True},
    addons_repo={
        "url": "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
        "path": "bootstrap/control-plane/addons",
    },
)

# A spoke whose role the hub's Argo CD assumes, registered into the hub by its cluster secret.
spoke = fleet.FleetCluster(
    "spoke",
    region="us-west-2",
    addons={"aws_load_balancer_controller": True},
    gitops_access={"hub_role_arn": argocd.management_role_arn},
)
registration = fleet.GitOpsBridge(
    "spoke",
    cluster=cluster_info(spoke),
    spoke={"hub_kubeconfig": hub.kubeconfig},
)

pulumi.export("spokeSecret", registration.secret_name)
pulumi.export("spokeLabels", registration.labels)
