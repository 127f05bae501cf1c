package gitopsbridge

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func TestClusterSecret(t *testing.T) {
	addonsRepo := &Repo{URL: "https://github.com/acme/addons", BasePath: "argocd/", Path: "bootstrap/addons"}
	cases := map[string]struct {
		reason          string
		args            func() GitOpsBridgeArgs
		wantLabels      map[string]string
		wantAnnotations map[string]string
		wantData        map[string]string
	}{
		"hub": {
			reason: "the hub is Argo CD's own cluster: in-cluster server, no credentials, TLS verified",
			args: func() GitOpsBridgeArgs {
				a := hubArgs()
				a.Addons = map[string]bool{"cert_manager": false, "karpenter": true}
				a.Metadata = map[string]string{"team": "platform"}
				a.AddonsRepo = addonsRepo
				return a
			},
			wantLabels: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "hub", "environment": "dev",
				"kubernetes_version": "1.33", "enable_cert_manager": "false", "enable_karpenter": "true",
				"aws_cluster_name": "hub", WaveLabel: "0"},
			wantAnnotations: map[string]string{"aws_cluster_name": "hub", "aws_region": "us-east-1", "team": "platform",
				"addons_repo_url": "https://github.com/acme/addons", "addons_repo_basepath": "argocd/",
				"addons_repo_path": "bootstrap/addons", "addons_repo_revision": "HEAD"},
			wantData: map[string]string{"name": "hub", "server": InClusterServer,
				"config": `{"tlsClientConfig":{"insecure":false}}`},
		},
		"spoke": {
			reason: "a spoke is reached at its endpoint by assuming its role, TLS verified against its CA",
			args:   spokeArgs,
			wantLabels: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "spoke1", "environment": "dev",
				"kubernetes_version": "1.33", "enable_cert_manager": "true", "aws_cluster_name": "spoke1", WaveLabel: "1"},
			wantAnnotations: map[string]string{"aws_cluster_name": "spoke1", "aws_region": "us-west-2"},
			wantData: map[string]string{"name": "spoke1", "server": "https://spoke1.gr7.us-west-2.eks.amazonaws.com",
				"config": `{"awsAuthConfig":{"clusterName":"spoke1","roleARN":"` + spokeRoleArn + `"},` +
					`"tlsClientConfig":{"insecure":false,"caData":"Q0Egb2Ygspoke1"}}`},
		},
		"given-wave": {
			reason: "the cluster's own wave wins over its environment's (dev, wave 1)",
			args: func() GitOpsBridgeArgs {
				a := spokeArgs()
				a.Wave = new(4)
				return a
			},
			wantLabels: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "spoke1", "environment": "dev",
				"kubernetes_version": "1.33", "enable_cert_manager": "true", "aws_cluster_name": "spoke1", WaveLabel: "4"},
			wantAnnotations: map[string]string{"aws_cluster_name": "spoke1", "aws_region": "us-west-2"},
			wantData: map[string]string{"name": "spoke1", "server": "https://spoke1.gr7.us-west-2.eks.amazonaws.com",
				"config": `{"awsAuthConfig":{"clusterName":"spoke1","roleARN":"` + spokeRoleArn + `"},` +
					`"tlsClientConfig":{"insecure":false,"caData":"Q0Egb2Ygspoke1"}}`},
		},
		"decommissioned": {
			reason: "the label workload ApplicationSets exclude; the add-on labels and the data unchanged",
			args: func() GitOpsBridgeArgs {
				a := spokeArgs()
				a.Decommission = true
				return a
			},
			wantLabels: map[string]string{SecretTypeLabel: "cluster", "cluster_name": "spoke1", "environment": "dev",
				"kubernetes_version": "1.33", "enable_cert_manager": "true", "aws_cluster_name": "spoke1",
				DecommissionLabel: "true", WaveLabel: "1"},
			wantAnnotations: map[string]string{"aws_cluster_name": "spoke1", "aws_region": "us-west-2"},
			wantData: map[string]string{"name": "spoke1", "server": "https://spoke1.gr7.us-west-2.eks.amazonaws.com",
				"config": `{"awsAuthConfig":{"clusterName":"spoke1","roleARN":"` + spokeRoleArn + `"},` +
					`"tlsClientConfig":{"insecure":false,"caData":"Q0Egb2Ygspoke1"}}`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, gb := build(t, name, tc.args())
			s := cloud.MustGet(t, secretType, name+"-cluster-secret")
			md := s.Input("metadata").(map[string]any)
			got := map[string]any{
				"name": md["name"], "namespace": md["namespace"], "type": s.Input("type"),
				"labels": toStrings(t, md["labels"]), "annotations": toStrings(t, md["annotations"]),
				"stringData": toStrings(t, s.Input("stringData")),
			}
			want := map[string]any{
				"name": name, "namespace": "argocd", "type": "Opaque",
				"labels": tc.wantLabels, "annotations": tc.wantAnnotations, "stringData": tc.wantData,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
			if !s.Inputs["stringData"].ContainsSecrets() {
				t.Error("the secret's data is not a Pulumi secret")
			}
			for _, credential := range []string{"bearerToken", "password", "keyData", "certData", "token"} {
				if strings.Contains(mocks.Await[string](t, gb.Manifest), credential) {
					t.Errorf("the manifest carries %s", credential)
				}
			}
			if diff := cmp.Diff(tc.wantLabels, mocks.Await[map[string]string](t, gb.Labels)); diff != "" {
				t.Errorf("labels output differs from the secret (-want +got):\n%s", diff)
			}
		})
	}
}

