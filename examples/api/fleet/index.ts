import * as fleet from "@gitops-fleet/fleet";

// A hub running Argo CD and a spoke it manages, in two regions. The VPC CIDRs are
// allocated from 10.0.0.0/8 and kept by the fleet's ClusterLedger.
const f = new fleet.Fleet("fleet", {
    repositories: {
        addons: {
            url: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
            revision: "main",
            path: "bootstrap/control-plane/addons",
        },
    },
    clusters: [
        { name: "hub", region: "us-east-1", role: "hub", addons: { metrics_server: true } },
        {
            name: "spoke-use2",
            region: "us-east-2",
            role: "spoke",
            addons: { aws_load_balancer_controller: true, karpenter: true },
        },
    ],
});

export const vpcCidrs = f.vpcCidrs;
export const argocdManagementRoleArn = f.argocdManagementRoleArn;
