"""The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated Python
SDK, as a `pulumi package add` user would: the stack config is the Fleet's input as it is, and the Fleet checks
the whole fleet (one hub, unique names, non-overlapping CIDRs, every cluster's rules) before it registers
anything."""

import pulumi
import pulumi_fleet as fleet


def program():
    """The Pulumi program: builds the fleet and exports clusters, vpcCidrs, argocdManagementRoleArn and
    hubKubeconfig."""
    cfg = pulumi.Config("gitops-fleet")
    f = fleet.Fleet("fleet", fleet.FleetArgs(
        clusters=cfg.require_object("clusters"),
        repositories=cfg.require_object("repositories"),
        defaults=cfg.get_object("defaults"),
        git=cfg.get_object("git"),
        cidr_pool=cfg.get("cidrPool"),
    ))
    pulumi.export("clusters", f.clusters)
    pulumi.export("vpcCidrs", f.vpc_cidrs)
    pulumi.export("argocdManagementRoleArn", f.argocd_management_role_arn)
    pulumi.export("hubKubeconfig", f.hub_kubeconfig)
