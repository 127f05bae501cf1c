using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    // The hub cluster, and Argo CD on it.
    var hub = new Fleet.FleetCluster("hub", new()
    {
        Region = "us-east-1",
        Addons = { { "metrics_server", true } },
    });
    var argocd = new Fleet.GitOpsBridge("hub", new()
    {
        Cluster = ClusterInfo(hub),
        Hub = new Fleet.Inputs.HubArgs { HighAvailability = true },
        AddonsRepo = new Fleet.Inputs.RepoArgs
        {
            Url = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
            Path = "bootstrap/control-plane/addons",
        },
    });

    // A spoke whose role the hub's Argo CD assumes, registered into the hub by its cluster secret.
    var spoke = new Fleet.FleetCluster("spoke", new()
    {
        Region = "us-west-2",
        Addons = { { "aws_load_balancer_controller", true } },
        GitopsAccess = new Fleet.Inputs.GitOpsAccessArgs { HubRoleArn = argocd.ManagementRoleArn },
    });
    var registration = new Fleet.GitOpsBridge("spoke", new()
    {
        Cluster = ClusterInfo(spoke),
        Spoke = new Fleet.Inputs.SpokeArgs { HubKubeconfig = hub.Kubeconfig },
    });

    return new Dictionary<string, object?>
    {
        ["spokeSecret"] = registration.SecretName,
        ["spokeLabels"] = registration.Labels,
    };
});

// The cluster's facts as GitOpsBridge and Tenant take them: FleetCluster's ClusterInfo output, built from its
// outputs (.NET types the output as the output class ClusterInfo, not the input class ClusterInfoArgs).
static Fleet.Inputs.ClusterInfoArgs ClusterInfo(Fleet.FleetCluster cluster) => new()
{
    ClusterName = cluster.ClusterName,
    Environment = cluster.Environment,
    Server = cluster.Endpoint,
    CertificateAuthorityData = cluster.CertificateAuthorityData,
    Region = cluster.Region,
    AccountId = cluster.AccountId,
    KubernetesVersion = cluster.KubernetesVersion,
    Kubeconfig = cluster.Kubeconfig,
    SpokeRoleArn = cluster.SpokeRoleArn,
    GitopsMetadata = cluster.GitopsMetadata,
    Addons = cluster.Addons,
};
