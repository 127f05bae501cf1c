package fleet

import (
	"errors"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

func TestValidateAcceptsTheDevFleet(t *testing.T) {
	if err := Check(DevFleet(), "dev"); err != nil {
		t.Fatal(err)
	}
}

func TestValidateReportsEveryProblemAtItsField(t *testing.T) {
	cases := map[string]struct {
		edit  func(*FleetArgs)
		field string
		want  string
	}{
		"no clusters":      {func(a *FleetArgs) { a.Clusters = nil }, "clusters", "at least one"},
		"a second hub":     {func(a *FleetArgs) { a.Clusters[2].Role = Hub }, "clusters[2].role", "a second hub"},
		"an unknown role":  {func(a *FleetArgs) { a.Clusters[1].Role = "edge" }, "clusters[1].role", `want "hub" or "spoke"`},
		"no hub":           {func(a *FleetArgs) { a.Clusters[0].Role = Spoke }, "clusters[1].role", "no hub"},
		"a duplicate name": {func(a *FleetArgs) { a.Clusters[2].Name = "spoke-a" }, "clusters[2].name", "also the name of clusters[1]"},
		"a name that is no label": {
			func(a *FleetArgs) { a.Clusters[1].Name = "Spoke_A" }, "clusters[1].name", "DNS-1123"},
		"overlapping CIDRs": {
			func(a *FleetArgs) { a.Clusters[2].VpcCidr = "10.20.128.0/17" }, "clusters[2].vpcCidr", "overlaps clusters[1].vpcCidr"},
		"a FleetCluster rule, at the cluster's path": {
			func(a *FleetArgs) {
				ng := a.Defaults.NodeGroups[0]
				ng.MaxSize = 0
				a.Clusters[1].NodeGroups = []fleetcluster.NodeGroup{ng}
			}, "clusters[1].nodeGroups[0]", "maxSize >= 1"},
		"a malformed vpcCidr": {func(a *FleetArgs) { a.Clusters[1].VpcCidr = "10.20.0.1/16" }, "clusters[1].vpcCidr", "10.20.0.0/16"},
		"a default add-on version no policy covers, at each cluster": {
			func(a *FleetArgs) { a.Defaults.AddonVersions = map[string]string{"karpenter": "1.0.0"} },
			`clusters[2].addonVersions["karpenter"]`, "supported: >=0.34.0"},
		"a hub's wave":      {func(a *FleetArgs) { a.Clusters[0].Wave = new(2) }, "clusters[0].wave", "the hub is wave 0"},
		"a spoke in wave 0": {func(a *FleetArgs) { a.Clusters[2].Wave = new(0) }, "clusters[2].wave", "1 or more"},
		"an identity mode":  {func(a *FleetArgs) { a.Clusters[1].Identity = "oidc" }, "clusters[1].identity", "podIdentity, irsa"},
		"an unknown add-on": {func(a *FleetArgs) { a.Defaults.Addons["argo_rollouts_x"] = true }, "clusters[0].addons", ""},
		"no add-on repository": {
			func(a *FleetArgs) { a.Repositories.Addons = nil }, "repositories.addons", "required"},
		"a repository with credentials": {
			func(a *FleetArgs) {
				a.Repositories.Addons = &gitopsbridge.Repo{URL: "https://me:tok@github.com/acme/addons", Path: "addons"}
			}, "repositories.addons.url", "credential"},
		"a bad assume role": {
			func(a *FleetArgs) { a.Clusters[2].AssumeRoleArn = "deployer" }, "clusters[2].assumeRoleArn", "not an IAM role ARN"},
		"some clusters in other accounts": {
			func(a *FleetArgs) { a.Clusters[2].AssumeRoleArn = "arn:aws:iam::210987654321:role/deployer" },
			"argocd.spokeAccountIds", "every account"},
		"a pool too small": {
			func(a *FleetArgs) { a.CidrPool = "10.0.0.0/16" }, "clusters[2].vpcCidr", "no free /16"},
		"a bad pool": {func(a *FleetArgs) { a.CidrPool = "10.0.0.1/8" }, "cidrPool", "host bits"},
		"a bad prefix length": {
			func(a *FleetArgs) { a.CidrPrefixLength = 28 }, "cidrPrefixLength", "16 to 24"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := DevFleet()
			tc.edit(&a)
			err := Check(a, "dev")
			var pe *problems.Error
			if !errors.As(err, &pe) {
				t.Fatalf("want a *problems.Error, got %v", err)
			}
			for _, p := range pe.Problems {
				if strings.HasPrefix(p.Field, tc.field) && strings.Contains(p.Message, tc.want) {
					return
				}
			}
			t.Errorf("no problem at %s containing %q in:\n%v", tc.field, tc.want, err)
		})
	}
}

