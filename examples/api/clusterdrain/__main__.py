import pulumi
import pulumi_fleet as fleet

spoke = fleet.FleetCluster("spoke", region="us-west-2", addons={"aws_load_balancer_controller": True})

# Deleted before the cluster (it depends on it): removes the load balancers, volumes and
# Karpenter nodes the add-ons made, and waits until AWS has nothing tagged to the cluster.
fleet.ClusterDrain(
    "spoke",
    cluster_name=spoke.cluster_name,
    region=spoke.region,
    endpoint=spoke.endpoint,
    certificate_authority_data=spoke.certificate_authority_data,
    timeout="30m",
    opts=pulumi.ResourceOptions(depends_on=[spoke]),
)

# What the add-on controllers made for the cluster that is still there.
leftovers = fleet.get_still_tagged_output(cluster_name=spoke.cluster_name, region=spoke.region)
pulumi.export("stillTagged", leftovers.arns)
