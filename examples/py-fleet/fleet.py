"""The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the generated Python
SDK, as a `pulumi package add` user would: the stack config is the Fleet's input as it is, and the Fleet checks
the whole fleet (one hub, unique names, non-overlapping CIDRs, every cluster's rules) before it registers
anything. With gitops-fleet:delivery, a StackDelivery on the hub delivers the fleet's own stacks by GitOps; its
secrets are config secrets of their own (see examples/fleet/Pulumi.delivery.yaml)."""

import pulumi
import pulumi_fleet as fleet


def program():
    """The Pulumi program: builds the fleet and exports clusters, vpcCidrs, argocdManagementRoleArn,
    argocdServerUrl and hubKubeconfig, and with a delivery its stages, Applications and manifest URLs."""
    cfg = pulumi.Config("gitops-fleet")
    clusters, argocd = cfg.require_object("clusters"), cfg.get_object("argocd")
    f = fleet.Fleet("fleet", fleet.FleetArgs(
        clusters=clusters,
        repositories=cfg.require_object("repositories"),
        defaults=cfg.get_object("defaults"),
        git=cfg.get_object("git"),
        cidr_pool=cfg.get("cidrPool"),
        allow_removal=cfg.get_bool("allowRemoval"),
        tenants=cfg.get_object("tenants"),
        hub=cfg.get_object("hub"),
        shards=cfg.get_object("shards"),
        argocd=argocd,
    ))
    pulumi.export("clusters", f.clusters)
    pulumi.export("vpcCidrs", f.vpc_cidrs)
    pulumi.export("argocdManagementRoleArn", f.argocd_management_role_arn)
    pulumi.export("argocdServerUrl", f.argocd_server_url)
    pulumi.export("hubKubeconfig", f.hub_kubeconfig)
    pulumi.export("tenants", f.tenants)
    pulumi.export("hubFacts", f.hub_facts)
    pulumi.export("hubCapacity", f.hub_capacity)
    pulumi.export("shardFacts", f.shard_facts)
    rollout = cfg.get_object("rollout")  # the record `fleet rollout` keeps (docs/waves.md)
    if rollout:
        pulumi.export("rollout", rollout)
    delivery = cfg.get_object("delivery")
    if delivery:
        d = fleet.StackDelivery("delivery", fleet.StackDeliveryArgs(
            kubeconfig=f.hub_kubeconfig,
            # A managed Argo CD names the hub by its cluster, not the in-cluster server.
            hub_name=next((c["name"] for c in clusters if c.get("role") == "hub"), None)
            if (argocd or {}).get("mode") == "managed" else None,
            project=delivery.get("project"),
            namespace=delivery.get("namespace"),
            backend=delivery.get("backend"),
            program={**delivery["program"], "gitToken": cfg.get_secret("programGitToken")},
            manifests=delivery["manifests"],
            stages=delivery["stages"],
            operator=delivery.get("operator"),
            kargo={**delivery.get("kargo", {}),
                   "adminPasswordHash": cfg.get_secret("kargoAdminPasswordHash"),
                   "tokenSigningKey": cfg.get_secret("kargoTokenSigningKey"),
                   "gitToken": cfg.get_secret("kargoGitToken"),
                   "programGitToken": cfg.get_secret("kargoProgramGitToken")},
            pulumi_access_token=cfg.get_secret("pulumiAccessToken"),
            preview_access_token=cfg.get_secret("previewAccessToken"),
        ), pulumi.ResourceOptions(depends_on=[f]))
        pulumi.export("deliveryStages", d.stages)
        pulumi.export("deliveryApplications", d.application_names)
        pulumi.export("deliveryManifestUrls", d.manifest_urls)
        pulumi.export("deliveryStageBranches", d.stage_branches)
        pulumi.export("deliveryStageKinds", d.stage_kinds)
        pulumi.export("deliveryStageSources", d.stage_sources)
        pulumi.export("deliveryStageStacks", d.stage_stacks)
