package fleet_test

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// managedFleet is the dev fleet with argocd.mode managed.
func managedFleet() FleetArgs {
	a := DevFleet()
	a.Argocd = &gitopsbridge.Hub{Mode: gitopsbridge.ModeManaged, Capability: &gitopsbridge.ManagedArgoCD{
		IdentityCenter: capability.CapabilityIdentityCenter{InstanceArn: "arn:aws:sso:::instance/ssoins-0123456789abcdef"}}}
	return a
}

// TestManagedFleet: with argocd.mode managed the hub runs the capability, each spoke gives the capability's role an
// access entry (no spoke role, no hub networks on its endpoint), every secret names its cluster by ARN, and the hub
// gets no entry of the fleet's for the capability (EKS makes it).
func TestManagedFleet(t *testing.T) {
	cloud, f := build(t, managedFleet())
	cloud.MustGet(t, capability.TypeToken, "hub-argocd")
	if rs := cloud.OfType("kubernetes:helm.sh/v3:Release"); len(rs) > 0 {
		t.Errorf("a managed hub has a Helm release %s", rs[0].Name)
	}
	role := "arn:aws:iam::" + mocks.Account + ":role/gitops-fleet/hub/hub-argocd-capability"
	if got := mocks.Await[string](t, f.ArgocdManagementRoleArn); got != role {
		t.Errorf("argocdManagementRoleArn = %q, want the capability's role", got)
	}
	if got := mocks.Await[string](t, f.ArgocdServerUrl); got != "https://hub.eks-capabilities.us-east-1.amazonaws.com" {
		t.Errorf("argocdServerUrl = %q, want the capability's", got)
	}
	for _, name := range []string{"spoke-a", "spoke-b"} {
		if _, ok := cloud.Named("aws:iam/role:Role", name+"-gitops-spoke-role"); ok {
			t.Errorf("%s has a spoke role; a managed hub reaches it through an access entry", name)
		}
		entries, _ := cloud.MustGet(t, "eks:index:Cluster", name+"-cluster").Input("accessEntries").(map[string]any)
		if got := entries["gitops-spoke"].(map[string]any)["principalArn"]; got != role {
			t.Errorf("%s's hub entry is for %v, want the capability's role", name, got)
		}
	}
	if entries, _ := cloud.MustGet(t, "eks:index:Cluster", "hub-cluster").Input("accessEntries").(map[string]any); entries["gitops-spoke"] != nil {
		t.Error("the hub has an entry of the fleet's for the capability's role; EKS makes that one itself")
	}
	for name, region := range map[string]string{"hub": "us-east-1", "spoke-a": "us-east-2", "spoke-b": "us-east-2"} {
		data, _ := cloud.MustGet(t, "kubernetes:core/v1:Secret", name+"-cluster-secret").Input("stringData").(map[string]any)
		want := "arn:aws:eks:" + region + ":" + mocks.Account + ":cluster/" + name
		if data["server"] != want || data["config"] != gitopsbridge.InClusterConfig() {
			t.Errorf("%s's secret names %v with config %v, want %s and no credential", name, data["server"], data["config"], want)
		}
	}
}

func TestManagedFleetRefusesShards(t *testing.T) {
	a := managedFleet()
	a.Shards = []Shard{{Name: "eu", CidrPool: "10.128.0.0/12", Clusters: []string{"spoke-eu"}}}
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error { _, err := NewFleet(ctx, "fleet", a); return err })
	if err == nil || !strings.Contains(err.Error(), "shards: a managed hub (argocd.mode managed) takes no shards yet") {
		t.Errorf("error %v", err)
	}
	if n := len(cloud.Resources()); n != 0 {
		t.Errorf("%d resources registered before the refusal", n)
	}
}
