import pulumi
import pulumi_fleet as fleet

cfg = pulumi.Config()

# The fleet's own stacks delivered on the hub: a PKO Stack per stage, each pinned to a
# commit of the program, promoted dev -> prod by Kargo; prod needs the platform leads.
delivery = fleet.StackDelivery(
    "delivery",
    kubeconfig=cfg.require_secret("hubKubeconfig"),
    pulumi_access_token=cfg.require_secret("pulumiAccessToken"),
    program={"repo_url": "https://github.com/acme/platform-fleet.git"},
    manifests={"owner": "acme", "repository": "platform-fleet"},
    stages=[
        {"name": "dev", "stack": "acme/platform-fleet/dev", "commit": "81d3a29597266e2c6dee3d95e1a055caf008a79d"},
        {
            "name": "prod",
            "stack": "acme/platform-fleet/prod",
            "commit": "81d3a29597266e2c6dee3d95e1a055caf008a79d",
            "approvers": {"groups": ["platform-leads"]},
        },
    ],
)

pulumi.export("stages", delivery.stages)
pulumi.export("applications", delivery.application_names)
