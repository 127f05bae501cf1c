package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestShards runs the example's hub stack, then its two shard stacks against it, in one backend, each cluster on a
// real control plane: each shard reads
// the hub's facts through a stack reference, its spokes' cluster secrets land in the hub, its VPCs in its pool. A
// toggle in one shard plans changes in that shard only; destroying a shard removes its spokes only; every stack
// plans no change after each step.
func TestShards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	stacks := shardStacks(env, "hub", "shard-us", "shard-eu")
	outputs := map[string]auto.OutputMap{}
	for _, name := range []string{"hub", "shard-us", "shard-eu"} {
		outputs[name] = stacks[name].Up("up-" + name).Outputs
	}
	settled := func(when string) { t.Helper(); settledAll(t, stacks, when) }
	settled("after the ups")

	hub := env.Hub()
	inHub := func() []string { return hub.ClusterSecrets() }
	if got, want := inHub(), []string{"hub", "spoke-eu1", "spoke-us1", "spoke-us2"}; !slices.Equal(got, want) {
		t.Errorf("cluster secrets in the hub: %v, want %v", got, want)
	}
	for shard, pool := range map[string]string{"shard-us": "10.64.0.0/12", "shard-eu": "10.80.0.0/12"} {
		p := netip.MustParsePrefix(pool)
		cidrs, _ := outputs[shard]["vpcCidrs"].Value.(map[string]any)
		for name, cidr := range cidrs {
			if c, err := netip.ParsePrefix(fmt.Sprint(cidr)); err != nil || !p.Contains(c.Addr()) {
				t.Errorf("%s's %s has VPC %v, outside its pool %s", shard, name, cidr, pool)
			}
		}
		if len(cidrs) == 0 {
			t.Errorf("%s has no VPC CIDRs", shard)
		}
	}

	// The hub delivers the shard stacks by GitOps: one stage, a Stack per shard in its folder, both moved by one
	// promotion and verified by one AnalysisTemplate, a metric per Stack.
	if got := outputs["hub"]["deliveryStageStacks"].Value; fmt.Sprint(got) != "map[shards:[fleet-shards-shards-us fleet-shards-shards-eu]]" {
		t.Errorf("the hub's delivery stages' Stacks: %v", got)
	}
	var shardFiles []string
	for _, f := range env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile") {
		if strings.Contains(f.ID, "deploy/shards/") {
			shardFiles = append(shardFiles, f.ID)
		}
	}
	slices.Sort(shardFiles)
	if want := []string{"pulumi-fleet/deploy/shards/shards/stack-eu.yaml", "pulumi-fleet/deploy/shards/shards/stack-us.yaml"}; !slices.Equal(shardFiles, want) {
		t.Errorf("the shard Stacks' files %v, want %v", shardFiles, want)
	}
	var metrics int
	templates, err := hub.Dynamic().Resource(schema.GroupVersionResource{Group: "argoproj.io",
		Version: "v1alpha1", Resource: "analysistemplates"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range templates.Items {
		if tpl.GetName() == "stack-status-shards" {
			list, _, _ := unstructured.NestedSlice(tpl.Object, "spec", "metrics")
			metrics = len(list)
		}
	}
	if metrics != 2 {
		t.Errorf("the shards stage's AnalysisTemplate has %d metrics, want one per shard Stack", metrics)
	}

	// fleet status over the project reads the three stacks, each shard's spokes against the one hub.
	var report status.Report
	if err := json.Unmarshal(stacks["hub"].FleetStatus("-json", "-eks=false", "-connection=false"), &report); err != nil {
		t.Error(err)
	}
	shardOf := map[string]string{}
	for _, c := range report.Clusters {
		shardOf[c.Stack+"/"+c.Name] = c.Shard
		if c.ArgoCD != "reachable" {
			t.Errorf("fleet status: %s of stack %s: Argo CD %s, want the hub's read", c.Name, c.Stack, c.ArgoCD)
		}
	}
	if want := map[string]string{"hub/hub": "", "shard-us/spoke-us1": "us", "shard-us/spoke-us2": "us",
		"shard-eu/spoke-eu1": "eu"}; !maps.Equal(shardOf, want) || len(report.Unreachable) > 0 {
		t.Errorf("fleet status: clusters (stack/name: shard) %v, unreachable %q; want %v and every source read", shardOf,
			report.Unreachable, want)
	}

	// A toggle in one shard is that shard's change only.
	stacks["shard-us"].SetConfig(map[string]string{"gitops-fleet:clusters[1].addons.aws_ebs_csi_driver": "true"})
	// The real Kubernetes provider previews spoke-us2's cluster secret as a replacement: its annotations take the
	// new add-on role's ARN, unknown until the role exists. The up itself updates the secret in place.
	if p := stacks["shard-us"].Preview("preview-toggle").Plan(); len(p["create"]) == 0 || len(p["delete"]) > 0 {
		t.Errorf("enabling the EBS CSI driver on spoke-us2 previews %v, want creates, and no delete", p)
	}
	if p := stacks["shard-us"].Up("up-toggle").Steps.Plan(); len(p["create"]) == 0 || len(p["delete"]) > 0 || len(p["replace"]) > 0 || len(p["update"]) != 1 {
		t.Errorf("enabling the EBS CSI driver on spoke-us2 does %v, want creates and the cluster secret's update only", p)
	}
	settled("after the toggle")

	// Removing a shard removes its spokes only.
	stacks["shard-eu"].Destroy("destroy-shard-eu")
	delete(stacks, "shard-eu")
	if got, want := inHub(), []string{"hub", "spoke-us1", "spoke-us2"}; !slices.Equal(got, want) {
		t.Errorf("cluster secrets in the hub after shard-eu's removal: %v, want %v", got, want)
	}
	for _, r := range env.Cloud().Records("aws", "aws:eks/cluster:Cluster") {
		if r.ID == "spoke-eu1" {
			t.Error("spoke-eu1's EKS cluster is still there after its shard's removal")
		}
	}
	settled("after shard-eu's removal")
}

// shardStacks are the example's stacks of names in env, with the delivery's secrets where they deliver.
func shardStacks(env *fleettest.Env, names ...string) map[string]*fleettest.Stack {
	stacks := map[string]*fleettest.Stack{}
	for _, name := range names {
		stacks[name] = env.Fleet(name)
	}
	return stacks
}

// settledAll previews every stack expecting no change, and reports the ones that plan some, when.
func settledAll(t *testing.T, stacks map[string]*fleettest.Stack, when string) {
	t.Helper()
	for name, s := range stacks {
		if err := s.For(t).TryPreview("settled-"+name, optpreview.ExpectNoChanges()); err != nil {
			t.Errorf("%s: preview of %s expects changes: %v", when, name, err)
		}
	}
}
