import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

const cfg = new pulumi.Config();
const spoke = new fleet.FleetCluster("spoke", { region: "us-west-2" });

// The payments team on the spoke: its namespace at Pod Security "restricted", its owners'
// EKS access to that namespace only, and its Argo CD project on the hub.
const payments = new fleet.Tenant("payments", {
    hubKubeconfig: cfg.requireSecret("hubKubeconfig"),
    clusters: [{ name: spoke.clusterName, region: spoke.region, cluster: spoke.clusterInfo }],
    tenant: {
        name: "payments",
        namespaces: [{ name: "payments" }],
        owners: [{ arn: "arn:aws:iam::111122223333:role/payments-admins", access: "edit" }],
    },
});

export const project = payments.project;
