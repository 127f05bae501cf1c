package fleetcluster

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const hubRole = "arn:aws:iam::210987654321:role/argocd-hub"

// validArgs passes validation; each case below breaks one rule.
func validArgs() FleetClusterArgs {
	return FleetClusterArgs{Region: "us-west-2", Environment: "dev"}
}

func TestValidateRules(t *testing.T) {
	cases := map[string]struct {
		reason string
		mutate func(*FleetClusterArgs)
		field  string
		want   string // substring of the message
	}{
		"cluster name charset": {
			reason: "EKS CreateCluster allows letters, digits, - and _",
			mutate: func(a *FleetClusterArgs) { a.ClusterName = "dev.cluster" },
			field:  "clusterName", want: "letters, digits",
		},
		"cluster name first character": {
			reason: "EKS cluster names start with a letter or digit",
			mutate: func(a *FleetClusterArgs) { a.ClusterName = "-dev" },
			field:  "clusterName", want: "starting with a letter or digit",
		},
		"cluster name length": {
			reason: "EKS cluster names are at most 100 characters",
			mutate: func(a *FleetClusterArgs) { a.ClusterName = strings.Repeat("a", 101) },
			field:  "clusterName", want: "1-100",
		},
		"region format": {
			reason: "regions look like us-east-1",
			mutate: func(a *FleetClusterArgs) { a.Region = "useast1" },
			field:  "region", want: "not an AWS region name",
		},
		"region missing": {
			reason: "region is required",
			mutate: func(a *FleetClusterArgs) { a.Region = "" },
			field:  "region", want: "not an AWS region name",
		},
		"environment label value": {
			reason: "the environment labels the Argo CD cluster secret",
			mutate: func(a *FleetClusterArgs) { a.Environment = "dev env" },
			field:  "environment", want: "label value",
		},
		"version format": {
			reason: "versions are <major>.<minor>",
			mutate: func(a *FleetClusterArgs) { a.Version = "v1.33.2" },
			field:  "version", want: "minor version",
		},
		"cidr syntax": {
			reason: "vpcCidr must parse as a CIDR",
			mutate: func(a *FleetClusterArgs) { a.VpcCidr = "10.0.0.0" },
			field:  "vpcCidr", want: "not a CIDR",
		},
		"cidr ipv6": {
			reason: "the VPC's primary CIDR is IPv4",
			mutate: func(a *FleetClusterArgs) { a.VpcCidr = "fd00::/56" },
			field:  "vpcCidr", want: "not IPv4",
		},
		"cidr host bits": {
			reason: "a CIDR with host bits set is ambiguous",
			mutate: func(a *FleetClusterArgs) { a.VpcCidr = "10.0.1.0/16" },
			field:  "vpcCidr", want: "network address 10.0.0.0/16",
		},
		"cidr too large": {
			reason: "AWS VPCs are at most /16",
			mutate: func(a *FleetClusterArgs) { a.VpcCidr = "10.0.0.0/8" },
			field:  "vpcCidr", want: "/16",
		},
		"cidr too small": {
			reason: "subnets in six zones need at least /24",
			mutate: func(a *FleetClusterArgs) { a.VpcCidr = "10.0.0.0/26" },
			field:  "vpcCidr", want: "/24",
		},
		"zone count": {
			reason: "1-6 zones are asked for, and EKS needs two",
			mutate: func(a *FleetClusterArgs) { a.AvailabilityZoneCount = 7 },
			field:  "availabilityZoneCount", want: "expected 2-6",
		},
		"nat strategy": {
			reason: "private subnets need egress",
			mutate: func(a *FleetClusterArgs) { a.NatGatewayStrategy = "None" },
			field:  "natGatewayStrategy", want: "Single, OnePerAz",
		},
		"existing vpc needs subnets": {
			reason: "an existing VPC comes with its private subnets",
			mutate: func(a *FleetClusterArgs) { a.VpcId = pulumi.String("vpc-1") },
			field:  "privateSubnetIds", want: "required with vpcId",
		},
		"existing vpc excludes cidr": {
			reason: "vpcCidr shapes a VPC the component builds",
			mutate: func(a *FleetClusterArgs) {
				a.VpcId, a.PrivateSubnetIds, a.VpcCidr = pulumi.String("vpc-1"), pulumi.ToStringArray([]string{"subnet-1"}), "10.1.0.0/16"
			},
			field: "vpcId", want: "excludes vpcCidr",
		},
		"subnets need vpc": {
			reason: "subnet IDs without a VPC ID are ambiguous",
			mutate: func(a *FleetClusterArgs) { a.PrivateSubnetIds = pulumi.ToStringArray([]string{"subnet-1"}) },
			field:  "privateSubnetIds", want: "need vpcId",
		},
		"public cidrs syntax": {
			reason: "publicAccessCidrs are IPv4 CIDRs",
			mutate: func(a *FleetClusterArgs) { a.PublicAccessCidrs = []string{"203.0.113.7"} },
			field:  "publicAccessCidrs[0]", want: "CIDR form",
		},
		"public cidrs without public endpoint": {
			reason: "CIDRs restrict a public endpoint that is off",
			mutate: func(a *FleetClusterArgs) {
				a.EndpointPublicAccess, a.PublicAccessCidrs = ptr(false), []string{"203.0.113.0/24"}
			},
			field: "publicAccessCidrs", want: "endpointPublicAccess is false",
		},
		"public endpoint without CIDRs": {
			reason: "a public endpoint names who may reach it; the whole internet only explicitly",
			mutate: func(a *FleetClusterArgs) { a.EndpointPublicAccess = ptr(true) },
			field:  "publicAccessCidrs", want: "required when endpointPublicAccess is true",
		},
		"log types": {
			reason: "EKS knows five log types",
			mutate: func(a *FleetClusterArgs) { a.EnabledClusterLogTypes = []string{"api", "kubelet"} },
			field:  "enabledClusterLogTypes[1]", want: "not one of api",
		},
		"node group name": {
			reason: "EKS node group names are 1-63 characters",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.Name = strings.Repeat("n", 64) })}
			},
			field: "nodeGroups[0].name", want: "1-63",
		},
		"node group duplicate": {
			reason: "node group names are unique within a cluster",
			mutate: func(a *FleetClusterArgs) { a.NodeGroups = []NodeGroup{ng(nil), ng(nil)} },
			field:  "nodeGroups[1].name", want: "already used by nodeGroups[0]",
		},
		"instance types empty": {
			reason: "a node group needs an instance type",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.InstanceTypes = nil })}
			},
			field: "nodeGroups[0].instanceTypes", want: "at least one",
		},
		"instance type format": {
			reason: "instance types are <family>.<size>",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.InstanceTypes = []string{"large"} })}
			},
			field: "nodeGroups[0].instanceTypes[0]", want: "not an EC2 instance type",
		},
		"sizes min above desired": {
			reason: "0 <= min <= desired <= max",
			mutate: func(a *FleetClusterArgs) { a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.MinSize = 3 })} },
			field:  "nodeGroups[0]", want: "minSize <= desiredSize",
		},
		"sizes negative": {
			reason: "sizes are counts",
			mutate: func(a *FleetClusterArgs) { a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.MinSize = -1 })} },
			field:  "nodeGroups[0]", want: "0 <= minSize",
		},
		"sizes max zero": {
			reason: "EKS requires maxSize >= 1",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.MinSize, n.DesiredSize, n.MaxSize = 0, 0, 0 })}
			},
			field: "nodeGroups[0]", want: "maxSize >= 1",
		},
		"capacity type": {
			reason: "ON_DEMAND or SPOT",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.CapacityType = "spot" })}
			},
			field: "nodeGroups[0].capacityType", want: "ON_DEMAND, SPOT",
		},
		"disk size": {
			reason: "root volumes are 20-16384 GiB",
			mutate: func(a *FleetClusterArgs) { a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.DiskSize = 10 })} },
			field:  "nodeGroups[0].diskSize", want: "20-16384",
		},
		"ami type": {
			reason: "AMI types are an EKS enum",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.AmiType = "AL2_x86_64" })}
			},
			field: "nodeGroups[0].amiType", want: "not one of AL2023",
		},
		"node label key": {
			reason: "labels are Kubernetes labels",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.Labels = map[string]string{"bad key": "x"} })}
			},
			field: `nodeGroups[0].labels["bad key"]`, want: "qualified name",
		},
		"taint effect": {
			reason: "EKS spells taint effects NO_SCHEDULE...",
			mutate: func(a *FleetClusterArgs) {
				a.NodeGroups = []NodeGroup{ng(func(n *NodeGroup) { n.Taints = []Taint{{Key: "dedicated", Effect: "NoSchedule"}} })}
			},
			field: "nodeGroups[0].taints[0].effect", want: "NO_SCHEDULE",
		},
		"authentication mode": {
			reason: "three modes exist",
			mutate: func(a *FleetClusterArgs) { a.AuthenticationMode = "IAM" },
			field:  "authenticationMode", want: "API_AND_CONFIG_MAP",
		},
		"mappings need config map": {
			reason: "API mode has no aws-auth ConfigMap",
			mutate: func(a *FleetClusterArgs) {
				a.AuthenticationMode = "API"
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/ops"), Username: "ops"}}
			},
			field: "roleMappings", want: "CONFIG_MAP",
		},
		"access entries need api": {
			reason: "CONFIG_MAP mode has no access entries",
			mutate: func(a *FleetClusterArgs) {
				a.AuthenticationMode = "CONFIG_MAP"
				a.GitOpsAccess = &GitOpsAccess{HubRoleArn: pulumi.String(hubRole)}
			},
			field: "accessEntries", want: "API or API_AND_CONFIG_MAP",
		},
		"role mapping arn": {
			reason: "ARNs are well-formed",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123:role/ops"), Username: "ops"}}
			},
			field: "roleMappings[0].roleArn", want: "12-digit account",
		},
		"user mapping arn kind": {
			reason: "a user mapping names a user",
			mutate: func(a *FleetClusterArgs) {
				a.UserMappings = []UserMapping{{UserArn: pulumi.String("arn:aws:iam::123456789012:role/ops"), Username: "ops"}}
			},
			field: "userMappings[0].userArn", want: ":user/",
		},
		"mapping username": {
			reason: "aws-auth entries map to a user name",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/ops")}}
			},
			field: "roleMappings[0].username", want: "must name",
		},
		"no system masters": {
			reason: "admin goes through audited access entries",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/ops"), Username: "ops",
					Groups: []string{"system:masters"}}}
			},
			field: "roleMappings[0].groups[0]", want: "cluster admin",
		},
		"reserved group prefix": {
			reason: "EKS reserves eks:, aws:, amazon: and iam: as well as system:",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/ops"), Username: "ops",
					Groups: []string{"eks:podsecuritypolicy:authenticated"}}}
			},
			field: "roleMappings[0].groups[0]", want: "eks:",
		},
		"reserved user name": {
			reason: "a user name in system: impersonates the control plane",
			mutate: func(a *FleetClusterArgs) {
				a.UserMappings = []UserMapping{{UserArn: pulumi.String("arn:aws:iam::123456789012:user/ops"), Username: "system:kube-scheduler"}}
			},
			field: "userMappings[0].username", want: "system:",
		},
		"role with a path": {
			reason: "aws-auth matches role ARNs without their path",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/teams/ops"), Username: "ops"}}
			},
			field: "roleMappings[0].roleArn", want: "role/ops",
		},
		"node role mapping": {
			reason: "the node role's entry is FleetCluster's own",
			mutate: func(a *FleetClusterArgs) {
				a.RoleMappings = []RoleMapping{{RoleArn: pulumi.String("arn:aws:iam::123456789012:role/dev-usw2-node"), Username: "ops"}}
			},
			field: "roleMappings[0].roleArn", want: "node role",
		},
		"reserved access entry group": {
			reason: "EKS rejects access entry groups in amazon:",
			mutate: func(a *FleetClusterArgs) {
				a.AccessEntries = []AccessEntry{{Name: "ops", PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/ops"),
					KubernetesGroups: []string{"amazon:ops"}}}
			},
			field: "accessEntries[0].kubernetesGroups[0]", want: "amazon:",
		},
		"access entry principal": {
			reason: "access entries name an IAM role or user",
			mutate: func(a *FleetClusterArgs) {
				a.AccessEntries = []AccessEntry{{Name: "ops", PrincipalArn: pulumi.String("arn:aws:s3:::bucket")}}
			},
			field: "accessEntries[0].principalArn", want: "not a valid ARN",
		},
		"access entry missing principal": {
			reason: "principalArn is required",
			mutate: func(a *FleetClusterArgs) { a.AccessEntries = []AccessEntry{{Name: "ops"}} },
			field:  "accessEntries[0].principalArn", want: "is required",
		},
		"access policy arn": {
			reason: "access policies are EKS cluster-access-policy ARNs",
			mutate: func(a *FleetClusterArgs) {
				a.AccessEntries = []AccessEntry{{Name: "ops", PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/ops"),
					AccessPolicies: []AccessPolicy{{PolicyArn: "arn:aws:iam::aws:policy/AdministratorAccess"}}}}
			},
			field: "accessEntries[0].accessPolicies[0].policyArn", want: "cluster-access-policy",
		},
		"access scope namespace": {
			reason: "namespaces are DNS-1123 labels",
			mutate: func(a *FleetClusterArgs) {
				a.AccessEntries = []AccessEntry{{Name: "ops", PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/ops"),
					AccessPolicies: []AccessPolicy{{PolicyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy",
						Namespaces: []string{"Team_A"}}}}}
			},
			field: "accessEntries[0].accessPolicies[0].namespaces[0]", want: "namespace name",
		},
		"access entry reserved group": {
			reason: "EKS rejects system: groups in access entries",
			mutate: func(a *FleetClusterArgs) {
				a.AccessEntries = []AccessEntry{{Name: "ops", PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/ops"),
					KubernetesGroups: []string{"system:masters"}}}
			},
			field: "accessEntries[0].kubernetesGroups[0]", want: "reserved",
		},
		"access entry reserved name": {
			reason: "gitopsAccess owns the gitops-spoke entry",
			mutate: func(a *FleetClusterArgs) {
				a.GitOpsAccess = &GitOpsAccess{HubRoleArn: pulumi.String(hubRole)}
				a.AccessEntries = []AccessEntry{{Name: SpokeAccessEntryName, PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/ops")}}
			},
			field: "accessEntries[0].name", want: "reserved",
		},
		"hub role arn": {
			reason: "the hub is an IAM role",
			mutate: func(a *FleetClusterArgs) {
				a.GitOpsAccess = &GitOpsAccess{HubRoleArn: pulumi.String("arn:aws:iam::210987654321:user/argocd")}
			},
			field: "gitopsAccess.hubRoleArn", want: ":role/",
		},
		"unknown addon": {
			reason: "typos must not silently disable an add-on",
			mutate: func(a *FleetClusterArgs) { a.Addons = map[string]bool{"aws_lb_controller": true} },
			field:  `addons["aws_lb_controller"]`, want: "aws_load_balancer_controller",
		},
		"tag key prefix": {
			reason: "aws: tags are reserved",
			mutate: func(a *FleetClusterArgs) { a.Tags = map[string]string{"aws:team": "x"} },
			field:  `tags["aws:team"]`, want: "reserved",
		},
		"tag value length": {
			reason: "tag values are at most 256 characters",
			mutate: func(a *FleetClusterArgs) { a.Tags = map[string]string{"team": strings.Repeat("x", 257)} },
			field:  `tags["team"]`, want: "at most 256",
		},
		"tag count": {
			reason: "at most 50 tags per resource",
			mutate: func(a *FleetClusterArgs) {
				a.Tags = map[string]string{}
				for i := range 51 {
					a.Tags[strings.Repeat("k", i+1)] = "v"
				}
			},
			field: "tags", want: "at most 50",
		},
		"derived role name length": {
			reason: "IAM role names are at most 64 characters",
			mutate: func(a *FleetClusterArgs) {
				a.ClusterName = strings.Repeat("c", 40)
				a.Addons = map[string]bool{"aws_load_balancer_controller": true}
			},
			field: "clusterName", want: "IAM allows 64",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := validArgs()
			tc.mutate(&args)
			expectProblem(t, args, tc.field, tc.want, tc.reason)
		})
	}
}

