package fleetcluster

import (
	"slices"
	"strings"
	"testing"

	awsemulator "github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var componentURN = func(name string) string { return mocks.URN("", TypeToken, name) }

func TestChildrenAndTheirRegion(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-2",
		Addons: map[string]bool{"external_dns": true, "metrics_server": true}, AddonSettings: dnsSettings})

	type child struct{ Type, Name, Region string }
	var got []child
	for _, r := range cloud.Resources() {
		if r.Type == TypeToken {
			continue
		}
		if r.Parent != componentURN("dev") {
			t.Errorf("%s %s has parent %q, want the component", r.Type, r.Name, r.Parent)
		}
		got = append(got, child{r.Type, r.Name, r.Region})
	}
	want := []child{
		{"pulumi:providers:aws", "dev-aws", "us-east-2"},
		{"awsx:ec2:Vpc", "dev-vpc", "us-east-2"},
		{"aws:iam/role:Role", "dev-node-role", "us-east-2"},
		{"aws:iam/rolePolicyAttachment:RolePolicyAttachment", "dev-node-role-AmazonEKSWorkerNodePolicy", "us-east-2"},
		{"aws:iam/rolePolicyAttachment:RolePolicyAttachment", "dev-node-role-AmazonEKS_CNI_Policy", "us-east-2"},
		{"aws:iam/rolePolicyAttachment:RolePolicyAttachment", "dev-node-role-AmazonEC2ContainerRegistryPullOnly", "us-east-2"},
		{"aws:kms/key:Key", "dev-secrets-key", "us-east-2"},
		{"aws:kms/keyPolicy:KeyPolicy", "dev-secrets-key", "us-east-2"},
		{"eks:index:Cluster", "dev-cluster", "us-east-2"},
		{"aws:eks/addon:Addon", "dev-vpc-cni", "us-east-2"},
		{"aws:ec2/launchTemplate:LaunchTemplate", "dev-ng-system", "us-east-2"},
		{"aws:eks/nodeGroup:NodeGroup", "dev-ng-system", "us-east-2"},
		{"aws:eks/addon:Addon", "dev-coredns", "us-east-2"},
		{"aws:eks/addon:Addon", "dev-kube-proxy", "us-east-2"},
		{"aws:eks/addon:Addon", "dev-eks-pod-identity-agent", "us-east-2"},
		{"aws:iam/openIdConnectProvider:OpenIdConnectProvider", "dev-oidc", "us-east-2"},
		{"aws:iam/role:Role", "dev-irsa-external-dns", "us-east-2"},
		{"aws:iam/rolePolicy:RolePolicy", "dev-irsa-external-dns", "us-east-2"},
	}
	// Registration is concurrent: compare as sets.
	sortChildren := cmp.Transformer("sort", func(in []child) []child {
		out := slices.Clone(in)
		slices.SortFunc(out, func(a, b child) int { return strings.Compare(a.Type+a.Name, b.Type+b.Name) })
		return out
	})
	if diff := cmp.Diff(want, got, sortChildren); diff != "" {
		t.Errorf("children (-want +got):\n%s", diff)
	}
}

