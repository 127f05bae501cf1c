import * as pulumi from "@pulumi/pulumi";
import * as fleet from "@gitops-fleet/fleet";

const config = new pulumi.Config();
const hub = new fleet.FleetCluster("hub", { region: "us-west-2" });

// Argo CD run by EKS for the hub. The role trusts capabilities.eks.amazonaws.com with
// sts:AssumeRole and sts:TagSession; the platform group signs in through IAM Identity Center.
const argocd = new fleet.ArgoCDCapability("hub", {
    clusterName: hub.clusterName,
    region: hub.region,
    roleArn: config.require("capabilityRoleArn"),
    argoCd: {
        awsIdc: { idcInstanceArn: config.require("identityCenterInstanceArn") },
        rbacRoleMappings: [{
            role: "ADMIN",
            identities: [{ id: config.require("platformGroupId"), type: "SSO_GROUP" }],
        }],
    },
});

export const serverUrl = argocd.serverUrl;
export const argoCdVersion = argocd.version;
