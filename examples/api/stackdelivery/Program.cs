using System.Collections.Generic;
using Pulumi;
using Fleet = GitOpsFleet.Fleet;

return await Deployment.RunAsync(() =>
{
    var config = new Config();

    // The fleet's own stacks delivered on the hub: a PKO Stack per stage, each pinned to a
    // commit of the program, promoted dev -> prod by Kargo; prod needs the platform leads.
    var delivery = new Fleet.StackDelivery("delivery", new()
    {
        Kubeconfig = config.RequireSecret("hubKubeconfig"),
        PulumiAccessToken = config.RequireSecret("pulumiAccessToken"),
        Program = new Fleet.Inputs.ProgramRepositoryArgs { RepoUrl = "https://github.com/acme/platform-fleet.git" },
        Manifests = new Fleet.Inputs.ManifestsRepositoryArgs { Owner = "acme", Repository = "platform-fleet" },
        Stages =
        {
            new Fleet.Inputs.DeliveryStageArgs
            {
                Name = "dev",
                Stack = "acme/platform-fleet/dev",
                Commit = "81d3a29597266e2c6dee3d95e1a055caf008a79d",
            },
            new Fleet.Inputs.DeliveryStageArgs
            {
                Name = "prod",
                Stack = "acme/platform-fleet/prod",
                Commit = "81d3a29597266e2c6dee3d95e1a055caf008a79d",
                Approvers = new Fleet.Inputs.ApproversArgs { Groups = { "platform-leads" } },
            },
        },
    });

    return new Dictionary<string, object?>
    {
        ["stages"] = delivery.Stages,
        ["applications"] = delivery.ApplicationNames,
    };
});
