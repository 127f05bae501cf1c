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

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
)

// TestShards runs the example's hub stack, then its two shard stacks against it, in one backend, each cluster on a
// real control plane: each shard reads
// the hub's facts through a stack reference, its spokes' cluster secrets land in the hub, its VPCs in its pool. A
// toggle in one shard plans changes in that shard only; destroying a shard removes its spokes only; every stack
// plans no change after each step.
func TestShards(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	stacks := shardStacks(t, env, "hub", "shard-us", "shard-eu")
	outputs := map[string]auto.OutputMap{}
	for _, name := range []string{"hub", "shard-us", "shard-eu"} {
		up, err := stacks[name].Up(ctx, optup.ProgressStreams(progress(t, env, "up-"+name)))
		if err != nil {
			t.Fatalf("up %s: %v", name, err)
		}
		outputs[name] = up.Outputs
	}
	settled := func(when string) { t.Helper(); settledAll(t, env, stacks, when) }
	settled("after the ups")

	hub := controlplane.Name("us-east-1", "hub")
	inHub := func() []string { return clusterSecrets(t, env, "us-east-1", "hub") }
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
	for _, f := range records(t, env, "github", "github:index/repositoryFile:RepositoryFile") {
		if strings.Contains(f.ID, "deploy/shards/") {
			shardFiles = append(shardFiles, f.ID)
		}
	}
	slices.Sort(shardFiles)
	if want := []string{"pulumi-fleet/deploy/shards/shards/stack-eu.yaml", "pulumi-fleet/deploy/shards/shards/stack-us.yaml"}; !slices.Equal(shardFiles, want) {
		t.Errorf("the shard Stacks' files %v, want %v", shardFiles, want)
	}
	var metrics int
	templates, err := dynamicClient(t, env, hub).Resource(schema.GroupVersionResource{Group: "argoproj.io",
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
	if out, err := env.FleetStatus(fleetDir(env), "hub", "-json", "-eks=false"); err != nil {
		t.Error(err)
	} else if err := json.Unmarshal(out, &report); err != nil {
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
	err = stacks["shard-us"].SetConfigWithOptions(ctx, "gitops-fleet:clusters[1].addons.aws_ebs_csi_driver",
		auto.ConfigValue{Value: "true"}, &auto.ConfigOptions{Path: true})
	if err != nil {
		t.Fatal(err)
	}
	// The real Kubernetes provider previews spoke-us2's cluster secret as a replacement: its annotations take the
	// new add-on role's ARN, unknown until the role exists. The up itself updates the secret in place.
	if p := planOf(previewSteps(t, env, *stacks["shard-us"], "preview-toggle")); len(p["create"]) == 0 || len(p["delete"]) > 0 {
		t.Errorf("enabling the EBS CSI driver on spoke-us2 previews %v, want creates, and no delete", p)
	}
	if p := planOf(upSteps(t, env, *stacks["shard-us"], "up-toggle")); len(p["create"]) == 0 || len(p["delete"]) > 0 || len(p["replace"]) > 0 || len(p["update"]) != 1 {
		t.Errorf("enabling the EBS CSI driver on spoke-us2 does %v, want creates and the cluster secret's update only", p)
	}
	settled("after the toggle")

	// Removing a shard removes its spokes only.
	if _, err := stacks["shard-eu"].Destroy(ctx, optdestroy.ProgressStreams(progress(t, env, "destroy-shard-eu"))); err != nil {
		t.Fatalf("destroy shard-eu: %v", err)
	}
	delete(stacks, "shard-eu")
	if got, want := inHub(), []string{"hub", "spoke-us1", "spoke-us2"}; !slices.Equal(got, want) {
		t.Errorf("cluster secrets in the hub after shard-eu's removal: %v, want %v", got, want)
	}
	for _, r := range records(t, env, "aws", "aws:eks/cluster:Cluster") {
		if r.ID == "spoke-eu1" {
			t.Error("spoke-eu1's EKS cluster is still there after its shard's removal")
		}
	}
	settled("after shard-eu's removal")
}

// shardStacks are the example's stacks of names in env, with the delivery's secrets where they deliver; they are
// destroyed at the end of the test, the hub's last.
func shardStacks(t *testing.T, env *offline.Env, names ...string) map[string]*auto.Stack {
	t.Helper()
	ctx := context.Background()
	stacks := map[string]*auto.Stack{}
	for _, name := range names {
		s, err := env.Stack(ctx, fleetDir(env), name, fleetstack.Run)
		if err == nil {
			err = offline.SetDeliverySecrets(ctx, s)
		}
		if err != nil {
			t.Fatal(err)
		}
		stacks[name] = &s
	}
	t.Cleanup(func() {
		for i := len(names) - 1; i >= 0; i-- {
			if s, ok := stacks[names[i]]; ok {
				_, _ = s.Destroy(ctx)
			}
		}
	})
	return stacks
}

// settledAll previews every stack expecting no change, and reports the ones that plan some, when.
func settledAll(t *testing.T, env *offline.Env, stacks map[string]*auto.Stack, when string) {
	t.Helper()
	for name, s := range stacks {
		if _, err := s.Preview(context.Background(), optpreview.ExpectNoChanges(),
			optpreview.ProgressStreams(progress(t, env, "settled-"+name))); err != nil {
			t.Errorf("%s: preview of %s expects changes: %v", when, name, err)
		}
	}
}
