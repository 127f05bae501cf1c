package fleet

import (
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

const templateRepo = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"

// DevFleet (exported for the external tests) is a valid fleet: a hub in us-east-1 and two spokes in us-east-2, one CIDR given, two allocated.
func DevFleet() FleetArgs {
	return FleetArgs{
		Clusters: []ClusterSpec{
			{Name: "hub", Region: "us-east-1", Role: Hub, Addons: map[string]bool{"metrics_server": true}},
			{Name: "spoke-a", Region: "us-east-2", Role: Spoke, VpcCidr: "10.20.0.0/16",
				Addons: map[string]bool{"aws_load_balancer_controller": true}},
			{Name: "spoke-b", Region: "us-east-2", Role: Spoke, Version: "1.32"},
		},
		Defaults: &ClusterDefaults{
			Version:           "1.33",
			PublicAccessCidrs: []string{"203.0.113.0/24"},
			Addons:            map[string]bool{"metrics_server": false, "aws_ebs_csi_driver": true},
			NodeGroups: []fleetcluster.NodeGroup{{Name: "system", InstanceTypes: []string{"m6i.large"},
				MinSize: 1, DesiredSize: 2, MaxSize: 3}},
			Tags: map[string]string{"team": "platform"},
		},
		Repositories: Repositories{Addons: &gitopsbridge.Repo{URL: templateRepo, Path: "bootstrap/control-plane/addons"}},
	}
}
