package fleetcluster

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func TestOutputsArePlainValues(t *testing.T) {
	_, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-2", Environment: "dev"})

	got := map[string]any{
		"clusterName":       mocks.Await[string](t, fc.ClusterName),
		"clusterArn":        mocks.Await[string](t, fc.ClusterArn),
		"region":            mocks.Await[string](t, fc.Region),
		"accountId":         mocks.Await[string](t, fc.AccountId),
		"kubernetesVersion": mocks.Await[string](t, fc.KubernetesVersion),
		"environment":       mocks.Await[string](t, fc.Environment),
		"vpcId":             mocks.Await[string](t, fc.VpcId),
		"privateSubnetIds":  mocks.Await[[]string](t, fc.PrivateSubnetIds),
		"nodeRoleArn":       mocks.Await[string](t, fc.NodeRoleArn),
		"spokeRoleArn":      mocks.Await[string](t, fc.SpokeRoleArn),
	}
	want := map[string]any{
		"clusterName":       "dev",
		"clusterArn":        "arn:aws:eks:us-east-2:" + mocks.Account + ":cluster/dev",
		"region":            "us-east-2",
		"accountId":         mocks.Account,
		"kubernetesVersion": DefaultVersion,
		"environment":       "dev",
		"vpcId":             "vpc-dev-vpc",
		"privateSubnetIds":  []string{"subnet-dev-vpc-private-1", "subnet-dev-vpc-private-2", "subnet-dev-vpc-private-3"},
		"nodeRoleArn":       "arn:aws:iam::" + mocks.Account + ":role/dev-use2-node",
		"spokeRoleArn":      "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if url := mocks.Await[string](t, fc.OidcProviderUrl); !strings.HasPrefix(url, "https://oidc.eks.us-east-2.amazonaws.com/id/") {
		t.Errorf("oidcProviderUrl = %q, want the issuer URL with https://", url)
	}
	if arn := mocks.Await[string](t, fc.OidcProviderArn); !strings.HasPrefix(arn, "arn:aws:iam::"+mocks.Account+":oidc-provider/oidc.eks.us-east-2") {
		t.Errorf("oidcProviderArn = %q", arn)
	}
	if ep := mocks.Await[string](t, fc.Endpoint); !strings.HasPrefix(ep, "https://") {
		t.Errorf("endpoint = %q, want an https URL", ep)
	}
	if ca := mocks.Await[string](t, fc.CertificateAuthorityData); ca == "" {
		t.Error("certificateAuthorityData is empty")
	}
}

func TestKubeconfigIsSecretAndHasNoToken(t *testing.T) {
	_, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1"})
	if !pulumi.IsSecret(fc.Kubeconfig) {
		t.Error("kubeconfig is not a secret output")
	}
	kc := mocks.Await[string](t, fc.Kubeconfig)
	if !strings.Contains(kc, "get-token") || strings.Contains(kc, `"token"`) {
		t.Errorf("kubeconfig should authenticate with aws eks get-token and carry no token: %s", kc)
	}
}

func TestClusterInfoGathersTheFacts(t *testing.T) {
	_, fc := build(t, "spoke1", FleetClusterArgs{
		Region: "us-west-2", Environment: "dev", Addons: map[string]bool{"external_dns": true}, AddonSettings: dnsSettings,
		GitOpsAccess: &GitOpsAccess{HubRoleArn: pulumi.String("arn:aws:iam::123456789012:role/gitops-fleet/hub/hub")},
	})
	got := mocks.Await[clusterinfo.ClusterInfo](t, fc.ClusterInfo)
	want := clusterinfo.ClusterInfo{
		ClusterName:              mocks.Await[string](t, fc.ClusterName),
		Environment:              "dev",
		Server:                   mocks.Await[string](t, fc.Endpoint),
		CertificateAuthorityData: mocks.Await[string](t, fc.CertificateAuthorityData),
		Region:                   "us-west-2",
		AccountId:                mocks.Account,
		KubernetesVersion:        DefaultVersion,
		Kubeconfig:               mocks.Await[string](t, fc.Kubeconfig),
		SpokeRoleArn:             mocks.Await[string](t, fc.SpokeRoleArn),
		GitOpsMetadata:           mocks.Await[map[string]string](t, fc.GitOpsMetadata),
		Addons:                   map[string]bool{"external_dns": true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clusterInfo is not the component's own outputs (-want +got):\n%s", diff)
	}
	if got.SpokeRoleArn == "" || got.GitOpsMetadata["external_dns_iam_role_arn"] == "" {
		t.Errorf("clusterInfo lacks the spoke role or the add-on metadata: %+v", got)
	}
	fields := clusterinfo.FieldsOf(fc.ClusterInfo)
	if !pulumi.IsSecret(fields.Kubeconfig) || pulumi.IsSecret(fields.ClusterName) || pulumi.IsSecret(fields.GitOpsMetadata) {
		t.Error("only the kubeconfig of clusterInfo should be secret")
	}
}
