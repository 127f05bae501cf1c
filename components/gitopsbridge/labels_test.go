package gitopsbridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLabels(t *testing.T) {
	cases := map[string]struct {
		reason   string
		addons   map[string]bool
		metadata map[string]string
		want     map[string]string
	}{
		"no add-ons": {
			reason: "the secret type and cluster facts are always there",
			want: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "blue", "environment": "prod",
				"kubernetes_version": "1.33", WaveLabel: "3"},
		},
		"aws cluster name": {
			reason:   "the aws/ cert-manager and Velero ApplicationSets require the label aws_cluster_name to exist",
			metadata: map[string]string{"aws_cluster_name": "blue-eks", "aws_region": "us-east-1"},
			want: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "blue", "environment": "prod",
				"kubernetes_version": "1.33", WaveLabel: "3", "aws_cluster_name": "blue-eks"},
		},
		"enabled and disabled": {
			reason: "disabled add-ons are labelled false so ApplicationSets can select on it",
			addons: map[string]bool{"cert_manager": true, "karpenter": false},
			want: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "blue", "environment": "prod",
				"kubernetes_version": "1.33", WaveLabel: "3", "enable_cert_manager": "true", "enable_karpenter": "false"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Labels("blue", "prod", "1.33", 3, tc.addons, tc.metadata)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAnnotations(t *testing.T) {
	cluster := map[string]string{"aws_cluster_name": "blue", "aws_region": "us-east-1"}
	addons := &Repo{URL: "https://github.com/acme/addons", BasePath: "addons/", Path: "bootstrap"}
	workloads := &Repo{URL: "https://github.com/acme/apps", Path: "envs", Revision: "main"}
	cases := map[string]struct {
		reason              string
		metadata            map[string]string
		addonsR, workloadsR *Repo
		want                map[string]string
	}{
		"cluster metadata only": {
			reason: "infrastructure facts reach Argo CD unchanged",
			want:   cluster,
		},
		"repositories": {
			reason:  "gitops-bridge reads repo coordinates from every cluster secret; revision defaults to HEAD",
			addonsR: addons, workloadsR: workloads,
			want: map[string]string{"aws_cluster_name": "blue", "aws_region": "us-east-1",
				"addons_repo_url": "https://github.com/acme/addons", "addons_repo_basepath": "addons/",
				"addons_repo_path": "bootstrap", "addons_repo_revision": "HEAD",
				"workload_repo_url": "https://github.com/acme/apps", "workload_repo_basepath": "",
				"workload_repo_path": "envs", "workload_repo_revision": "main"},
		},
		"user metadata wins": {
			reason:   "metadata is merged over the cluster's metadata",
			metadata: map[string]string{"aws_region": "override", "team": "platform"},
			want:     map[string]string{"aws_cluster_name": "blue", "aws_region": "override", "team": "platform"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Annotations(cluster, tc.metadata, tc.addonsR, tc.workloadsR)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
