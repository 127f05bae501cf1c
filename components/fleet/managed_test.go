package fleet_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
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

// TestManagedHubHandsShardsTheCapability: a managed hub takes shards. Its hubFacts name the capability's role and
// mode managed, with no egress network (AWS's managed Argo CD reaches the spokes from AWS's network) and no
// controller replicas (AWS runs the controller); its projects admit the shard's clusters.
func TestManagedHubHandsShardsTheCapability(t *testing.T) {
	a := hubStack()
	a.Argocd = managedFleet().Argocd
	cloud, f := build(t, a)
	facts := mocks.Await[HubFacts](t, f.HubFacts)
	role := "arn:aws:iam::" + mocks.Account + ":role/gitops-fleet/hub/hub-argocd-capability"
	if facts.Mode != gitopsbridge.ModeManaged || facts.ManagementRoleArn != role || len(facts.EgressCidrs) != 0 ||
		facts.ControllerReplicas != 0 || len(facts.Shards) != 1 {
		t.Errorf("hubFacts %+v, want mode managed, the capability's role %s, no egress, no replicas, shard us", facts, role)
	}
	project := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "hub-project-"+gitopsbridge.AddonApplicationsProject)
	if raw, _ := json.Marshal(project.Input("spec")); !strings.Contains(string(raw), `"name":"spoke-us2"`) {
		t.Errorf("the managed hub's add-ons project admits no shard cluster: %s", raw)
	}
}

// TestShardOfManagedHub: a shard of a managed hub (its hubFacts.mode managed, read through the stack reference, or
// hub.mode given with the facts) builds its spokes as the managed hub's own: each gives the capability's role an
// access entry and has no spoke role and no hub network on its endpoint, and each cluster secret names its cluster
// by ARN with no credential (EKS User Guide, "Register target clusters").
func TestShardOfManagedHub(t *testing.T) {
	role := "arn:aws:iam::111122223333:role/gitops-fleet/hub/hub-argocd-capability"
	kubeconfig := `{"clusters":[{"name":"managed"}]}`
	for name, hub := range map[string]struct {
		ref     *HubRef
		outputs map[string]any
	}{
		"through the hub's stack": {outputs: map[string]any{
			"hubFacts": map[string]any{"managementRoleArn": role, "mode": "managed", "egressCidrs": []any{},
				"vpcCidrs": map[string]any{"hub": "10.0.0.0/16"}, "shards": hubOutputs["hubFacts"].(map[string]any)["shards"]},
			"hubKubeconfig": kubeconfig}},
		"facts given": {ref: &HubRef{ManagementRoleArn: role, Mode: gitopsbridge.ModeManaged, Kubeconfig: &kubeconfig}},
	} {
		t.Run(name, func(t *testing.T) {
			a := shardStack()
			if hub.ref != nil {
				a.Hub = hub.ref
			}
			cloud, _, err := runShardOf(t, a, hub.outputs)
			if err != nil {
				t.Fatal(err)
			}
			for _, spoke := range []string{"spoke-us1", "spoke-us2"} {
				if _, ok := cloud.Named("aws:iam/role:Role", spoke+"-gitops-spoke-role"); ok {
					t.Errorf("%s has a spoke role; a managed hub reaches it through an access entry", spoke)
				}
				eks := cloud.MustGet(t, "eks:index:Cluster", spoke+"-cluster")
				entries, _ := eks.Input("accessEntries").(map[string]any)
				if got := entries["gitops-spoke"].(map[string]any)["principalArn"]; got != role {
					t.Errorf("%s's hub entry is for %v, want the capability's role", spoke, got)
				}
				data, _ := cloud.MustGet(t, "kubernetes:core/v1:Secret", spoke+"-cluster-secret").Input("stringData").(map[string]any)
				want := "arn:aws:eks:us-east-2:" + mocks.Account + ":cluster/" + spoke
				if data["server"] != want || data["config"] != gitopsbridge.InClusterConfig() {
					t.Errorf("%s's secret names %v with config %v, want %s and no credential", spoke, data["server"],
						data["config"], want)
				}
			}
		})
	}
}
