// The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated
// TypeScript SDK, as a `pulumi package add` user would: the stack config is the Fleet's input as it is, and the
// Fleet checks the whole fleet (one hub, unique names, non-overlapping CIDRs, every cluster's rules) before it
// registers anything. With gitops-fleet:delivery, a StackDelivery on the hub delivers the fleet's own stacks by
// GitOps; its secrets are config secrets of their own (see examples/fleet/Pulumi.delivery.yaml).
import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

/** gitops-fleet:delivery: StackDelivery's inputs but the hub and the secrets. */
interface Delivery {
    project?: string;
    namespace?: string;
    backend?: string;
    program: fleet.types.input.ProgramRepositoryArgs;
    manifests: fleet.types.input.ManifestsRepositoryArgs;
    stages: fleet.types.input.DeliveryStageArgs[];
    operator?: fleet.types.input.OperatorInstallArgs;
    kargo?: fleet.types.input.KargoInstallArgs;
}

/** The Pulumi program: returns the stack outputs. */
export function program(): Record<string, pulumi.Input<any>> {
    const cfg = new pulumi.Config("gitops-fleet");
    const clusters = cfg.requireObject<fleet.types.input.ClusterSpecArgs[]>("clusters");
    const argocd = cfg.getObject<fleet.types.input.HubArgs>("argocd");
    const hubName = clusters.find((c) => c.role === "hub")?.name as string | undefined;
    const f = new fleet.Fleet("fleet", {
        clusters,
        repositories: cfg.requireObject<fleet.types.input.RepositoriesArgs>("repositories"),
        defaults: cfg.getObject<fleet.types.input.ClusterDefaultsArgs>("defaults"),
        git: cfg.getObject<fleet.types.input.GitDeliveryArgs>("git"),
        cidrPool: cfg.get("cidrPool"),
        allowRemoval: cfg.getBoolean("allowRemoval"),
        tenants: cfg.getObject<fleet.types.input.TenantSpecArgs[]>("tenants"),
        hub: cfg.getObject<fleet.types.input.HubRefArgs>("hub"),
        shards: cfg.getObject<fleet.types.input.ShardArgs[]>("shards"),
        argocd,
    });
    const outputs: Record<string, pulumi.Input<any>> = {
        clusters: f.clusters,
        vpcCidrs: f.vpcCidrs,
        argocdManagementRoleArn: f.argocdManagementRoleArn,
        argocdServerUrl: f.argocdServerUrl,
        hubKubeconfig: f.hubKubeconfig,
        tenants: f.tenants,
        hubFacts: f.hubFacts,
        hubCapacity: f.hubCapacity,
        shardFacts: f.shardFacts,
    };
    // gitops-fleet:rollout, the record `fleet rollout` keeps (docs/waves.md): its outcome as a stack output.
    const rollout = cfg.getObject<Record<string, unknown>>("rollout");
    if (rollout) {
        outputs.rollout = rollout;
    }
    const delivery = cfg.getObject<Delivery>("delivery");
    if (delivery) {
        const d = new fleet.StackDelivery("delivery", {
            ...delivery,
            kubeconfig: f.hubKubeconfig,
            // A managed Argo CD names the hub by its cluster, not the in-cluster server.
            hubName: argocd?.mode === "managed" ? hubName : undefined,
            pulumiAccessToken: cfg.getSecret("pulumiAccessToken"),
            previewAccessToken: cfg.getSecret("previewAccessToken"),
            program: { ...delivery.program, gitToken: cfg.getSecret("programGitToken") },
            kargo: {
                ...delivery.kargo,
                adminPasswordHash: cfg.getSecret("kargoAdminPasswordHash"),
                tokenSigningKey: cfg.getSecret("kargoTokenSigningKey"),
                gitToken: cfg.getSecret("kargoGitToken"),
                programGitToken: cfg.getSecret("kargoProgramGitToken"),
            },
        }, { dependsOn: [f] });
        outputs.deliveryStages = d.stages;
        outputs.deliveryApplications = d.applicationNames;
        outputs.deliveryManifestUrls = d.manifestUrls;
        outputs.deliveryStageBranches = d.stageBranches;
        outputs.deliveryStageKinds = d.stageKinds;
        outputs.deliveryStageSources = d.stageSources;
        outputs.deliveryStageStacks = d.stageStacks;
    }
    return outputs;
}
