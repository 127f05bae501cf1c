using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    var spoke = new Fleet.FleetCluster("spoke", new()
    {
        Region = "us-west-2",
        Addons = { { "aws_load_balancer_controller", true } },
    });

    // Deleted before the cluster (it depends on it): removes the load balancers, volumes and
    // Karpenter nodes the add-ons made, and waits until AWS has nothing tagged to the cluster.
    new Fleet.ClusterDrain("spoke", new()
    {
        ClusterName = spoke.ClusterName,
        Region = spoke.Region,
        Endpoint = spoke.Endpoint,
        CertificateAuthorityData = spoke.CertificateAuthorityData,
        Timeout = "30m",
    }, new CustomResourceOptions { DependsOn = { spoke } });

    // What the add-on controllers made for the cluster that is still there.
    var leftovers = Fleet.GetStillTagged.Invoke(new()
    {
        ClusterName = spoke.ClusterName,
        Region = spoke.Region,
    });

    return new Dictionary<string, object?>
    {
        ["stillTagged"] = leftovers.Apply(result => result.Arns),
    };
});
