import * as fleet from "@gitops-fleet/fleet";

const spoke = new fleet.FleetCluster("spoke", {
    region: "us-west-2",
    addons: { aws_load_balancer_controller: true },
});

// Deleted before the cluster (it depends on it): removes the load balancers, volumes and
// Karpenter nodes the add-ons made, and waits until AWS has nothing tagged to the cluster.
new fleet.ClusterDrain("spoke", {
    clusterName: spoke.clusterName,
    region: spoke.region,
    endpoint: spoke.endpoint,
    certificateAuthorityData: spoke.certificateAuthorityData,
    timeout: "30m",
}, { dependsOn: [spoke] });

// What the add-on controllers made for the cluster that is still there.
export const stillTagged = fleet.getStillTaggedOutput({
    clusterName: spoke.clusterName,
    region: spoke.region,
}).arns;
