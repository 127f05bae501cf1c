import pulumi
import pulumi_fleet as fleet

config = pulumi.Config()
hub = fleet.FleetCluster("hub", region="us-west-2")

# Argo CD run by EKS for the hub. The role trusts capabilities.eks.amazonaws.com with
# sts:AssumeRole and sts:TagSession; the platform group signs in through IAM Identity Center.
argocd = fleet.ArgoCDCapability(
    "hub",
    cluster_name=hub.cluster_name,
    region=hub.region,
    role_arn=config.require("capabilityRoleArn"),
    argo_cd=fleet.CapabilityArgoCDArgs(
        aws_idc=fleet.CapabilityIdentityCenterArgs(idc_instance_arn=config.require("identityCenterInstanceArn")),
        rbac_role_mappings=[
            fleet.CapabilityRoleMappingArgs(
                role="ADMIN",
                identities=[fleet.CapabilityIdentityArgs(id=config.require("platformGroupId"), type="SSO_GROUP")],
            )
        ],
    ),
)

pulumi.export("serverUrl", argocd.server_url)
pulumi.export("argoCdVersion", argocd.version)
