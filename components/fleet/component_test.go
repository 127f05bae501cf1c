package fleet_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// build runs a Fleet under mocks.
func build(t *testing.T, args FleetArgs) (*mocks.Cloud, *Fleet) {
	t.Helper()
	cloud := mocks.New()
	var f *Fleet
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		f, err = NewFleet(ctx, "fleet", args)
		return err
	})
	if err != nil {
		t.Fatalf("NewFleet: %v", err)
	}
	return cloud, f
}

func TestFleetSharesProvidersAndBuildsTheHubFirst(t *testing.T) {
	cloud, f := build(t, DevFleet())
	var awsNames, k8sNames []string
	for _, r := range cloud.OfType("pulumi:providers:aws") {
		awsNames = append(awsNames, r.Name)
	}
	for _, r := range cloud.OfType("pulumi:providers:kubernetes") {
		k8sNames = append(k8sNames, r.Name)
	}
	if !slices.Equal(awsNames, []string{"aws-us-east-1", "aws-us-east-2"}) {
		t.Errorf("aws providers %v: want one per region, shared by the two us-east-2 spokes", awsNames)
	}
	if !slices.Equal(k8sNames, []string{"hub-k8s"}) {
		t.Errorf("kubernetes providers %v: want the hub's only", k8sNames)
	}
	for _, name := range []string{"hub", "spoke-a", "spoke-b"} {
		s := cloud.MustGet(t, "kubernetes:core/v1:Secret", name+"-cluster-secret")
		if !strings.Contains(s.Provider, "pulumi:providers:kubernetes::hub-k8s::") {
			t.Errorf("%s's cluster secret went through %s, not the hub provider", name, s.Provider)
		}
	}
	order := map[string]int{}
	for i, r := range cloud.Resources() {
		if _, seen := order[r.Type+"/"+r.Name]; !seen {
			order[r.Type+"/"+r.Name] = i
		}
	}
	if order[ledger.TypeToken+"/fleet-ledger"] > order["pulumi:providers:aws/aws-us-east-1"] ||
		order["fleet:index:FleetCluster/hub"] > order["fleet:index:FleetCluster/spoke-a"] {
		t.Errorf("registration order: want the ledger first, then the hub before the spokes: %v", order)
	}
	if _, ok := cloud.Named("aws:iam/role:Role", "hub-gitops-spoke-role"); ok {
		t.Error("the hub got a spoke role")
	}
	cloud.MustGet(t, "aws:iam/role:Role", "spoke-b-gitops-spoke-role")

	cidrs := map[string]string{}
	for _, name := range []string{"hub", "spoke-a", "spoke-b"} {
		cidrs[name], _ = cloud.MustGet(t, "awsx:ec2:Vpc", name+"-vpc").Input("cidrBlock").(string)
	}
	want := map[string]string{"hub": "10.0.0.0/16", "spoke-a": "10.20.0.0/16", "spoke-b": "10.1.0.0/16"}
	if !maps.Equal(cidrs, want) {
		t.Errorf("VPC CIDRs %v, want %v (given, or the pool's free blocks in order)", cidrs, want)
	}
	if got := mocks.Await[map[string]string](t, f.VpcCidrs); !maps.Equal(got, want) {
		t.Errorf("vpcCidrs output %v, want %v", got, want)
	}
	summary := mocks.Await[map[string]ClusterSummary](t, f.Clusters)
	if s := summary["spoke-b"]; s.Role != Spoke || s.Region != "us-east-2" || s.SecretName != "spoke-b" ||
		s.Labels["environment"] != "test" || s.VpcCidr != "10.1.0.0/16" {
		t.Errorf("clusters[spoke-b] = %+v", s)
	}
	if len(mocks.Await[map[string]string](t, f.Kubeconfigs)) != 3 {
		t.Error("want a kubeconfig per cluster")
	}
}

