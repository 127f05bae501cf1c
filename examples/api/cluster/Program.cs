using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    // An EKS cluster in its own VPC, with the AWS Load Balancer Controller's IAM role.
    var cluster = new Fleet.FleetCluster("dev", new()
    {
        Region = "us-east-1",
        Addons = { { "aws_load_balancer_controller", true } },
    });

    return new Dictionary<string, object?>
    {
        ["kubeconfig"] = cluster.Kubeconfig,
    };
});
