// The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated
// TypeScript SDK, as a `pulumi package add` user would: the stack config is the Fleet's input as it is, and the
// Fleet checks the whole fleet (one hub, unique names, non-overlapping CIDRs, every cluster's rules) before it
// registers anything.
import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

/** The Pulumi program: returns the stack outputs. */
export function program(): Record<string, pulumi.Input<any>> {
    const cfg = new pulumi.Config("gitops-fleet");
    const f = new fleet.Fleet("fleet", {
        clusters: cfg.requireObject<fleet.types.input.ClusterSpecArgs[]>("clusters"),
        repositories: cfg.requireObject<fleet.types.input.RepositoriesArgs>("repositories"),
        defaults: cfg.getObject<fleet.types.input.ClusterDefaultsArgs>("defaults"),
        git: cfg.getObject<fleet.types.input.GitDeliveryArgs>("git"),
        cidrPool: cfg.get("cidrPool"),
    });
    return {
        clusters: f.clusters,
        vpcCidrs: f.vpcCidrs,
        argocdManagementRoleArn: f.argocdManagementRoleArn,
        hubKubeconfig: f.hubKubeconfig,
    };
}
