// The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated
// TypeScript SDK, as a `pulumi package add` user would: the hub first, then every spoke with the hub's Argo CD
// management role and kubeconfig. Config checks live in the Go example (fleetstack.Validate); this one checks
// only what it needs to build.
import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

interface Cluster {
    name: string;
    region: string;
    environment?: string;
    vpcCidr: string;
    role: "hub" | "spoke";
    version?: string;
    nodeGroups?: { name: string; instanceTypes: string[]; minSize: number; maxSize: number; desiredSize: number }[];
    addons?: Record<string, boolean>;
    addonSettings?: fleet.types.input.AddonSettingsArgs;
    publicAccessCidrs?: string[];
}

interface Repo { url: string; revision?: string; basePath?: string; path: string }

interface Git { owner: string; repository: string; branch?: string; pullRequest?: boolean }

/** The Pulumi program: returns the stack outputs. */
export function program(): Record<string, pulumi.Input<any>> {
    const cfg = new pulumi.Config("gitops-fleet");
    const clusters = cfg.requireObject<Cluster[]>("clusters");
    const repos = cfg.requireObject<{ addons: Repo; workloads?: Repo }>("repositories");
    const git = cfg.getObject<Git>("git");
    const hubs = clusters.filter(c => c.role === "hub");
    if (hubs.length !== 1) {
        throw new Error(`gitops-fleet:clusters: want exactly one cluster with role hub, found ${hubs.length}`);
    }
    const bridge = (c: fleet.FleetCluster) => ({
        cluster: c.clusterInfo,
        addonsRepo: repos.addons,
        workloadsRepo: repos.workloads,
        git: git ? { owner: git.owner, repository: git.repository, branch: git.branch, pullRequest: git.pullRequest } : undefined,
    });
    const clusterArgs = (c: Cluster): fleet.FleetClusterArgs => ({
        region: c.region,
        clusterName: c.name,
        environment: c.environment ?? pulumi.getStack(),
        vpcCidr: c.vpcCidr,
        version: c.version,
        nodeGroups: c.nodeGroups,
        addons: c.addons,
        addonSettings: c.addonSettings,
        publicAccessCidrs: c.publicAccessCidrs,
    });

    const summary: Record<string, pulumi.Input<any>> = {};
    const hubSpec = hubs[0];
    const hub = new fleet.FleetCluster(hubSpec.name, clusterArgs(hubSpec));
    const argocd = new fleet.GitOpsBridge(hubSpec.name, { ...bridge(hub), hub: {} });
    summary[hubSpec.name] = { region: hubSpec.region, role: "hub", endpoint: hub.endpoint, labels: argocd.labels };

    for (const s of clusters.filter(c => c.role === "spoke")) {
        const spoke = new fleet.FleetCluster(s.name, {
            ...clusterArgs(s),
            gitopsAccess: { hubRoleArn: argocd.managementRoleArn },
        });
        const registration = new fleet.GitOpsBridge(s.name, { ...bridge(spoke), spoke: { hubKubeconfig: hub.kubeconfig } });
        summary[s.name] = { region: s.region, role: "spoke", endpoint: spoke.endpoint, labels: registration.labels };
    }
    return {
        clusters: summary,
        argocdManagementRoleArn: argocd.managementRoleArn,
        hubKubeconfig: pulumi.secret(hub.kubeconfig),
    };
}
