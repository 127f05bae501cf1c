import * as fleet from "@gitops-fleet/fleet";

// An EKS cluster in its own VPC, with the AWS Load Balancer Controller's IAM role.
const cluster = new fleet.FleetCluster("dev", { region: "us-east-1", addons: { aws_load_balancer_controller: true } });

export const kubeconfig = cluster.kubeconfig;
