package fleetcluster

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

func TestGitOpsMetadata(t *testing.T) {
	facts := ClusterFacts{ClusterName: "blue", Region: "us-east-2", AccountID: "123456789012", VpcID: "vpc-1",
		KubernetesVersion: "1.33", Environment: "prod"}
	cases := map[string]struct {
		reason string
		keys   map[string]string
		want   map[string]string
	}{
		"cluster facts only": {
			reason: "every cluster carries the aws_* keys",
			want: map[string]string{"aws_cluster_name": "blue", "aws_region": "us-east-2", "aws_account_id": "123456789012",
				"aws_vpc_id": "vpc-1", "kubernetes_version": "1.33", "environment": "prod"},
		},
		"add-on roles": {
			reason: "add-on charts read their role, namespace and service account from the annotations",
			keys: map[string]string{"external_dns_iam_role_arn": "arn:aws:iam::123456789012:role/blue-use2-external-dns",
				"external_dns_namespace": "external-dns", "external_dns_service_account": "external-dns-sa"},
			want: map[string]string{"aws_cluster_name": "blue", "aws_region": "us-east-2", "aws_account_id": "123456789012",
				"aws_vpc_id": "vpc-1", "kubernetes_version": "1.33", "environment": "prod",
				"external_dns_iam_role_arn":    "arn:aws:iam::123456789012:role/blue-use2-external-dns",
				"external_dns_namespace":       "external-dns",
				"external_dns_service_account": "external-dns-sa"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, GitOpsMetadata(facts, tc.keys)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestComponentMetadataAndAddonsOutputs(t *testing.T) {
	addons := map[string]bool{"cert_manager": true, "metrics_server": true, "velero": false}
	_, fc := build(t, "dev", FleetClusterArgs{Region: "us-west-2", Environment: "dev", Addons: addons})
	want := map[string]string{
		"aws_cluster_name": "dev", "aws_region": "us-west-2", "aws_account_id": mocks.Account,
		"aws_vpc_id": "vpc-dev-vpc", "kubernetes_version": DefaultVersion, "environment": "dev",
		"cert_manager_iam_role_arn":    "arn:aws:iam::" + mocks.Account + ":role/dev-usw2-cert-manager",
		"cert_manager_namespace":       "cert-manager",
		"cert_manager_service_account": "cert-manager",
	}
	if diff := cmp.Diff(want, mocks.Await[map[string]string](t, fc.GitOpsMetadata)); diff != "" {
		t.Errorf("gitopsMetadata (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(addons, mocks.Await[map[string]bool](t, fc.Addons)); diff != "" {
		t.Errorf("addons (-want +got):\n%s", diff)
	}
}