func TestSecurityDefaults(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1"})
	cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
	got := map[string]any{}
	for _, k := range []string{"name", "version", "endpointPrivateAccess", "endpointPublicAccess", "publicAccessCidrs",
		"enabledClusterLogTypes", "createOidcProvider", "skipDefaultNodeGroup", "useDefaultVpcCni",
		"authenticationMode", "nodeAssociatePublicIpAddress", "vpcId", "privateSubnetIds"} {
		got[k] = cl.Input(k)
	}
	want := map[string]any{
		"name": "dev", "version": DefaultVersion,
		"endpointPrivateAccess": true, "endpointPublicAccess": false, "publicAccessCidrs": nil,
		"enabledClusterLogTypes": []any{"api", "audit", "authenticator", "controllerManager", "scheduler"},
		"createOidcProvider":     false, "skipDefaultNodeGroup": true, "useDefaultVpcCni": true,
		"authenticationMode": "API_AND_CONFIG_MAP", "nodeAssociatePublicIpAddress": false,
		"vpcId":            "vpc-dev-vpc",
		"privateSubnetIds": []any{"subnet-dev-vpc-private-1", "subnet-dev-vpc-private-2", "subnet-dev-vpc-private-3"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cluster inputs; private endpoint only, as no public CIDRs are named (-want +got):\n%s", diff)
	}

	key := cloud.MustGet(t, "aws:kms/key:Key", "dev-secrets-key")
	if key.Input("enableKeyRotation") != true {
		t.Error("the secrets key must rotate")
	}
	if got, want := cl.Input("encryptionConfigKeyArn"), "arn:aws:kms:us-east-1:"+mocks.Account+":key/dev-secrets-key-id"; got != want {
		t.Errorf("encryptionConfigKeyArn = %v, want %v", got, want)
	}

	lt := cloud.MustGet(t, "aws:ec2/launchTemplate:LaunchTemplate", "dev-ng-system")
	wantMeta := map[string]any{"httpEndpoint": "enabled", "httpTokens": "required", "httpPutResponseHopLimit": float64(1)}
	if diff := cmp.Diff(wantMeta, lt.Input("metadataOptions")); diff != "" {
		t.Errorf("IMDSv2 only, one hop so pods cannot reach the node role (-want +got):\n%s", diff)
	}
	ebs := lt.Input("blockDeviceMappings").([]any)[0].(map[string]any)
	if diff := cmp.Diff(map[string]any{"deviceName": "/dev/xvda", "ebs": map[string]any{
		"volumeSize": float64(50), "volumeType": "gp3", "encrypted": "true", "deleteOnTermination": "true",
	}}, ebs); diff != "" {
		t.Errorf("root volume (-want +got):\n%s", diff)
	}
}

func TestPublicEndpointOnlyForNamedCidrs(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", PublicAccessCidrs: []string{"203.0.113.0/24"}})
	cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
	if cl.Input("endpointPublicAccess") != true || !cmp.Equal(cl.Input("publicAccessCidrs"), []any{"203.0.113.0/24"}) {
		t.Errorf("named CIDRs turn the public endpoint on for them only: %v %v", cl.Input("endpointPublicAccess"), cl.Input("publicAccessCidrs"))
	}
}

// TestHubEgressReachesTheEndpoint: the hub's NAT addresses join the public access CIDRs and open the endpoint
// for them; an empty list (a hub in an existing VPC) must not open it to EKS's default 0.0.0.0/0.
func TestHubEgressReachesTheEndpoint(t *testing.T) {
	off := false
	cases := map[string]struct {
		given      []string
		hub        []string
		explicit   *bool
		wantPublic bool
		wantCidrs  any
	}{
		"hub only":       {hub: []string{"198.51.100.10/32"}, wantPublic: true, wantCidrs: []any{"198.51.100.10/32"}},
		"given and hub":  {given: []string{"203.0.113.0/24"}, hub: []string{"198.51.100.10/32", "203.0.113.0/24"}, wantPublic: true, wantCidrs: []any{"203.0.113.0/24", "198.51.100.10/32"}},
		"empty hub list": {hub: []string{}, wantPublic: false, wantCidrs: nil},
		"turned off":     {hub: []string{"198.51.100.10/32"}, explicit: &off, wantPublic: false, wantCidrs: nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", PublicAccessCidrs: tc.given,
				EndpointPublicAccess: tc.explicit, GitOpsAccess: &GitOpsAccess{
					HubRoleArn: pulumi.String("arn:aws:iam::" + mocks.Account + ":role/hub"), HubEgressCidrs: pulumi.ToStringArray(tc.hub)}})
			cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
			if cl.Input("endpointPublicAccess") != tc.wantPublic || !cmp.Equal(cl.Input("publicAccessCidrs"), tc.wantCidrs) {
				t.Errorf("public endpoint %v for %v, want %v for %v", cl.Input("endpointPublicAccess"),
					cl.Input("publicAccessCidrs"), tc.wantPublic, tc.wantCidrs)
			}
		})
	}
}

