import pulumi
import pulumi_fleet as fleet

# An EKS cluster in its own VPC, with the AWS Load Balancer Controller's IAM role.
cluster = fleet.FleetCluster("dev", region="us-east-1", addons={"aws_load_balancer_controller": True})

pulumi.export("kubeconfig", cluster.kubeconfig)
