import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

const cfg = new pulumi.Config();

// The fleet's own stacks delivered on the hub: a PKO Stack per stage, each pinned to a
// commit of the program, promoted dev -> prod by Kargo; prod needs the platform leads.
const delivery = new fleet.StackDelivery("delivery", {
    kubeconfig: cfg.requireSecret("hubKubeconfig"),
    pulumiAccessToken: cfg.requireSecret("pulumiAccessToken"),
    program: { repoUrl: "https://github.com/acme/platform-fleet.git" },
    manifests: { owner: "acme", repository: "platform-fleet" },
    stages: [
        { name: "dev", stack: "acme/platform-fleet/dev", commit: "81d3a29597266e2c6dee3d95e1a055caf008a79d" },
        {
            name: "prod",
            stack: "acme/platform-fleet/prod",
            commit: "81d3a29597266e2c6dee3d95e1a055caf008a79d",
            approvers: { groups: ["platform-leads"] },
        },
    ],
});

export const stages = delivery.stages;
export const applications = delivery.applicationNames;
