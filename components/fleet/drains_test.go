package fleet_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// TestEveryClusterHasADrainThatGoesFirst: each cluster's ClusterDrain depends on the cluster's FleetCluster
// and GitOpsBridge children (its EKS cluster, node groups, add-on roles, VPC, secret), so the engine deletes
// them only after the drain; every spoke's depends on the hub's too, so a destroy (which deletes a resource before
// what it depends on) drains the hub last.
func TestEveryClusterHasADrainThatGoesFirst(t *testing.T) {
	args := DevFleet()
	args.Defaults.Drain = &drain.DrainOptions{Timeout: "30m"}
	args.Clusters[1].Drain = &drain.DrainOptions{Force: true, Keep: []string{"persistentVolumeClaims"}}
	cloud, _ := build(t, args)
	for _, name := range []string{"hub", "spoke-a", "spoke-b"} {
		d := cloud.MustGet(t, drain.TypeToken, name+"-drain")
		if !strings.Contains(d.Provider, "pulumi:providers:fleet::fleet-ledger::") {
			t.Errorf("%s's drain is served by %s, want the ledger's provider", name, d.Provider)
		}
		for _, dep := range [][2]string{
			{"kubernetes:core/v1:Secret", name + "-cluster-secret"},
			{"eks:index:Cluster", name + "-cluster"},
			{"aws:eks/nodeGroup:NodeGroup", name + "-ng-system"},
			{"aws:eks/addon:Addon", name + "-coredns"},
			{"aws:iam/role:Role", name + "-irsa-aws-ebs-csi-driver"},
			{"awsx:ec2:Vpc", name + "-vpc"},
		} {
			if !dependsOn(d, dep[0], dep[1]) {
				t.Errorf("%s's drain does not depend on %s: %v", name, dep, d.Dependencies)
			}
		}
		if got := d.Input("clusterName"); got == "" || got == nil {
			t.Errorf("%s's drain has no clusterName", name)
		}
	}
	for _, spoke := range []string{"spoke-a", "spoke-b"} {
		if !dependsOn(cloud.MustGet(t, drain.TypeToken, spoke+"-drain"), drain.TypeToken, "hub-drain") {
			t.Errorf("%s's drain does not depend on the hub's: a destroy would drain the hub first", spoke)
		}
	}
	a := cloud.MustGet(t, drain.TypeToken, "spoke-a-drain")
	if got := a.InputsLike(map[string]any{"timeout": nil, "force": nil, "keep": nil, "region": nil}); got["timeout"] != "30m" ||
		got["force"] != true || got["region"] != "us-east-2" {
		t.Errorf("spoke-a's drain inputs %v: want its own force and keep over the defaults' timeout", got)
	}
}

func TestDrainOptionsAreChecked(t *testing.T) {
	args := DevFleet()
	args.Defaults.Drain = &drain.DrainOptions{Timeout: "soon"}
	args.Clusters[2].Drain = &drain.DrainOptions{Timeout: "5s", Keep: []string{"pods"}}
	err := Check(args, "test")
	for _, want := range []string{`defaults.drain.timeout: "soon"`, `clusters[2].drain.timeout: "5s"`,
		`clusters[2].drain.keep[0]: "pods" is not a kind`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v, want %q", err, want)
		}
	}
}

// dependsOn tells whether r depends on the resource typ name (URNs end in "<type>::<name>", the type after its
// parents' types).
func dependsOn(r mocks.Resource, typ, name string) bool {
	return slices.ContainsFunc(r.Dependencies, func(urn string) bool {
		return strings.HasSuffix(urn, "::"+typ+"::"+name) || strings.HasSuffix(urn, "$"+typ+"::"+name)
	})
}
