using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    var spoke = new Fleet.FleetCluster("spoke", new() { Region = "us-west-2" });

    // Refuses an up or destroy that would delete the payments namespace while it holds
    // PersistentVolumeClaims; set PreventDeletion to false to let it go.
    new Fleet.TenantGuard("payments-spoke", new()
    {
        Tenant = "payments",
        Namespaces = { "payments" },
        PreventDeletion = true,
        ClusterName = spoke.ClusterName,
        Region = spoke.Region,
        Endpoint = spoke.Endpoint,
        CertificateAuthorityData = spoke.CertificateAuthorityData,
    });
});
