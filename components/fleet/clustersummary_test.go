package fleet_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

// TestClusterSummaries: each cluster's entry of the clusters output carries what fleet status shows of it without a
// second source: its node groups as built, its enabled add-ons (implied ones too) with their versions, roles and
// namespaces, its shard, and its wave, which its cluster secret's label carries; the hub's add-ons its stack installs
// (argocd.stackAddons) say so (throughStack), no other.
func TestClusterSummaries(t *testing.T) {
	args := DevFleet()
	args.Clusters[1].AddonVersions = map[string]string{"aws_load_balancer_controller": "2.8.0"}
	args.Clusters[2].NodeGroups = []fleetcluster.NodeGroup{{Name: "spot", InstanceTypes: []string{"m6i.large", "m7i.large"},
		MinSize: 0, DesiredSize: 1, MaxSize: 5, CapacityType: "SPOT"}}
	args.Clusters[1].Environment = "staging"
	args.Clusters[2].Wave = new(5)
	args.Argocd = &gitopsbridge.Hub{StackAddons: []string{"metrics_server", "aws_ebs_csi_driver"}}
	_, f := build(t, args)
	got := mocks.Await[map[string]ClusterSummary](t, f.Clusters)
	system := []NodeGroupSummary{{Name: "system", InstanceTypes: []string{"m6i.large"}, MinSize: 1, DesiredSize: 2, MaxSize: 3,
		CapacityType: "ON_DEMAND"}}
	for _, tc := range []struct {
		cluster    string
		nodeGroups []NodeGroupSummary
		addons     []string
		versions   map[string]string
		wave       int
	}{
		{"hub", system, []string{"aws_ebs_csi_driver", "aws_ebs_csi_resources", "metrics_server"},
			map[string]string{"aws_ebs_csi_driver": "", "metrics_server": ""}, 0},
		{"spoke-a", system, []string{"aws_ebs_csi_driver", "aws_ebs_csi_resources", "aws_load_balancer_controller"},
			map[string]string{"aws_load_balancer_controller": "2.8.0"}, 2}, // environment staging
		{"spoke-b", []NodeGroupSummary{{Name: "spot", InstanceTypes: []string{"m6i.large", "m7i.large"}, MaxSize: 5,
			DesiredSize: 1, CapacityType: "SPOT"}}, []string{"aws_ebs_csi_driver", "aws_ebs_csi_resources"}, nil, 5},
	} {
		t.Run(tc.cluster, func(t *testing.T) {
			s := got[tc.cluster]
			if s.Wave != tc.wave || s.Labels["fleet_wave"] != strconv.Itoa(tc.wave) {
				t.Errorf("wave %d, label fleet_wave %q: want %d on both", s.Wave, s.Labels["fleet_wave"], tc.wave)
			}
			if diff := cmp.Diff(tc.nodeGroups, s.NodeGroups); diff != "" {
				t.Errorf("nodeGroups (-want +got):\n%s", diff)
			}
			var names []string
			for name := range s.Addons {
				names = append(names, name)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.addons) {
				t.Errorf("addons %v, want %v (the enabled ones and those they imply)", names, tc.addons)
			}
			for name, v := range tc.versions {
				if s.Addons[name].Version != v {
					t.Errorf("addons[%s].version = %q, want %q", name, s.Addons[name].Version, v)
				}
			}
			csi := s.Addons["aws_ebs_csi_driver"]
			if !strings.Contains(csi.IamRoleArn, ":role/") || csi.Namespace != "kube-system" {
				t.Errorf("aws_ebs_csi_driver = %+v, want its role and namespace from the cluster's metadata", csi)
			}
			for name, a := range s.Addons {
				// The hub's stack add-ons and the storage classes' aws_ebs_csi_resources, which the EBS CSI driver implies.
				if want := tc.cluster == "hub" && name != "aws_load_balancer_controller"; a.ThroughStack != want {
					t.Errorf("addons[%s].throughStack = %v, want %v", name, a.ThroughStack, want)
				}
			}
			if r := s.Addons["aws_ebs_csi_resources"]; r != (AddonSummary{ThroughStack: r.ThroughStack}) || s.Shard != "" {
				t.Errorf("an add-on without identity = %+v, shard %q: want both empty", s.Addons["aws_ebs_csi_resources"], s.Shard)
			}
		})
	}
}
