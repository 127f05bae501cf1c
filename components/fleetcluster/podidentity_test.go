package fleetcluster

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

// TestIdentityModes: per identity mode and add-on version, which roles EKS Pod Identity binds (associations
// after the agent add-on, and the Pod Identity trust beside the OIDC trust) and which keep IRSA only.
func TestIdentityModes(t *testing.T) {
	enabled := map[string]bool{"aws_load_balancer_controller": true, "karpenter": true, "external_dns": true,
		"aws_ebs_csi_driver": true, "aws_fsx_csi_driver": true}
	settings := &AddonSettings{ExternalDns: &ExternalDNSSettings{HostedZoneIds: []string{"Z1"}, DomainFilters: []string{"a.example.com"}}}
	cases := map[string]struct {
		reason   string
		identity string
		versions map[string]string
		bound    []string // add-ons bound with Pod Identity
	}{
		"default": {reason: "Pod Identity where the template's version supports it: not external-dns 0.14.0 (aws-sdk-go " +
			"v1.44.311), not the EBS CSI driver (an EKS managed add-on bound through the add-on)",
			bound: []string{"aws_fsx_csi_driver", "aws_load_balancer_controller", "karpenter"}},
		"irsa": {reason: "IRSA only", identity: IdentityIRSA},
		"newer external-dns": {reason: "external-dns 0.14.1 supports it", versions: map[string]string{"external_dns": "0.14.1"},
			bound: []string{"aws_fsx_csi_driver", "aws_load_balancer_controller", "external_dns", "karpenter"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: enabled, AddonSettings: settings,
				Identity: tc.identity, AddonVersions: tc.versions})
			issuer := strings.TrimPrefix(mocks.Await[string](t, fc.OidcProviderUrl), "https://")
			oidcArn := mocks.Await[string](t, fc.OidcProviderArn)
			agent := mocks.URN(TypeToken, "aws:eks/addon:Addon", "dev-"+PodIdentityAgentAddon)
			var bound []string
			for _, a := range enabledAddons(enabled) {
				id := a.Identity
				var accounts []string
				for _, sa := range id.ServiceAccounts {
					accounts = append(accounts, sa.Name)
					assoc, ok := cloud.Named("aws:eks/podIdentityAssociation:PodIdentityAssociation", "dev-pod-identity-"+sa.Name)
					if !ok {
						continue
					}
					if !slices.Contains(bound, a.Name) {
						bound = append(bound, a.Name)
					}
					role := cloud.MustGet(t, "aws:iam/role:Role", "dev-irsa-"+irsaRolePurpose(a.Name))
					want := map[string]any{"clusterName": "dev", "namespace": id.Namespace, "serviceAccount": sa.Name,
						"roleArn": role.State["arn"].StringValue()}
					if diff := cmp.Diff(want, assoc.InputsLike(want)); diff != "" {
						t.Errorf("%s association (-want +got):\n%s", a.Name, diff)
					}
					if !slices.Contains(assoc.Dependencies, agent) {
						t.Errorf("%s association does not wait for %s: %v", a.Name, PodIdentityAgentAddon, assoc.Dependencies)
					}
				}
				want := IRSATrustPolicy(oidcArn, issuer, id.Namespace, accounts...)
				if slices.Contains(bound, a.Name) {
					want.Statement = append(want.Statement,
						iampolicy.PodIdentityTrust("arn:aws:eks:us-east-1:"+mocks.Account+":cluster/dev", id.Namespace, accounts))
				}
				role := cloud.MustGet(t, "aws:iam/role:Role", "dev-irsa-"+irsaRolePurpose(a.Name))
				if diff := cmp.Diff(roundTrip(t, want), policyOf(t, role, "assumeRolePolicy")); diff != "" {
					t.Errorf("%s trust: the cluster's OIDC provider always (the template annotates the service account), "+
						"Pod Identity when bound (-want +got):\n%s", a.Name, diff)
				}
			}
			if diff := cmp.Diff(tc.bound, bound); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPolicyFollowsTheVersion: the inline policy is the one published for the add-on's version, the
// template's by default.
func TestPolicyFollowsTheVersion(t *testing.T) {
	cases := map[string]struct {
		version string
		wantSid string // a statement only that version's document has
		notSid  string
	}{
		"template's v0.34.1": {wantSid: "AllowScopedEC2InstanceActions", notSid: "AllowUnscopedInstanceProfileListAction"},
		"v1.14.0": {version: "v1.14.0", wantSid: "AllowUnscopedInstanceProfileListAction",
			notSid: "AllowScopedEC2InstanceActions"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{"karpenter": true}}
			if tc.version != "" {
				args.AddonVersions = map[string]string{"karpenter": tc.version}
			}
			cloud, _ := build(t, "dev", args)
			doc := policyOf(t, cloud.MustGet(t, "aws:iam/rolePolicy:RolePolicy", "dev-irsa-karpenter"), "policy")
			var sids []string
			for _, st := range doc.Statement {
				sids = append(sids, st.Sid)
			}
			if !slices.Contains(sids, tc.wantSid) || slices.Contains(sids, tc.notSid) {
				t.Errorf("statements %v: want %s, not %s", sids, tc.wantSid, tc.notSid)
			}
			for _, st := range doc.Statement {
				for _, cond := range st.Condition {
					if _, ok := cond["aws:RequestTag/eks:eks-cluster-name"]; ok && tc.version == "" {
						t.Errorf("%s requires the eks:eks-cluster-name tag, which Karpenter v0.34 never sends", st.Sid)
					}
				}
			}
		})
	}
	a, _ := addons.Lookup("karpenter")
	if a.Version != "0.34.1" {
		t.Errorf("the pinned template installs Karpenter v0.34.1, the table says %s", a.Version)
	}
}

// roundTrip is a document as it reads back from JSON (what policyOf returns).
func roundTrip(t *testing.T, d iampolicy.Document) iampolicy.Document {
	t.Helper()
	var out iampolicy.Document
	if err := json.Unmarshal([]byte(d.JSON()), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOwnPoliciesReplaceAccountWideOnes: an ACK controller given policies of the user's gets those and not
// its service's full access; accepted as it is, the upstream recommendation.
func TestOwnPoliciesReplaceAccountWideOnes(t *testing.T) {
	own := "arn:aws:iam::" + mocks.Account + ":policy/platform/s3-team-buckets"
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{"ack_s3": true, "ack_rds": true},
		AddonSettings: &AddonSettings{PolicyArns: map[string][]string{"ack_s3": {own}}, AcceptAccountWide: []string{"ack_rds"}}})
	attached := map[string][]any{}
	for _, r := range cloud.OfType("aws:iam/rolePolicyAttachment:RolePolicyAttachment") {
		if strings.HasPrefix(r.Name, "dev-irsa-ack-") {
			attached[strings.SplitN(strings.TrimPrefix(r.Name, "dev-irsa-"), "-", 3)[1]] = append(
				attached[strings.SplitN(strings.TrimPrefix(r.Name, "dev-irsa-"), "-", 3)[1]], r.Input("policyArn"))
		}
	}
	want := map[string][]any{"s3": {own}, "rds": {"arn:aws:iam::aws:policy/AmazonRDSFullAccess"}}
	if diff := cmp.Diff(want, attached); diff != "" {
		t.Errorf("policies of the ACK roles (-want +got):\n%s", diff)
	}
}