func TestManifestIsTheSecret(t *testing.T) {
	cloud, gb := build(t, "spoke1", spokeArgs())
	s := cloud.MustGet(t, secretType, "spoke1-cluster-secret")
	manifest := mocks.Await[string](t, gb.Manifest)
	want := ClusterSecret{
		Name: "spoke1", Namespace: "argocd", ClusterName: "spoke1",
		Labels:      toStrings(t, s.Input("metadata").(map[string]any)["labels"]),
		Annotations: toStrings(t, s.Input("metadata").(map[string]any)["annotations"]),
		Server:      toStrings(t, s.Input("stringData"))["server"],
		Config:      toStrings(t, s.Input("stringData"))["config"],
	}.YAML()
	if manifest != want {
		t.Errorf("manifest is not the secret written to the hub:\n got:\n%s\nwant:\n%s", manifest, want)
	}
}

func TestSpokeSecretGoesThroughTheHubProvider(t *testing.T) {
	cases := map[string]struct {
		reason       string
		opts         func(*pulumi.Context) []pulumi.ResourceOption
		wantProvider string
	}{
		"from hubKubeconfig": {
			reason:       "the component builds a provider for the hub from spoke.hubKubeconfig",
			wantProvider: "spoke1-hub-k8s",
		},
		"explicit": {
			reason: "a kubernetes provider in the options wins",
			opts: func(ctx *pulumi.Context) []pulumi.ResourceOption {
				p, err := kubernetes.NewProvider(ctx, "my-hub", &kubernetes.ProviderArgs{Kubeconfig: pulumi.String(hubKubeconfig)})
				if err != nil {
					t.Fatal(err)
				}
				return []pulumi.ResourceOption{pulumi.Provider(p)}
			},
			wantProvider: "my-hub",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var opts []func(*pulumi.Context) []pulumi.ResourceOption
			if tc.opts != nil {
				opts = append(opts, tc.opts)
			}
			cloud, _ := build(t, "spoke1", spokeArgs(), opts...)
			s := cloud.MustGet(t, secretType, "spoke1-cluster-secret")
			if !strings.Contains(s.Provider, "pulumi:providers:kubernetes::"+tc.wantProvider+"::") {
				t.Errorf("%s: the secret went through %s", tc.reason, s.Provider)
			}
			providers := cloud.OfType("pulumi:providers:kubernetes")
			if len(providers) != 1 {
				t.Fatalf("want one kubernetes provider, got %d", len(providers))
			}
			if kc := providers[0].Inputs["kubeconfig"]; !kc.ContainsSecrets() && tc.opts == nil {
				t.Error("the hub kubeconfig given to the provider is not secret")
			}
			for _, r := range cloud.Resources() {
				if r.Custom && r.Type != secretType && !strings.HasPrefix(r.Type, "pulumi:providers:") {
					t.Errorf("spoke mode installs nothing, but registered %s %s", r.Type, r.Name)
				}
			}
		})
	}
}

func TestOutputFactsAreCheckedWhenTheyResolve(t *testing.T) {
	args := spokeArgs()
	c := cluster("spoke1", "us-west-2")
	c.Environment = pulumi.String("not a label!").ToStringOutput()
	c.SpokeRoleArn = pulumi.String("arn:aws:iam::123:role/short-account").ToStringOutput()
	args.Cluster = c
	_, _, err := run("spoke1", args)
	if err == nil {
		t.Fatal("a bad fact known only as an output was accepted")
	}
	for _, want := range []string{"cluster.environment", "not a label!", "cluster.spokeRoleArn"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q: %v", want, err)
		}
	}
}

func TestUserAddonsWinOverTheCluster(t *testing.T) {
	args := spokeArgs()
	args.Addons = map[string]bool{"cert_manager": false}
	_, gb := build(t, "spoke1", args)
	got := mocks.Await[map[string]string](t, gb.Labels)
	if got["enable_cert_manager"] != "false" {
		t.Errorf("addons should override cluster.addons: enable_cert_manager=%q", got["enable_cert_manager"])
	}
}
