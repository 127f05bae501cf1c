package fleetcluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRegionCode(t *testing.T) {
	cases := map[string]struct {
		reason string
		region string
		want   string
	}{
		"us east":      {reason: "the common case", region: "us-east-1", want: "use1"},
		"us west":      {reason: "another direction", region: "us-west-2", want: "usw2"},
		"compound":     {reason: "two-part directions", region: "ap-southeast-2", want: "apse2"},
		"central":      {reason: "central is c", region: "eu-central-1", want: "euc1"},
		"govcloud":     {reason: "gov keeps its word", region: "us-gov-west-1", want: "usgovw1"},
		"unknown word": {reason: "unknown words stay whole so codes stay unique", region: "xx-middle-1", want: "xxmiddle1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := RegionCode(tc.region); got != tc.want {
				t.Errorf("%s: RegionCode(%q) = %q, want %q", tc.reason, tc.region, got, tc.want)
			}
		})
	}
}

func TestRoleNamesAreDistinctPerRegion(t *testing.T) {
	seen := map[string]string{}
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-central-1",
		"ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "sa-east-1", "ca-central-1", "us-gov-west-1"} {
		n := roleName("apps", region, nodeRolePurpose)
		if other, dup := seen[n]; dup {
			t.Errorf("%s and %s both give role name %s", other, region, n)
		}
		seen[n] = region
	}
}

func TestSubnetTags(t *testing.T) {
	cases := map[string]struct {
		public bool
		want   map[string]string
	}{
		"public":  {public: true, want: map[string]string{"kubernetes.io/role/elb": "1", "kubernetes.io/cluster/blue": "shared"}},
		"private": {public: false, want: map[string]string{"kubernetes.io/role/internal-elb": "1", "kubernetes.io/cluster/blue": "shared"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SubnetTags("blue", tc.public)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRootDeviceName(t *testing.T) {
	cases := map[string]string{
		"AL2023_x86_64_STANDARD": "/dev/xvda", "AL2023_ARM_64_STANDARD": "/dev/xvda",
		"BOTTLEROCKET_x86_64": "/dev/xvdb", "BOTTLEROCKET_ARM_64_NVIDIA": "/dev/xvdb",
	}
	for ami, want := range cases {
		if got := RootDeviceName(ami); got != want {
			t.Errorf("RootDeviceName(%s) = %s, want %s", ami, got, want)
		}
	}
}

func TestWithDefaults(t *testing.T) {
	got := withDefaults(FleetClusterArgs{Region: "us-east-1", NodeGroups: []NodeGroup{{Name: "apps"}}}, "dev", "staging")
	want := FleetClusterArgs{
		ClusterName: "dev", Region: "us-east-1", Environment: "staging", Version: DefaultVersion,
		VpcCidr: "10.0.0.0/16", AvailabilityZoneCount: 3, NatGatewayStrategy: "Single",
		EndpointPublicAccess:   ptr(false),
		EnabledClusterLogTypes: ClusterLogTypes, SecretsEncryption: ptr(true),
		AuthenticationMode: "API_AND_CONFIG_MAP", Identity: IdentityPodIdentity,
		NodeGroups: []NodeGroup{{Name: "apps", CapacityType: "ON_DEMAND", DiskSize: 50, AmiType: "AL2023_x86_64_STANDARD",
			MaxUnavailablePercentage: 33}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if got := withDefaults(FleetClusterArgs{Region: "us-east-1"}, "dev", "test").NodeGroups; !cmp.Equal(got[0].Name, DefaultNodeGroup().Name) {
		t.Errorf("default node group = %+v", got)
	}
}
