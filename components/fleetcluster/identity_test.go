package fleetcluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

func TestIRSATrustPolicy(t *testing.T) {
	cases := map[string]struct {
		reason string
		issuer string
	}{
		"issuer with scheme":    {reason: "the issuer URL EKS reports", issuer: "https://oidc.eks.us-east-1.amazonaws.com/id/ABC"},
		"issuer without scheme": {reason: "the URL the IAM OIDC provider stores", issuer: "oidc.eks.us-east-1.amazonaws.com/id/ABC"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := IRSATrustPolicy("arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC",
				tc.issuer, "kube-system", "aws-load-balancer-controller-sa").JSON()
			want := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",` +
				`"Principal":{"Federated":"arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC"},` +
				`"Action":["sts:AssumeRoleWithWebIdentity"],"Condition":{"StringEquals":{` +
				`"oidc.eks.us-east-1.amazonaws.com/id/ABC:aud":"sts.amazonaws.com",` +
				`"oidc.eks.us-east-1.amazonaws.com/id/ABC:sub":"system:serviceaccount:kube-system:aws-load-balancer-controller-sa"}}}]}`
			if got != want {
				t.Errorf("%s:\n got %s\nwant %s", tc.reason, got, want)
			}
		})
	}
}

func TestIRSARolesForEnabledAddons(t *testing.T) {
	cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Identity: IdentityIRSA, Addons: map[string]bool{
		"aws_load_balancer_controller": true, "aws_ebs_csi_driver": true, "karpenter": true,
		"external_dns": false, "metrics_server": true,
	}})
	issuer := strings.TrimPrefix(mocks.Await[string](t, fc.OidcProviderUrl), "https://")
	oidcArn := mocks.Await[string](t, fc.OidcProviderArn)

	var roles []string
	for _, r := range cloud.OfType("aws:iam/role:Role") {
		roles = append(roles, r.Input("name").(string))
	}
	wantRoles := []string{"dev-use1-node", "dev-use1-aws-ebs-csi-driver", "dev-use1-aws-load-balancer-controller", "dev-use1-karpenter"}
	if diff := cmp.Diff(wantRoles, roles, cmpSorted); diff != "" {
		t.Errorf("roles (-want +got); disabled and AWS-free add-ons get none:\n%s", diff)
	}

	for addon, purpose := range map[string]string{"aws_load_balancer_controller": "aws-load-balancer-controller",
		"aws_ebs_csi_driver": "aws-ebs-csi-driver", "karpenter": "karpenter"} {
		a, _ := addons.Lookup(addon)
		role := cloud.MustGet(t, "aws:iam/role:Role", "dev-irsa-"+purpose)
		if diff := cmp.Diff(IRSATrustPolicy(oidcArn, issuer, a.Identity.Namespace, a.Identity.ServiceAccounts[0].Name),
			policyOf(t, role, "assumeRolePolicy")); diff != "" {
			t.Errorf("%s trust policy (-want +got):\n%s", addon, diff)
		}
	}

	ebs := cloud.MustGet(t, "aws:iam/rolePolicyAttachment:RolePolicyAttachment", "dev-irsa-aws-ebs-csi-driver-AmazonEBSCSIDriverPolicyV2")
	if got := ebs.Input("policyArn"); got != "arn:aws:iam::aws:policy/AmazonEBSCSIDriverPolicyV2" {
		t.Errorf("EBS CSI policy = %v", got)
	}

	karpenter := policyOf(t, cloud.MustGet(t, "aws:iam/rolePolicy:RolePolicy", "dev-irsa-karpenter"), "policy")
	for _, st := range karpenter.Statement {
		if st.Sid == "AllowPassingInstanceRole" {
			if diff := cmp.Diff([]string{"arn:aws:iam::" + mocks.Account + ":role/dev-use1-node"}, st.Resource); diff != "" {
				t.Errorf("karpenter may pass only the node role (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Error("karpenter policy has no AllowPassingInstanceRole statement")
}

func TestIRSATrustCoversEveryServiceAccount(t *testing.T) {
	cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{"aws_efs_csi_driver": true}})
	issuer := strings.TrimPrefix(mocks.Await[string](t, fc.OidcProviderUrl), "https://")
	trust := policyOf(t, cloud.MustGet(t, "aws:iam/role:Role", "dev-irsa-aws-efs-csi-driver"), "assumeRolePolicy")
	want := []any{"system:serviceaccount:kube-system:efs-csi-controller-sa", "system:serviceaccount:kube-system:efs-csi-node-sa"}
	if diff := cmp.Diff(want, trust.Statement[0].Condition["StringEquals"][issuer+":sub"]); diff != "" {
		t.Errorf("the EFS CSI node daemon set calls AWS too; AWS trusts both service accounts (-want +got):\n%s", diff)
	}
}

var cmpSorted = cmp.Transformer("sorted", func(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return out
})