func TestFleetWithInvalidInputsRegistersNothing(t *testing.T) {
	cloud := mocks.New()
	args := DevFleet()
	args.Clusters[2].VpcCidr = "10.20.0.0/16"
	err := cloud.Run(func(ctx *pulumi.Context) error {
		_, err := NewFleet(ctx, "fleet", args)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "clusters[2].vpcCidr") {
		t.Fatalf("want the overlap at clusters[2].vpcCidr, got %v", err)
	}
	if n := len(cloud.Resources()); n != 0 {
		t.Errorf("%d resources registered", n)
	}
}

func TestFleetWithGitDeliveryWritesNoSecret(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	args := DevFleet()
	args.Clusters[2].Environment = "staging"
	args.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry", PullRequest: true}
	cloud, _ := build(t, args)
	if n := len(cloud.OfType("kubernetes:core/v1:Secret")); n != 0 {
		t.Errorf("%d cluster secrets written into the hub; with Git delivery they come from the registry", n)
	}
	var apps []string
	for _, a := range cloud.OfType("kubernetes:argoproj.io/v1alpha1:Application") {
		apps = append(apps, a.Input("metadata").(map[string]any)["name"].(string))
	}
	slices.Sort(apps)
	if want := []string{"cluster-registry-staging", "cluster-registry-test"}; !slices.Equal(apps, want) {
		t.Errorf("registry Applications %v, want one per environment of the fleet %v", apps, want)
	}
	if n := len(cloud.OfType("pulumi:providers:github")); n != 1 {
		t.Errorf("%d github providers, want the fleet's one", n)
	}
}

// TestProvidersPerRolePath: two roles of one name under two paths are two identities, so two aws providers; a
// role without a path keeps the name it always had.
func TestProvidersPerRolePath(t *testing.T) {
	args := DevFleet()
	args.Argocd = &gitopsbridge.Hub{SpokeAccountIds: []string{"111122223333"}}
	args.Clusters[0].AssumeRoleArn = "arn:aws:iam::111122223333:role/deploy"
	args.Clusters[1].AssumeRoleArn = "arn:aws:iam::111122223333:role/team-a/deploy"
	args.Clusters[2].AssumeRoleArn = "arn:aws:iam::111122223333:role/team-b/deploy"
	cloud, _ := build(t, args)
	var names []string
	for _, r := range cloud.OfType("pulumi:providers:aws") {
		names = append(names, r.Name)
	}
	want := []string{"aws-us-east-1-111122223333-deploy", "aws-us-east-2-111122223333-team-a-deploy",
		"aws-us-east-2-111122223333-team-b-deploy"}
	if !slices.Equal(names, want) {
		t.Errorf("aws providers %v, want %v", names, want)
	}
	// Two roles whose path and name join alike (team/a-deploy and team-a/deploy) are still two providers.
	args.Clusters[2].Region = "us-east-2"
	args.Clusters[1].AssumeRoleArn = "arn:aws:iam::111122223333:role/team/a-deploy"
	cloud, _ = build(t, args)
	roles := map[string]string{}
	for _, r := range cloud.OfType("pulumi:providers:aws") {
		arn, _ := r.Input("assumeRole").(map[string]any)["roleArn"].(string)
		roles[arn] = r.Name
	}
	if len(roles) != 3 || roles["arn:aws:iam::111122223333:role/team/a-deploy"] == roles["arn:aws:iam::111122223333:role/team-a/deploy"] {
		t.Errorf("aws providers by role %v: want one each", roles)
	}
}

// TestAddonsProjectNamesTheFleet: the add-ons' Applications may deploy to the fleet's spokes, each by name, and, the
// hub enabling add-ons of its own, to the hub (every namespace but Argo CD's), never by its name.
func TestAddonsProjectNamesTheFleet(t *testing.T) {
	cloud, _ := build(t, DevFleet())
	var dests []any
	for _, r := range cloud.OfType("kubernetes:argoproj.io/v1alpha1:AppProject") {
		if md, _ := r.Input("metadata").(map[string]any); md["name"] == gitopsbridge.AddonApplicationsProject {
			dests = r.Input("spec").(map[string]any)["destinations"].([]any)
		}
	}
	var names []string
	for _, d := range dests {
		if n, ok := d.(map[string]any)["name"].(string); ok {
			names = append(names, n)
		}
	}
	if !slices.Equal(names, []string{"spoke-a", "spoke-b"}) {
		t.Errorf("default destinations by name %v (all %v)", names, dests)
	}
	hub := map[string]any{"server": gitopsbridge.InClusterServer, "namespace": "!argocd"}
	if len(dests) == 0 || !cmp.Equal(dests[0], hub) {
		t.Errorf("default destinations %v: the hub enables add-ons, so its namespaces but Argo CD's come first", dests)
	}
}

// TestHubGuardAdmitsWhatTheSpokesWrite: the hub, built before its spokes, pins in its admission guard exactly the
// data, labels and annotations of each spoke's cluster secret, so a Git sync may write those secrets and no other.
func TestHubGuardAdmitsWhatTheSpokesWrite(t *testing.T) {
	cloud, _ := build(t, DevFleet())
	registered := guardRegistered(t, cloud)
	for _, spoke := range []string{"spoke-a", "spoke-b"} {
		secret := cloud.MustGet(t, "kubernetes:core/v1:Secret", spoke+"-cluster-secret")
		md := secret.Input("metadata").(map[string]any)
		for _, part := range []string{"labels", "annotations"} {
			if len(md[part].(map[string]any)) == 0 {
				t.Errorf("%s's secret has no %s", spoke, part)
			}
			for k, v := range md[part].(map[string]any) {
				if want := fmt.Sprintf("%q: %q", k, v); !strings.Contains(registered, want) {
					t.Errorf("the hub's guard does not pin %s's %s", spoke, want)
				}
			}
		}
		data := secret.Input("stringData").(map[string]any)
		for _, k := range []string{"name", "server", "config"} {
			if b := base64.StdEncoding.EncodeToString([]byte(data[k].(string))); !strings.Contains(registered, b) {
				t.Errorf("the hub's guard does not admit %s's %s %q (base64 %s): %s", spoke, k, data[k], b, registered)
			}
		}
	}
}
