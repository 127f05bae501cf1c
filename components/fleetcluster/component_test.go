package fleetcluster

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func TestOutputsArePlainValues(t *testing.T) {
	_, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-2", Environment: "dev"})

	got := map[string]any{
		"clusterName":       await[string](t, fc.ClusterName),
		"clusterArn":        await[string](t, fc.ClusterArn),
		"region":            await[string](t, fc.Region),
		"accountId":         await[string](t, fc.AccountId),
		"kubernetesVersion": await[string](t, fc.KubernetesVersion),
		"environment":       await[string](t, fc.Environment),
		"vpcId":             await[string](t, fc.VpcId),
		"privateSubnetIds":  await[[]string](t, fc.PrivateSubnetIds),
		"nodeRoleArn":       await[string](t, fc.NodeRoleArn),
		"spokeRoleArn":      await[string](t, fc.SpokeRoleArn),
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
	if url := await[string](t, fc.OidcProviderUrl); !strings.HasPrefix(url, "https://oidc.eks.us-east-2.amazonaws.com/id/") {
		t.Errorf("oidcProviderUrl = %q, want the issuer URL with https://", url)
	}
	if arn := await[string](t, fc.OidcProviderArn); !strings.HasPrefix(arn, "arn:aws:iam::"+mocks.Account+":oidc-provider/oidc.eks.us-east-2") {
		t.Errorf("oidcProviderArn = %q", arn)
	}
	if ep := await[string](t, fc.Endpoint); !strings.HasPrefix(ep, "https://") {
		t.Errorf("endpoint = %q, want an https URL", ep)
	}
	if ca := await[string](t, fc.CertificateAuthorityData); ca == "" {
		t.Error("certificateAuthorityData is empty")
	}
}

func TestKubeconfigIsSecretAndHasNoToken(t *testing.T) {
	_, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1"})
	if !pulumi.IsSecret(fc.Kubeconfig) {
		t.Error("kubeconfig is not a secret output")
	}
	kc := await[string](t, fc.Kubeconfig)
	if !strings.Contains(kc, "get-token") || strings.Contains(kc, `"token"`) {
		t.Errorf("kubeconfig should authenticate with aws eks get-token and carry no token: %s", kc)
	}
}
