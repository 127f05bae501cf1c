"""The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated Python
SDK, as a `pulumi package add` user would: the hub first, then every spoke with the hub's Argo CD management
role and kubeconfig. Config checks live in the Go example (fleetstack.Validate); this one checks only what it
needs to build."""

import re

import pulumi
import pulumi_fleet as fleet


def _repo(spec):
    if not spec:
        return None
    return fleet.RepoArgs(url=spec["url"], path=spec["path"], revision=spec.get("revision"),
                          base_path=spec.get("basePath"))


def _node_groups(specs):
    return [fleet.NodeGroupArgs(name=g["name"], instance_types=g["instanceTypes"], min_size=g["minSize"],
                                max_size=g["maxSize"], desired_size=g["desiredSize"]) for g in specs or []] or None


def _snake(value):
    """Stack config keys are the schema's camelCase; the SDK's input dictionaries take snake_case keys."""
    if isinstance(value, dict):
        return {re.sub(r"(?<!^)(?=[A-Z])", "_", k).lower(): _snake(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_snake(v) for v in value]
    return value


def program():
    """The Pulumi program: builds the fleet and exports clusters, argocdManagementRoleArn and hubKubeconfig."""
    cfg = pulumi.Config("gitops-fleet")
    clusters = cfg.require_object("clusters")
    repos = cfg.require_object("repositories")
    git = cfg.get_object("git")
    hubs = [c for c in clusters if c["role"] == "hub"]
    if len(hubs) != 1:
        raise ValueError(f"gitops-fleet:clusters: want exactly one cluster with role hub, found {len(hubs)}")

    def cluster_args(c, **extra):
        return fleet.FleetClusterArgs(
            region=c["region"], cluster_name=c["name"], environment=c.get("environment", pulumi.get_stack()),
            vpc_cidr=c["vpcCidr"], version=c.get("version"), node_groups=_node_groups(c.get("nodeGroups")),
            addons=c.get("addons"), addon_settings=_snake(c.get("addonSettings")),
            public_access_cidrs=c.get("publicAccessCidrs"), **extra)

    def bridge_args(cluster, **extra):
        delivery = None
        if git:
            delivery = fleet.GitDeliveryArgs(owner=git["owner"], repository=git["repository"],
                                             branch=git.get("branch"), pull_request=git.get("pullRequest"))
        return fleet.GitOpsBridgeArgs(cluster=cluster.cluster_info, addons_repo=_repo(repos.get("addons")),
                                      workloads_repo=_repo(repos.get("workloads")), git=delivery, **extra)

    summary = {}
    spec = hubs[0]
    hub = fleet.FleetCluster(spec["name"], cluster_args(spec))
    argocd = fleet.GitOpsBridge(spec["name"], bridge_args(hub, hub=fleet.HubArgs()))
    summary[spec["name"]] = {"region": spec["region"], "role": "hub", "endpoint": hub.endpoint, "labels": argocd.labels}
    for s in (c for c in clusters if c["role"] == "spoke"):
        spoke = fleet.FleetCluster(s["name"], cluster_args(
            s, gitops_access=fleet.GitOpsAccessArgs(hub_role_arn=argocd.management_role_arn)))
        registration = fleet.GitOpsBridge(s["name"], bridge_args(
            spoke, spoke=fleet.SpokeArgs(hub_kubeconfig=hub.kubeconfig)))
        summary[s["name"]] = {"region": s["region"], "role": "spoke", "endpoint": spoke.endpoint,
                              "labels": registration.labels}
    pulumi.export("clusters", summary)
    pulumi.export("argocdManagementRoleArn", argocd.management_role_arn)
    pulumi.export("hubKubeconfig", pulumi.Output.secret(hub.kubeconfig))