func TestSecretsKeyPolicy(t *testing.T) {
	cases := map[string]struct {
		reason string
		admins []string
		want   string
	}{
		"deployer by default": {reason: "the principal that deploys administers the key, and nobody else",
			want: `"arn:aws:iam::` + mocks.Account + `:user/ci"`},
		"named administrators": {reason: "administrators given replace the deployer",
			admins: []string{"arn:aws:iam::" + mocks.Account + ":role/platform-admin"},
			want:   `["arn:aws:iam::` + mocks.Account + `:role/platform-admin"]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", SecretsKeyAdministratorArns: tc.admins})
			kp := cloud.MustGet(t, "aws:kms/keyPolicy:KeyPolicy", "dev-secrets-key")
			if kp.Input("keyId") != "dev-secrets-key-id" {
				t.Errorf("policy of key %v", kp.Input("keyId"))
			}
			admins := tc.want
			if !strings.HasPrefix(admins, "[") {
				admins = "[" + admins + "]"
			}
			want := `{"Version":"2012-10-17","Statement":[{"Sid":"KeyAdministrators","Effect":"Allow","Principal":{"AWS":` + admins + `},` +
				`"Action":["kms:Create*","kms:Describe*","kms:Enable*","kms:List*","kms:Put*","kms:Update*","kms:Revoke*",` +
				`"kms:Disable*","kms:Get*","kms:Delete*","kms:TagResource","kms:UntagResource","kms:ScheduleKeyDeletion",` +
				`"kms:CancelKeyDeletion","kms:RotateKeyOnDemand"],"Resource":["*"]},` +
				`{"Sid":"ClusterUse","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::` + mocks.Account + `:role/dev-cluster-eksRole"},` +
				`"Action":["kms:Encrypt","kms:Decrypt","kms:ListGrants","kms:DescribeKey"],"Resource":["*"]}]}`
			if got := kp.Input("policy"); got != want {
				t.Errorf("%s; no statement delegates to the account root:\n got %s\nwant %s", tc.reason, got, want)
			}
		})
	}
}

func TestSecretsEncryptionCanBeTurnedOff(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", SecretsEncryption: ptr(false),
		EndpointPublicAccess: ptr(false), EnabledClusterLogTypes: []string{}})
	if len(cloud.OfType("aws:kms/key:Key")) != 0 {
		t.Error("a KMS key was created with secretsEncryption false")
	}
	cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
	if v := cl.Input("encryptionConfigKeyArn"); v != nil {
		t.Errorf("encryptionConfigKeyArn = %v, want none", v)
	}
	if cl.Input("endpointPublicAccess") != false || cl.Input("publicAccessCidrs") != nil {
		t.Errorf("public endpoint: %v %v, want off with no CIDRs", cl.Input("endpointPublicAccess"), cl.Input("publicAccessCidrs"))
	}
}

func TestNodeGroups(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", NodeGroups: []NodeGroup{
		{Name: "apps", InstanceTypes: []string{"m7g.large", "m6g.large"}, MinSize: 1, DesiredSize: 2, MaxSize: 5,
			CapacityType: "SPOT", AmiType: "BOTTLEROCKET_ARM_64", DiskSize: 80,
			Labels: map[string]string{"pool": "apps"},
			Taints: []Taint{{Key: "dedicated", Value: "apps", Effect: "NO_SCHEDULE"}}},
	}})
	if _, ok := cloud.Named("aws:eks/nodeGroup:NodeGroup", "dev-ng-system"); ok {
		t.Error("the default node group was built although node groups were given")
	}
	mng := cloud.MustGet(t, "aws:eks/nodeGroup:NodeGroup", "dev-ng-apps")
	got := map[string]any{}
	for _, k := range []string{"nodeGroupName", "instanceTypes", "capacityType", "amiType", "scalingConfig", "labels",
		"taints", "subnetIds", "launchTemplate", "version", "updateConfig", "clusterName", "nodeRoleArn"} {
		got[k] = mng.Input(k)
	}
	want := map[string]any{
		"nodeGroupName": "apps", "instanceTypes": []any{"m7g.large", "m6g.large"}, "capacityType": "SPOT",
		"amiType":        "BOTTLEROCKET_ARM_64",
		"scalingConfig":  map[string]any{"minSize": float64(1), "desiredSize": float64(2), "maxSize": float64(5)},
		"labels":         map[string]any{"pool": "apps"},
		"taints":         []any{map[string]any{"key": "dedicated", "value": "apps", "effect": "NO_SCHEDULE"}},
		"subnetIds":      []any{"subnet-dev-vpc-private-1", "subnet-dev-vpc-private-2", "subnet-dev-vpc-private-3"},
		"launchTemplate": map[string]any{"id": "dev-ng-apps-id", "version": "1"},
		"version":        DefaultVersion,
		"updateConfig":   map[string]any{"maxUnavailablePercentage": float64(33)},
		"clusterName":    "dev",
		"nodeRoleArn":    "arn:aws:iam::" + mocks.Account + ":role/dev-use1-node",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node group inputs (-want +got):\n%s", diff)
	}
	if _, ok := mng.Inputs["diskSize"]; ok {
		t.Error("diskSize must live in the launch template: EKS rejects it next to one")
	}
	lt := cloud.MustGet(t, "aws:ec2/launchTemplate:LaunchTemplate", "dev-ng-apps")
	ebs := lt.Input("blockDeviceMappings").([]any)[0].(map[string]any)
	if ebs["deviceName"] != "/dev/xvdb" || ebs["ebs"].(map[string]any)["volumeSize"] != float64(80) {
		t.Errorf("Bottlerocket data volume = %v, want /dev/xvdb of 80 GiB", ebs)
	}
}

func TestExistingVpc(t *testing.T) {
	cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", VpcId: pulumi.String("vpc-0abc"),
		PrivateSubnetIds: pulumi.ToStringArray([]string{"subnet-a", "subnet-b"})})
	if n := len(cloud.OfType("awsx:ec2:Vpc")); n != 0 {
		t.Errorf("built %d VPCs with vpcId given", n)
	}
	cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
	if cl.Input("vpcId") != "vpc-0abc" || !cmp.Equal(cl.Input("privateSubnetIds"), []any{"subnet-a", "subnet-b"}) {
		t.Errorf("cluster network = %v %v", cl.Input("vpcId"), cl.Input("privateSubnetIds"))
	}
	if got := mocks.Await[[]string](t, fc.PublicSubnetIds); len(got) != 0 {
		t.Errorf("publicSubnetIds = %v, want none", got)
	}
}

func TestBuiltVpcTagsSubnetsForLoadBalancers(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{ClusterName: "blue", Region: "us-east-1", VpcCidr: "10.8.0.0/16",
		AvailabilityZoneCount: 2, NatGatewayStrategy: "OnePerAz"})
	vpc := cloud.MustGet(t, "awsx:ec2:Vpc", "dev-vpc")
	want := map[string]any{
		"cidrBlock": "10.8.0.0/16", "numberOfAvailabilityZones": float64(2),
		"natGateways": map[string]any{"strategy": "OnePerAz"}, "subnetStrategy": "Auto",
		"subnetSpecs": []any{
			map[string]any{"type": "Public", "tags": map[string]any{"kubernetes.io/role/elb": "1", "kubernetes.io/cluster/blue": "shared"}},
			map[string]any{"type": "Private", "tags": map[string]any{"kubernetes.io/role/internal-elb": "1", "kubernetes.io/cluster/blue": "shared"}},
		},
	}
	got := vpc.InputsLike(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VPC inputs (-want +got):\n%s", diff)
	}
}

func TestTwoRegionsInOneProgramDoNotCollide(t *testing.T) {
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error {
		for _, region := range []string{"us-east-1", "us-west-2"} {
			// Same cluster name in both regions: only the region tells them apart.
			if _, err := NewFleetCluster(ctx, "fleet-"+region, FleetClusterArgs{ClusterName: "apps", Region: region,
				GitOpsAccess: &GitOpsAccess{HubRoleArn: pulumi.String(hubRole)},
				Addons:       map[string]bool{"cert_manager": true}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	urns, roleNames := map[string]bool{}, map[string]bool{}
	for _, r := range cloud.Resources() {
		urn := r.Parent + "/" + r.Type + "::" + r.Name
		if urns[urn] {
			t.Errorf("two resources share %s", urn)
		}
		urns[urn] = true
		if r.Type == "aws:iam/role:Role" {
			name := r.Input("name").(string)
			if roleNames[name] {
				t.Errorf("two IAM roles are named %s (IAM names are global to the account)", name)
			}
			roleNames[name] = true
		}
		if r.Type != TypeToken && r.Region == "" {
			t.Errorf("%s %s went through no regional provider", r.Type, r.Name)
		}
	}
	for _, region := range []string{"us-east-1", "us-west-2"} {
		for _, r := range cloud.Resources() {
			if r.Parent == componentURN("fleet-"+region) && r.Region != region {
				t.Errorf("%s of the %s cluster went to %s", r.Name, region, r.Region)
			}
		}
	}
}

func TestExplicitProviderWins(t *testing.T) {
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error {
		prov, err := aws.NewProvider(ctx, "eu", &aws.ProviderArgs{Region: pulumi.String("eu-west-1")})
		if err != nil {
			return err
		}
		_, err = NewFleetCluster(ctx, "dev", FleetClusterArgs{Region: "eu-west-1"}, pulumi.Providers(prov))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cloud.Named("pulumi:providers:aws", "dev-aws"); ok {
		t.Error("the component created its own provider although one was given")
	}
	for _, r := range cloud.Resources() {
		if r.Parent == componentURN("dev") && r.Region != "eu-west-1" {
			t.Errorf("%s %s went to %q, want the given provider's eu-west-1", r.Type, r.Name, r.Region)
		}
	}
}

// TestUpgradeOrder checks the dependencies that order an upgrade: every managed add-on at the default version
// for the cluster's Kubernetes version, the node agents before the node groups, coredns after them.
func TestUpgradeOrder(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Version: "1.34"})
	group := mocks.URN("fleet:index:FleetCluster", "aws:eks/nodeGroup:NodeGroup", "dev-ng-system")
	ng := cloud.MustGet(t, "aws:eks/nodeGroup:NodeGroup", "dev-ng-system")
	if ng.Input("version") != "1.34" {
		t.Errorf("node group version %v, want the cluster's 1.34", ng.Input("version"))
	}
	for _, addon := range append(slices.Clone(NodeAgentAddons), WorkloadAddons...) {
		a := cloud.MustGet(t, "aws:eks/addon:Addon", "dev-"+addon)
		if want := awsemulator.DefaultAddonVersion(addon, "1.34"); a.Input("addonVersion") != want {
			t.Errorf("%s at %v, want the default for 1.34, %s", addon, a.Input("addonVersion"), want)
		}
		agentURN := mocks.URN("fleet:index:FleetCluster", "aws:eks/addon:Addon", "dev-"+addon)
		switch before := slices.Contains(NodeAgentAddons, addon); {
		case before && !slices.Contains(ng.Dependencies, agentURN):
			t.Errorf("the node group does not wait for %s: %v", addon, ng.Dependencies)
		case !before && !slices.Contains(a.Dependencies, group):
			t.Errorf("%s does not wait for the node group: %v", addon, a.Dependencies)
		}
	}
}