func TestValidateReportsAllAtOnce(t *testing.T) {
	a := DevFleet()
	a.Clusters[1].Role = "edge"
	a.Clusters[2].VpcCidr = "10.20.0.0/16"
	a.Repositories.Addons = nil
	var pe *problems.Error
	if !errors.As(Check(a, "dev"), &pe) || len(pe.Problems) < 3 {
		t.Fatalf("want at least three problems (role, overlap, repository), got %v", pe)
	}
}

func TestWithDefaults(t *testing.T) {
	a := withDefaults(DevFleet(), "dev")
	hub, spokeB := a.Clusters[0], a.Clusters[2]
	if hub.Version != "1.33" || spokeB.Version != "1.32" {
		t.Errorf("versions: hub %q (want the default 1.33), spoke-b %q (want its own 1.32)", hub.Version, spokeB.Version)
	}
	if !hub.Addons["metrics_server"] || !hub.Addons["aws_ebs_csi_driver"] || spokeB.Addons["metrics_server"] {
		t.Errorf("add-ons: the cluster's entry wins over the default: hub %v, spoke-b %v", hub.Addons, spokeB.Addons)
	}
	if hub.Environment != "dev" || len(spokeB.NodeGroups) != 1 || spokeB.Tags["team"] != "platform" ||
		len(spokeB.PublicAccessCidrs) != 1 {
		t.Errorf("inherited settings missing: %+v", spokeB)
	}
	d := DevFleet()
	d.Defaults.AddonVersions, d.Defaults.Identity = map[string]string{"karpenter": "0.37.0", "velero": "1.13.0"}, fleetcluster.IdentityIRSA
	d.Clusters[2].AddonVersions, d.Clusters[2].Identity = map[string]string{"karpenter": "1.14.0"}, fleetcluster.IdentityPodIdentity
	v := withDefaults(d, "dev")
	if got := v.Clusters[2]; got.AddonVersions["karpenter"] != "1.14.0" || got.AddonVersions["velero"] != "1.13.0" ||
		got.Identity != fleetcluster.IdentityPodIdentity {
		t.Errorf("the cluster's versions and identity win over the defaults, the rest inherited: %v %q", got.AddonVersions, got.Identity)
	}
	if got := v.Clusters[1]; got.AddonVersions["karpenter"] != "0.37.0" || got.Identity != fleetcluster.IdentityIRSA {
		t.Errorf("defaults inherited: %v %q", got.AddonVersions, got.Identity)
	}
	if a.CidrPool != DefaultCidrPool || a.CidrPrefixLength != DefaultCidrPrefixLength {
		t.Errorf("pool defaults: %s /%d", a.CidrPool, a.CidrPrefixLength)
	}
	// Empty lists are unset: a Go program passing a config-decoded struct (pulumi.ToOutput, as examples/fleet does)
	// sends every unset list as an empty one.
	e := DevFleet()
	e.Clusters[2].PublicAccessCidrs, e.Clusters[2].NodeGroups = []string{}, []fleetcluster.NodeGroup{}
	if got := withDefaults(e, "dev").Clusters[2]; len(got.PublicAccessCidrs) != 1 || len(got.NodeGroups) != 1 {
		t.Errorf("empty lists did not take the defaults: %v, %v", got.PublicAccessCidrs, got.NodeGroups)
	}
}

// TestNodeSessionManagerDefaults: a cluster's nodeSessionManager wins over defaults.nodeSessionManager, which wins
// over off; FleetCluster gets the result.
func TestNodeSessionManagerDefaults(t *testing.T) {
	yes, no := true, false
	for name, tc := range map[string]struct {
		dflt, own *bool
		want      bool
	}{
		"unset":                 {want: false},
		"on by default":         {dflt: &yes, want: true},
		"off for this cluster":  {dflt: &yes, own: &no, want: false},
		"on for this cluster":   {own: &yes, want: true},
		"off by default, again": {dflt: &no, want: false},
	} {
		t.Run(name, func(t *testing.T) {
			d := DevFleet()
			d.Defaults.NodeSessionManager, d.Clusters[1].NodeSessionManager = tc.dflt, tc.own
			c := resolve(d, "dev").clusters[1]
			if got := clusterArgs(c, "10.20.0.0/16", nil).NodeSessionManager; got != tc.want {
				t.Errorf("FleetCluster nodeSessionManager %v, want %v", got, tc.want)
			}
		})
	}
}
