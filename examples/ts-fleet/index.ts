// Entry point for `pulumi up` with the Node.js language host.
import { program } from "./fleet";

const outputs = program();
export const clusters = outputs.clusters;
export const vpcCidrs = outputs.vpcCidrs;
export const argocdManagementRoleArn = outputs.argocdManagementRoleArn;
export const argocdServerUrl = outputs.argocdServerUrl;
export const hubKubeconfig = outputs.hubKubeconfig;
export const rollout = outputs.rollout;
