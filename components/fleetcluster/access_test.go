package fleetcluster

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const opsRole = "arn:aws:iam::123456789012:role/ops"

// nodeRoleURN is the URN of the node role the component builds under the component named name.
func nodeRoleURN(name string) string {
	return mocks.URN(TypeToken, "aws:iam/role:Role", name+"-node-role")
}

func TestAwsAuthMappingsKeepTheNodeRole(t *testing.T) {
	cases := map[string]struct {
		reason       string
		roleMappings []RoleMapping
		userMappings []UserMapping
		wantRoles    any
		wantUsers    any
	}{
		"no mappings": {
			reason:    "the node role needs no mapping of the user's",
			wantRoles: nil, wantUsers: nil,
		},
		"mappings added": {
			reason:       "user mappings go next to, not instead of, the node role",
			roleMappings: []RoleMapping{{RoleArn: pulumi.String(opsRole), Username: "ops", Groups: []string{"ops-team"}}},
			userMappings: []UserMapping{{UserArn: pulumi.String("arn:aws:iam::123456789012:user/alice"), Username: "alice"}},
			wantRoles:    []any{map[string]any{"roleArn": opsRole, "username": "ops", "groups": []any{"ops-team"}}},
			wantUsers:    []any{map[string]any{"userArn": "arn:aws:iam::123456789012:user/alice", "username": "alice", "groups": []any{}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1",
				RoleMappings: tc.roleMappings, UserMappings: tc.userMappings})
			cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
			// pulumi-eks writes the aws-auth entry of every instance role itself (system:bootstrappers,
			// system:nodes), separately from roleMappings: the node role stays whatever the mappings are.
			if diff := cmp.Diff([]any{nodeRoleURN("dev")}, cl.Input("instanceRoles")); diff != "" {
				t.Errorf("%s: instanceRoles (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantRoles, cl.Input("roleMappings")); diff != "" {
				t.Errorf("%s: roleMappings (-want +got):\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantUsers, cl.Input("userMappings")); diff != "" {
				t.Errorf("%s: userMappings (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAccessEntries(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", AccessEntries: []AccessEntry{
		{Name: "viewers", PrincipalArn: pulumi.String(opsRole), KubernetesGroups: []string{"viewers"},
			AccessPolicies: []AccessPolicy{
				{PolicyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy", Namespaces: []string{"team-a"}},
				{PolicyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy"},
			}},
	}})
	cl := cloud.MustGet(t, "eks:index:Cluster", "dev-cluster")
	want := map[string]any{"viewers": map[string]any{
		"principalArn": opsRole, "kubernetesGroups": []any{"viewers"},
		"accessPolicies": map[string]any{
			"AmazonEKSViewPolicy": map[string]any{
				"policyArn":   "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy",
				"accessScope": map[string]any{"type": "namespace", "namespaces": []any{"team-a"}},
			},
			"AmazonEKSAdminViewPolicy": map[string]any{
				"policyArn":   "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy",
				"accessScope": map[string]any{"type": "cluster"},
			},
		},
	}}
	if diff := cmp.Diff(want, cl.Input("accessEntries")); diff != "" {
		t.Errorf("accessEntries (-want +got):\n%s", diff)
	}
}

func TestGitOpsAccessCreatesATrustedSpokeRoleWithAdminEntry(t *testing.T) {
	cloud, fc := build(t, "spoke1", FleetClusterArgs{ClusterName: "spoke1", Region: "us-west-2",
		GitOpsAccess: &GitOpsAccess{HubRoleArn: pulumi.String(hubRole)}})

	role := cloud.MustGet(t, "aws:iam/role:Role", "spoke1-gitops-spoke-role")
	if role.Input("name") != "spoke1-usw2-gitops-spoke" || role.Input("path") != clusterinfo.SpokeRolePath {
		t.Errorf("spoke role name/path = %v %v", role.Input("name"), role.Input("path"))
	}
	want := SpokeTrustPolicy(hubRole)
	if diff := cmp.Diff(want, policyOf(t, role, "assumeRolePolicy")); diff != "" {
		t.Errorf("spoke trust policy (-want +got):\n%s", diff)
	}
	if got := cloud.OfType("aws:iam/rolePolicy:RolePolicy"); len(got) != 0 {
		t.Errorf("the spoke role needs no IAM permissions, got %d inline policies", len(got))
	}

	spokeArn := "arn:aws:iam::" + mocks.Account + ":role" + clusterinfo.SpokeRolePath + "spoke1-usw2-gitops-spoke"
	if got := mocks.Await[string](t, fc.SpokeRoleArn); got != spokeArn {
		t.Errorf("spokeRoleArn = %q, want %q", got, spokeArn)
	}
	cl := cloud.MustGet(t, "eks:index:Cluster", "spoke1-cluster")
	wantEntries := map[string]any{SpokeAccessEntryName: map[string]any{
		"principalArn": spokeArn,
		"accessPolicies": map[string]any{"AmazonEKSClusterAdminPolicy": map[string]any{
			"policyArn":   "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy",
			"accessScope": map[string]any{"type": "cluster"},
		}},
	}}
	if diff := cmp.Diff(wantEntries, cl.Input("accessEntries")); diff != "" {
		t.Errorf("accessEntries (-want +got):\n%s", diff)
	}
	if m := cl.Input("roleMappings"); m != nil {
		t.Errorf("gitopsAccess must not add aws-auth mappings (no system:masters), got %v", m)
	}
}

// TestGitOpsAccessForAManagedHub: for a managed hub's capability role the cluster gives that role itself the hub's
// access entry, with the named access policy or cluster admin, and makes no spoke role.
func TestGitOpsAccessForAManagedHub(t *testing.T) {
	capabilityRole := "arn:aws:iam::" + mocks.Account + ":role/gitops-fleet/hub/hub-argocd-capability"
	cases := map[string]struct {
		reason string
		policy string
		want   map[string]any
	}{
		"default": {reason: "the add-ons' charts need cluster admin, as the self-managed hub's spoke role has",
			want: map[string]any{"AmazonEKSClusterAdminPolicy": map[string]any{
				"policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", "accessScope": map[string]any{"type": "cluster"}}}},
		"named": {reason: "a narrower policy for a hub that deploys namespaced workloads only",
			policy: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy",
			want: map[string]any{"AmazonEKSEditPolicy": map[string]any{
				"policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy", "accessScope": map[string]any{"type": "cluster"}}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, fc := build(t, "spoke1", FleetClusterArgs{ClusterName: "spoke1", Region: "us-west-2",
				GitOpsAccess: &GitOpsAccess{CapabilityRoleArn: pulumi.String(capabilityRole), AccessPolicyArn: tc.policy}})
			if _, ok := cloud.Named("aws:iam/role:Role", "spoke1-gitops-spoke-role"); ok {
				t.Errorf("%s: a spoke role for a managed hub, which reaches clusters through access entries", tc.reason)
			}
			if got := mocks.Await[string](t, fc.SpokeRoleArn); got != "" {
				t.Errorf("spokeRoleArn = %q, want none", got)
			}
			want := map[string]any{SpokeAccessEntryName: map[string]any{"principalArn": capabilityRole, "accessPolicies": tc.want}}
			if diff := cmp.Diff(want, cloud.MustGet(t, "eks:index:Cluster", "spoke1-cluster").Input("accessEntries")); diff != "" {
				t.Errorf("%s: accessEntries (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
	given := FleetClusterArgs{ClusterName: "spoke1", Region: "us-west-2", GitOpsAccess: &GitOpsAccess{
		HubRoleArn: pulumi.String(hubRole), CapabilityRoleArn: pulumi.String(capabilityRole), AccessPolicyArn: "AdminPolicy"}}
	err := Validate(Resolve(given, "spoke1", "dev"), given)
	for _, w := range []string{"gitopsAccess: give exactly one of hubRoleArn", `gitopsAccess.accessPolicyArn: "AdminPolicy" is not a valid ARN`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
}
