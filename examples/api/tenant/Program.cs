using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var spoke = new Fleet.FleetCluster("spoke", new() { Region = "us-west-2" });

    // The payments team on the spoke: its namespace at Pod Security "restricted", its owners'
    // EKS access to that namespace only, and its Argo CD project on the hub.
    var payments = new Fleet.Tenant("payments", new()
    {
        HubKubeconfig = config.RequireSecret("hubKubeconfig"),
        Clusters =
        {
            new Fleet.Inputs.TenantClusterArgs
            {
                Name = spoke.ClusterName,
                Region = spoke.Region,
                Cluster = ClusterInfo(spoke),
            },
        },
        Tenant = new Fleet.Inputs.TenantSpecArgs
        {
            Name = "payments",
            Namespaces = { new Fleet.Inputs.TenantNamespaceArgs { Name = "payments" } },
            Owners =
            {
                new Fleet.Inputs.TenantOwnerArgs
                {
                    Arn = "arn:aws:iam::111122223333:role/payments-admins",
                    Access = "edit",
                },
            },
        },
    });

    return new Dictionary<string, object?>
    {
        ["project"] = payments.Project,
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
