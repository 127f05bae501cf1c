using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    // A hub running Argo CD and a spoke it manages, in two regions. The VPC CIDRs are
    // allocated from 10.0.0.0/8 and kept by the fleet's ClusterLedger.
    var fleet = new Fleet.Fleet("fleet", new()
    {
        Repositories = new Fleet.Inputs.RepositoriesArgs
        {
            Addons = new Fleet.Inputs.RepoArgs
            {
                Url = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
                Revision = "main",
                Path = "bootstrap/control-plane/addons",
            },
        },
        Clusters =
        {
            new Fleet.Inputs.ClusterSpecArgs
            {
                Name = "hub",
                Region = "us-east-1",
                Role = "hub",
                Addons = { { "metrics_server", true } },
            },
            new Fleet.Inputs.ClusterSpecArgs
            {
                Name = "spoke-use2",
                Region = "us-east-2",
                Role = "spoke",
                Addons = { { "aws_load_balancer_controller", true }, { "karpenter", true } },
            },
        },
    });

    return new Dictionary<string, object?>
    {
        ["vpcCidrs"] = fleet.VpcCidrs,
        ["argocdManagementRoleArn"] = fleet.ArgocdManagementRoleArn,
    };
});
