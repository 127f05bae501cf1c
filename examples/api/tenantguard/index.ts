import * as fleet from "@gitops-fleet/fleet";

const spoke = new fleet.FleetCluster("spoke", { region: "us-west-2" });

// Refuses an up or destroy that would delete the payments namespace while it holds
// PersistentVolumeClaims; set preventDeletion to false to let it go.
new fleet.TenantGuard("payments-spoke", {
    tenant: "payments",
    namespaces: ["payments"],
    preventDeletion: true,
    clusterName: spoke.clusterName,
    region: spoke.region,
    endpoint: spoke.endpoint,
    certificateAuthorityData: spoke.certificateAuthorityData,
});
