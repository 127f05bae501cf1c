using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    var config = new Config();
    var hub = new Fleet.FleetCluster("hub", new()
    {
        Region = "us-west-2",
    });

    // Argo CD run by EKS for the hub. The role trusts capabilities.eks.amazonaws.com with
    // sts:AssumeRole and sts:TagSession; the platform group signs in through IAM Identity Center.
    var argocd = new Fleet.ArgoCDCapability("hub", new()
    {
        ClusterName = hub.ClusterName,
        Region = hub.Region,
        RoleArn = config.Require("capabilityRoleArn"),
        ArgoCd = new Fleet.Inputs.CapabilityArgoCDArgs
        {
            AwsIdc = new Fleet.Inputs.CapabilityIdentityCenterArgs
            {
                IdcInstanceArn = config.Require("identityCenterInstanceArn"),
            },
            RbacRoleMappings =
            {
                new Fleet.Inputs.CapabilityRoleMappingArgs
                {
                    Role = "ADMIN",
                    Identities =
                    {
                        new Fleet.Inputs.CapabilityIdentityArgs
                        {
                            Id = config.Require("platformGroupId"),
                            Type = "SSO_GROUP",
                        },
                    },
                },
            },
        },
    });

    return new Dictionary<string, object?>
    {
        ["serverUrl"] = argocd.ServerUrl,
        ["argoCdVersion"] = argocd.Version,
    };
});
