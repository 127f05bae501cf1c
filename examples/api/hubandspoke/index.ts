import * as fleet from "@gitops-fleet/fleet";

// The hub cluster, and Argo CD on it.
const hub = new fleet.FleetCluster("hub", { region: "us-east-1", addons: { metrics_server: true } });
const argocd = new fleet.GitOpsBridge("hub", {
    cluster: hub.clusterInfo,
    hub: { highAvailability: true },
    addonsRepo: {
        url: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
        path: "bootstrap/control-plane/addons",
    },
});

// A spoke whose role the hub's Argo CD assumes, registered into the hub by its cluster secret.
const spoke = new fleet.FleetCluster("spoke", {
    region: "us-west-2",
    addons: { aws_load_balancer_controller: true },
    gitopsAccess: { hubRoleArn: argocd.managementRoleArn },
});
const registration = new fleet.GitOpsBridge("spoke", {
    cluster: spoke.clusterInfo,
    spoke: { hubKubeconfig: hub.kubeconfig },
});

export const spokeSecret = registration.secretName;
export const spokeLabels = registration.labels;
