package gitopsbridge

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const (
	hubKubeconfig = `{"apiVersion":"v1","kind":"Config","clusters":[{"name":"hub"}]}`
	spokeRoleArn  = "arn:aws:iam::210987654321:role/gitops-fleet/spoke/spoke1-usw2-gitops-spoke"
	secretType    = "kubernetes:core/v1:Secret"
)

// cluster are the plain facts of a cluster named name in region.
func cluster(name, region string) clusterinfo.ClusterInfoArgs {
	return clusterinfo.ClusterInfoArgs{
		ClusterName:              pulumi.String(name),
		Environment:              pulumi.String("dev"),
		Server:                   pulumi.String("https://" + name + ".gr7." + region + ".eks.amazonaws.com"),
		CertificateAuthorityData: pulumi.String("Q0Egb2Yg" + name),
		Region:                   pulumi.String(region),
		AccountId:                pulumi.String("123456789012"),
		KubernetesVersion:        pulumi.String("1.33"),
		Kubeconfig:               pulumi.String(`{"clusters":[{"name":"` + name + `"}]}`),
		GitOpsMetadata:           pulumi.StringMap{"aws_cluster_name": pulumi.String(name), "aws_region": pulumi.String(region)},
		Addons:                   pulumi.BoolMap{"cert_manager": pulumi.Bool(true)},
	}
}

// hubArgs registers "hub" in us-east-1 as an Argo CD hub.
func hubArgs() GitOpsBridgeArgs {
	return GitOpsBridgeArgs{Cluster: cluster("hub", "us-east-1"), Hub: &Hub{}}
}

// spokeArgs registers "spoke1" in us-west-2 into the hub.
func spokeArgs() GitOpsBridgeArgs {
	c := cluster("spoke1", "us-west-2")
	c.SpokeRoleArn = pulumi.String(spokeRoleArn)
	return GitOpsBridgeArgs{Cluster: c, Spoke: &Spoke{HubKubeconfig: pulumi.String(hubKubeconfig)}}
}

// run runs one GitOpsBridge under mocks and returns the cloud, the component and the program's error.
func run(name string, args GitOpsBridgeArgs, opts ...func(*pulumi.Context) []pulumi.ResourceOption,
) (*mocks.Cloud, *GitOpsBridge, error) {
	cloud := mocks.New()
	var gb *GitOpsBridge
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var ro []pulumi.ResourceOption
		for _, o := range opts {
			ro = append(ro, o(ctx)...)
		}
		var err error
		gb, err = NewGitOpsBridge(ctx, name, args, ro...)
		return err
	})
	return cloud, gb, err
}

// build is run that fails the test on error.
func build(t *testing.T, name string, args GitOpsBridgeArgs, opts ...func(*pulumi.Context) []pulumi.ResourceOption,
) (*mocks.Cloud, *GitOpsBridge) {
	t.Helper()
	cloud, gb, err := run(name, args, opts...)
	if err != nil {
		t.Fatalf("NewGitOpsBridge: %v", err)
	}
	return cloud, gb
}

// toStrings is a plain map input as map[string]string.
func toStrings(t *testing.T, v any) map[string]string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v is not a map", v)
	}
	out := map[string]string{}
	for k, s := range m {
		out[k] = s.(string)
	}
	return out
}
