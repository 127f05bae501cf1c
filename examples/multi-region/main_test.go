package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// The example builds three clusters, each through a provider of its own region.
func TestProgramBuildsOneClusterPerRegion(t *testing.T) {
	cloud := mocks.New()
	if err := cloud.Run(program); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range cloud.OfType("eks:index:Cluster") {
		got[r.Region] = true
	}
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		if !got[region] {
			t.Errorf("no cluster in %s (clusters in %v)", region, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("clusters in %d regions, want 3", len(got))
	}
}

// FleetCluster's outputs feed GitOpsBridge with no glue: the hub's management role becomes every spoke's
// hubRoleArn, and each spoke's secret lands in the hub with the spoke's endpoint, CA and role.
func TestFleetClusterOutputsFeedGitOpsBridge(t *testing.T) {
	cloud := mocks.New()
	if err := cloud.Run(program); err != nil {
		t.Fatal(err)
	}
	hubRole := "arn:aws:iam::" + mocks.Account + ":role" + gitopsbridge.HubRolePath + "hub-argocd-management"
	if len(cloud.OfType("kubernetes:helm.sh/v3:Release")) != 1 {
		t.Error("Argo CD should be installed once, on the hub")
	}
	for _, s := range []struct{ name, region string }{{"spoke-use2", "us-east-2"}, {"spoke-usw2", "us-west-2"}} {
		role := cloud.MustGet(t, "aws:iam/role:Role", s.name+"-gitops-spoke-role")
		if trust, _ := role.Input("assumeRolePolicy").(string); !strings.Contains(trust, `"AWS":"`+hubRole+`"`) {
			t.Errorf("%s's spoke role does not trust the hub's management role %s: %s", s.name, hubRole, trust)
		}
		secret := cloud.MustGet(t, "kubernetes:core/v1:Secret", s.name+"-cluster-secret")
		if !strings.Contains(secret.Provider, "::"+s.name+"-hub-k8s::") {
			t.Errorf("%s's secret does not go to the hub: %s", s.name, secret.Provider)
		}
		hubProvider := cloud.MustGet(t, "pulumi:providers:kubernetes", s.name+"-hub-k8s")
		hubCluster := cloud.MustGet(t, "pulumi:providers:kubernetes", "hub-k8s")
		if hubProvider.Input("kubeconfig") != hubCluster.Input("kubeconfig") {
			t.Errorf("%s registers through a kubeconfig other than the hub's", s.name)
		}
		data := secret.Input("stringData").(map[string]any)
		var cfg gitopsbridge.ClusterConfig
		if err := json.Unmarshal([]byte(data["config"].(string)), &cfg); err != nil || cfg.AWSAuthConfig == nil {
			t.Fatalf("%s config has no awsAuthConfig: %v", s.name, data["config"])
		}
		want := "arn:aws:iam::" + mocks.Account + ":role/gitops-fleet/spoke/" + s.name + "-" +
			map[string]string{"us-east-2": "use2", "us-west-2": "usw2"}[s.region] + "-gitops-spoke"
		if cfg.AWSAuthConfig.RoleARN != want || cfg.AWSAuthConfig.ClusterName != s.name || cfg.TLSClientConfig.CAData == "" {
			t.Errorf("%s config = %+v, want role %s", s.name, cfg, want)
		}
		if !strings.Contains(data["server"].(string), "."+s.region+".eks.amazonaws.com") {
			t.Errorf("%s server = %v", s.name, data["server"])
		}
	}
}