// ng is a valid node group, changed by mutate.
func ng(mutate func(*NodeGroup)) NodeGroup {
	n := NodeGroup{Name: "apps", InstanceTypes: []string{"m6i.large"}, MinSize: 1, DesiredSize: 2, MaxSize: 3}
	if mutate != nil {
		mutate(&n)
	}
	return n
}

func TestValidateAcceptsValidInputs(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   FleetClusterArgs
	}{
		"defaults": {reason: "a region is all that is needed", args: FleetClusterArgs{Region: "eu-central-1"}},
		"everything": {
			reason: "every option set to an allowed value",
			args: FleetClusterArgs{
				ClusterName: "prod_blue-1", Region: "us-gov-west-1", Environment: "prod", Version: "1.32",
				VpcCidr: "10.20.0.0/20", AvailabilityZoneCount: 6, NatGatewayStrategy: "OnePerAz",
				EndpointPublicAccess: ptr(true), PublicAccessCidrs: []string{"203.0.113.0/24"},
				EnabledClusterLogTypes: []string{}, SecretsEncryption: ptr(false),
				NodeGroups: []NodeGroup{ng(func(n *NodeGroup) {
					n.CapacityType, n.AmiType, n.DiskSize = "SPOT", "BOTTLEROCKET_ARM_64", 100
					n.Labels = map[string]string{"node.kubernetes.io/pool": "apps"}
					n.Taints = []Taint{{Key: "dedicated", Value: "apps", Effect: "NO_SCHEDULE"}}
				})},
				RoleMappings: []RoleMapping{{RoleArn: pulumi.String("arn:aws-us-gov:iam::123456789012:role/ops"),
					Username: "ops", Groups: []string{"ops"}}},
				UserMappings: []UserMapping{{UserArn: pulumi.String("arn:aws-us-gov:iam::123456789012:user/alice"),
					Username: "alice"}},
				AccessEntries: []AccessEntry{{Name: "viewers", PrincipalArn: pulumi.String("arn:aws:iam::123456789012:role/view"),
					AccessPolicies: []AccessPolicy{{PolicyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy",
						Namespaces: []string{"team-a"}}}}},
				GitOpsAccess: &GitOpsAccess{HubRoleArn: pulumi.String(hubRole)},
				Addons:       map[string]bool{"karpenter": true, "metrics_server": false},
				Tags:         map[string]string{"team": "platform"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := Validate(withDefaults(tc.args, "dev", "test"), tc.args); err != nil {
				t.Errorf("%s: %v", tc.reason, err)
			}
		})
	}
}

