import pulumi
import pulumi_fleet as fleet

# A hub running Argo CD and a spoke it manages, in two regions. The VPC CIDRs are
# allocated from 10.0.0.0/8 and kept by the fleet's ClusterLedger.
f = fleet.Fleet(
    "fleet",
    repositories={
        "addons": {
            "url": "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
            "revision": "main",
            "path": "bootstrap/control-plane/addons",
        },
    },
    clusters=[
        {"name": "hub", "region": "us-east-1", "role": "hub", "addons": {"metrics_server": True}},
        {
            "name": "spoke-use2",
            "region": "us-east-2",
            "role": "spoke",
            "addons": {"aws_load_balancer_controller": True, "karpenter": True},
        },
    ],
)

pulumi.export("vpcCidrs", f.vpc_cidrs)
pulumi.export("argocdManagementRoleArn", f.argocd_management_role_arn)
