package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/blang/semver"
	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
	"github.com/pulumi/pulumi-go-provider/integration"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// server serves the provider over the mock cloud. FleetCluster is wrapped only to hand the cloud the
// program's context, which it needs for pulumi-eks's stand-ins; GitOpsBridge and StackDelivery are served as they are.
func server(t *testing.T, cloud *mocks.Cloud) integration.Server {
	t.Helper()
	prov, err := build([]infer.InferredComponent{
		infer.ComponentF(func(ctx *pulumi.Context, name string, args fleetcluster.FleetClusterArgs,
			opts ...pulumi.ResourceOption,
		) (*fleetcluster.FleetCluster, error) {
			cloud.Bind(ctx)
			return fleetcluster.NewFleetCluster(ctx, name, args, opts...)
		}),
		infer.ComponentF(gitopsbridge.NewGitOpsBridge),
		infer.ComponentF(delivery.NewStackDelivery),
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := integration.NewServer(context.Background(), Name, semver.MustParse("1.0.0"),
		integration.WithProvider(prov), integration.WithMocks(cloud))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func urn(typ, name string) resource.URN { return resource.URN(mocks.URN("", typ, name)) }

func TestConstructFleetCluster(t *testing.T) {
	cloud := mocks.New()
	resp, err := server(t, cloud).Construct(p.ConstructRequest{
		Urn: urn(fleetcluster.TypeToken, "apps"),
		Inputs: property.NewMap(map[string]property.Value{
			"region":      property.New("us-west-2"),
			"environment": property.New("dev"),
			"addons":      property.New(map[string]property.Value{"external_dns": property.New(true)}),
			"addonSettings": property.New(map[string]property.Value{"externalDns": property.New(map[string]property.Value{
				"hostedZoneIds": property.New([]property.Value{property.New("Z0123456789")}),
				"domainFilters": property.New([]property.Value{property.New("apps.example.com")}),
			})}),
			"nodeGroups": property.New([]property.Value{property.New(map[string]property.Value{
				"name": property.New("general"), "instanceTypes": property.New([]property.Value{property.New("m7i.large")}),
				"minSize": property.New(1.0), "desiredSize": property.New(2.0), "maxSize": property.New(3.0),
			})}),
		}),
	})
	if err != nil {
		t.Fatalf("Construct: %v", err)
	}
	for typ, name := range map[string]string{
		"awsx:ec2:Vpc": "apps-vpc", "eks:index:Cluster": "apps-cluster",
		"aws:eks/nodeGroup:NodeGroup": "apps-ng-general", "aws:iam/role:Role": "apps-irsa-external-dns",
	} {
		r := cloud.MustGet(t, typ, name)
		if r.Region != "us-west-2" {
			t.Errorf("%s %s in region %q", typ, name, r.Region)
		}
	}
	state := resp.State.AsMap()
	if got := state["clusterName"].AsString(); got != "apps" {
		t.Errorf("clusterName = %q", got)
	}
	if got := state["region"].AsString(); got != "us-west-2" {
		t.Errorf("region = %q", got)
	}
	if md := state["gitopsMetadata"].AsMap(); md.Get("external_dns_iam_role_arn").AsString() == "" {
		t.Errorf("gitopsMetadata has no external_dns role: %v", md)
	}
	if !state["kubeconfig"].Secret() {
		t.Error("kubeconfig is not secret in the construct response")
	}
	info := state["clusterInfo"]
	if !info.Secret() && !info.AsMap().Get("kubeconfig").Secret() {
		t.Error("clusterInfo's kubeconfig is not secret")
	}
}

func TestConstructGitOpsBridge(t *testing.T) {
	cloud := mocks.New()
	kubeconfig := property.New(`{"clusters":[]}`).WithSecret(true)
	cluster := map[string]property.Value{
		"clusterName": property.New("spoke1"), "environment": property.New("dev"),
		"server": property.New("https://spoke1.example"), "certificateAuthorityData": property.New("Q0E="),
		"region": property.New("us-east-2"), "accountId": property.New("123456789012"),
		"kubernetesVersion": property.New("1.33"), "kubeconfig": kubeconfig,
		"spokeRoleArn": property.New("arn:aws:iam::123456789012:role/gitops-fleet/spoke/spoke1"),
	}
	resp, err := server(t, cloud).Construct(p.ConstructRequest{
		Urn: urn(gitopsbridge.TypeToken, "spoke1"),
		Inputs: property.NewMap(map[string]property.Value{
			"cluster": property.New(cluster),
			"addons":  property.New(map[string]property.Value{"cert_manager": property.New(true)}),
			"spoke":   property.New(map[string]property.Value{"hubKubeconfig": property.New(`{"hub":1}`).WithSecret(true)}),
		}),
	})
	if err != nil {
		t.Fatalf("Construct: %v", err)
	}
	secret := cloud.MustGet(t, "kubernetes:core/v1:Secret", "spoke1-cluster-secret")
	if !strings.Contains(secret.Provider, "::spoke1-hub-k8s::") || !secret.Inputs["stringData"].ContainsSecrets() {
		t.Errorf("the secret should go through the hub provider with secret data: %s", secret.Provider)
	}
	hub := cloud.MustGet(t, "pulumi:providers:kubernetes", "spoke1-hub-k8s")
	if !hub.Inputs["kubeconfig"].ContainsSecrets() {
		t.Error("the secret hubKubeconfig input lost its secrecy on the way to the hub provider")
	}
	labels := resp.State.Get("labels").AsMap()
	if labels.Get("enable_cert_manager").AsString() != "true" || labels.Get("cluster_name").AsString() != "spoke1" {
		t.Errorf("labels = %v", labels)
	}
	if m := resp.State.Get("manifest").AsString(); !strings.Contains(m, "awsAuthConfig") || strings.Contains(m, `"hub":1`) {
		t.Errorf("manifest should carry awsAuthConfig and no kubeconfig:\n%s", m)
	}
}

// TestConstructHubRegisteredSecrets: a hub's registeredSecrets, sent by an SDK as a list of manifests (a spoke
// GitOpsBridge's manifest output), one of them secret, reach the admission guard as registrations of exactly what
// each spoke writes, labels and annotations included; the hub's secret writers join the chart's.
func TestConstructHubRegisteredSecrets(t *testing.T) {
	cloud := mocks.New()
	info := property.New(map[string]property.Value{
		"clusterName": property.New("hub"), "environment": property.New("dev"),
		"server": property.New("https://hub.example"), "certificateAuthorityData": property.New("Q0E="),
		"region": property.New("us-east-2"), "accountId": property.New("123456789012"),
		"kubernetesVersion": property.New("1.33"), "kubeconfig": property.New(`{"clusters":[]}`).WithSecret(true),
	})
	role := "arn:aws:iam::123456789012:role/gitops-fleet/spoke/spoke1"
	spoke := gitopsbridge.ClusterSecret{Name: "spoke1", Namespace: "argocd", ClusterName: "spoke1",
		Labels:      gitopsbridge.Labels("spoke1", "dev", "1.33", 1, map[string]bool{"karpenter": true}, nil),
		Annotations: map[string]string{"aws_region": "us-east-2"},
		Server:      "https://spoke1.example", Config: gitopsbridge.SpokeConfig("spoke1", role, "Q0E=")}
	_, err := server(t, cloud).Construct(p.ConstructRequest{
		Urn: urn(gitopsbridge.TypeToken, "hub"),
		Inputs: property.NewMap(map[string]property.Value{
			"cluster": info,
			"hub": property.New(map[string]property.Value{
				"registeredSecrets": property.New([]property.Value{property.New(spoke.YAML()).WithSecret(true)}),
				"secretWriters":     property.New([]property.Value{property.New("system:serviceaccount:external-secrets:external-secrets")}),
			}),
		}),
	})
	if err != nil {
		t.Fatalf("Construct: %v", err)
	}
	policy := cloud.MustGet(t, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy", "hub-cluster-secrets-policy")
	raw, _ := json.Marshal(policy.Input("spec"))
	for _, want := range []string{"spoke1", "https://spoke1.example", gitopsbridge.SpokeConfig("spoke1", role, "Q0E=")} {
		if b := base64.StdEncoding.EncodeToString([]byte(want)); !strings.Contains(string(raw), b) {
			t.Errorf("the guard does not register %q (%s): %s", want, b, raw)
		}
	}
	for _, want := range []string{`enable_karpenter\": \"true\"`, `aws_region\": \"us-east-2\"`,
		"system:serviceaccount:external-secrets:external-secrets", "system:serviceaccount:argocd:argocd-server"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the guard lacks %s: %s", want, raw)
		}
	}
}

// TestConstructStackDelivery: a StackDelivery from a property map, as an SDK sends it: the stages in order, and
// the secret inputs (kubeconfig, the Kargo admin settings) still secret where they are used.
func TestConstructStackDelivery(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	cloud := mocks.New()
	str := func(v string) property.Value { return property.New(v) }
	stage := func(name string) property.Value {
		return property.New(map[string]property.Value{"name": str(name), "stack": str("acme/fleet/" + name),
			"commit": str("1111111111111111111111111111111111111111")})
	}
	resp, err := server(t, cloud).Construct(p.ConstructRequest{
		Urn: urn(delivery.TypeToken, "fleet"),
		Inputs: property.NewMap(map[string]property.Value{
			"kubeconfig": str(`{"clusters":[]}`).WithSecret(true),
			"program":    property.New(map[string]property.Value{"repoUrl": str("https://github.com/acme/platform.git")}),
			"manifests":  property.New(map[string]property.Value{"owner": str("acme"), "repository": str("deploy")}),
			"stages":     property.New([]property.Value{stage("dev"), stage("prod")}),
			"kargo": property.New(map[string]property.Value{
				"adminPasswordHash": str("$2a$10$abcdefghijklmnopqrstuv").WithSecret(true),
				"tokenSigningKey":   str("signing-canary").WithSecret(true),
				"certManager":       str("present"),
			}),
		}),
	})
	if err != nil {
		t.Fatalf("Construct: %v", err)
	}
	var stages []string
	for _, v := range resp.State.Get("stages").AsArray().AsSlice() {
		stages = append(stages, v.AsString())
	}
	if strings.Join(stages, ",") != "dev,prod" {
		t.Errorf("stages = %v", stages)
	}
	if hub := cloud.MustGet(t, "pulumi:providers:kubernetes", "fleet-hub"); !hub.Inputs["kubeconfig"].ContainsSecrets() {
		t.Error("the secret kubeconfig lost its secrecy on the way to the hub provider")
	}
	if kargo := cloud.MustGet(t, "kubernetes:helm.sh/v3:Release", "fleet-kargo"); !kargo.Inputs["values"].ContainsSecrets() {
		t.Error("Kargo's admin settings are not secret in its Helm values")
	}
	cloud.MustGet(t, "kubernetes:kargo.akuity.io/v1alpha1:Stage", "fleet-prod-stage")
}

func TestConstructReportsInputErrors(t *testing.T) {
	cloud := mocks.New()
	_, err := server(t, cloud).Construct(p.ConstructRequest{
		Urn: urn(fleetcluster.TypeToken, "bad"),
		Inputs: property.NewMap(map[string]property.Value{
			"region":  property.New("nowhere"),
			"vpcCidr": property.New("10.0.0.0/33"),
		}),
	})
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.InvalidArgument {
		t.Fatalf("want an InvalidArgument status, got %v", err)
	}
	fields := map[string]string{}
	for _, d := range st.Details() {
		if ipe, ok := d.(*pulumirpc.InputPropertiesError); ok {
			for _, e := range ipe.GetErrors() {
				fields[e.GetPropertyPath()] = e.GetReason()
			}
		}
	}
	for _, f := range []string{"region", "vpcCidr"} {
		if fields[f] == "" {
			t.Errorf("no input error for %s; got %v", f, fields)
		}
	}
	if n := len(cloud.Resources()); n != 0 {
		t.Errorf("%d resources registered for invalid inputs", n)
	}
}