func TestValidationReportsEveryProblemBeforeRegistering(t *testing.T) {
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error {
		_, err := NewFleetCluster(ctx, "bad", FleetClusterArgs{
			Region: "nowhere", VpcCidr: "10.0.0.0/33", Addons: map[string]bool{"nope": true},
		})
		return err
	})
	if err == nil {
		t.Fatal("want an error")
	}
	for _, field := range []string{"region", "vpcCidr", `addons["nope"]`} {
		if !strings.Contains(err.Error(), field+":") {
			t.Errorf("error does not name %s:\n%v", field, err)
		}
	}
	if got := cloud.Resources(); len(got) != 0 {
		t.Errorf("registered %d resources before failing validation: %v", len(got), got)
	}
}

func TestComputedARNIsCheckedWhenKnown(t *testing.T) {
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error {
		// An output (as from another resource) is not known at validation time.
		hub := pulumi.String("arn:aws:iam::210987654321:policy/not-a-role").ToStringOutput()
		_, err := NewFleetCluster(ctx, "spoke", FleetClusterArgs{
			Region: "us-east-2", GitOpsAccess: &GitOpsAccess{HubRoleArn: hub},
		})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "gitopsAccess.hubRoleArn") {
		t.Errorf("want the bad hub role ARN reported when it resolves, got %v", err)
	}
}
