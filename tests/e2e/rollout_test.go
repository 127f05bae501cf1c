package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/rollout"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// testRollout rolls a new add-ons commit out over the dev fleet wave by wave (provider/rollout, as `fleet rollout`
// runs it), gated on the real Argo CD of the hub: the hub (wave 0), then spoke-usw2 (wave 1), then spoke-use2 (wave 2).
// The commit gives the load balancer controller's pods a label that spoke-usw2's platform team refuses (an admission
// policy there): the hub takes it, Synced and Healthy; spoke-usw2's sync of it fails, and the gate says so with the
// policy's words as soon as Argo CD does; spoke-usw2 goes back to its last good commit (its retried sync of the bad
// one ended first), Synced and Healthy there; spoke-use2 never changes; the failure, naming the cluster and Argo CD's
// message, is recorded in the stack config, and a second run changes nothing. It leaves the stack config on the
// fleet-wide revision again (no per-cluster pin, no record).
func testRollout(t *testing.T, env *fleettest.Env, stack *fleettest.Stack, lastGood string) {
	ctx := context.Background()
	env, stack = env.For(t), stack.For(t)
	refuseCanary(t, env.Cluster("spoke-usw2").Typed())
	src := t.TempDir()
	if err := os.CopyFS(src, os.DirFS(filepath.Join(env.Root(), offline.AddonsFixture))); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, src, map[string]string{
		"environments/default/addons/aws-load-balancer-controller/values.yaml": "podLabels:\n  fleet-canary: broken\n"})
	bad := env.Git().Publish(offline.AddonsRepo, src, "add-ons: a canary label on the load balancer controller")
	defer func() { // the next subtests move the fleet-wide revision: no cluster keeps a pin of its own
		for _, key := range []string{"gitops-fleet:clusters[0].addonsRepoRevision", "gitops-fleet:clusters[1].addonsRepoRevision",
			"gitops-fleet:clusters[2].addonsRepoRevision", rollout.RecordKey} {
			if err := stack.Auto.RemoveConfigWithOptions(ctx, key, &auto.ConfigOptions{Path: true}); err != nil {
				t.Error(err)
			}
		}
	}()
	stack.SetConfig(map[string]string{"gitops-fleet:clusters[1].wave": "2", "gitops-fleet:clusters[2].wave": "1"})
	stack.Up("up-waves")

	var log strings.Builder
	gate := rollout.ArgoCD{Hub: env.Hub().Dynamic(), Namespace: gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons")}
	driver := rollout.AutoStack{Stack: stack.Auto}
	started := time.Now()
	rec, err := rollout.Run(ctx, driver, gate, rollout.Options{Revision: bad, Poll: 3 * time.Second, Timeout: 3 * time.Minute, Log: &log})
	t.Logf("rollout (%s):\n%s", time.Since(started).Round(time.Second), log.String())
	var failed *rollout.WaveFailed
	if !errors.As(err, &failed) || failed.Wave != 1 || failed.Cluster != "spoke-usw2" ||
		failed.Application != "addon-spoke-usw2-aws-load-balancer-controller" ||
		strings.Contains(failed.Message, "not Synced and Healthy") || !strings.Contains(failed.Message, canaryRefused) {
		t.Fatalf("the rollout: %v; want wave 1 failed at spoke-usw2's load balancer controller with the admission "+
			"policy's words, as soon as Argo CD says so (not at the timeout)", err)
	}
	if strings.Contains(log.String(), "not Synced and Healthy at its last good revision") {
		t.Errorf("spoke-usw2 did not come back Synced and Healthy at its last good commit:\n%s", log.String())
	}
	if rec.State != rollout.Failed || rec.Cluster != "spoke-usw2" {
		t.Errorf("the record: %+v", rec)
	}
	clusters, recorded, err := driver.Clusters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hub": bad, "spoke-usw2": lastGood, "spoke-use2": lastGood}
	for _, c := range clusters {
		if c.Revision != want[c.Name] {
			t.Errorf("the stack config pins %s at %s, want %s", c.Name, c.Revision, want[c.Name])
		}
	}
	if recorded == nil || recorded.State != rollout.Failed || recorded.Message != failed.Message {
		t.Errorf("the stack config records %+v, want the failure", recorded)
	}
	// What Argo CD compares each cluster's Applications at: the hub at the new commit, spoke-usw2 back at the last
	// good one, spoke-use2 never moved; all Synced and Healthy but spoke-use2's held-back metrics-server.
	apps, err := status.Applications(ctx, env.Hub().Dynamic())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if !strings.HasPrefix(a.Name, "addon-") {
			continue
		}
		rev := want[a.Cluster]
		if !slices.Contains(a.Revisions, rev) {
			t.Errorf("%s compares at %v, want %s", a.Name, a.Revisions, rev)
		}
		if a.Name != "addon-spoke-use2-metrics-server" && (a.Sync != "Synced" || a.Health != "Healthy") {
			t.Errorf("%s is %s/%s", a.Name, a.Sync, a.Health)
		}
	}
	mark := len(log.String())
	if _, err := rollout.Run(ctx, driver, gate, rollout.Options{Revision: bad, Log: &log}); !errors.As(err, &failed) ||
		strings.Contains(log.String()[mark:], "wave ") {
		t.Errorf("a second run: %v (%q); want the recorded failure and no wave changed", err, log.String()[mark:])
	}

}

// canaryRefused is the message of refuseCanary's policy.
const canaryRefused = "pods labelled fleet-canary: broken are refused on this cluster"

// refuseCanary makes kube's API server refuse Deployments whose pods carry the label fleet-canary: broken (a platform
// team's admission policy): an add-ons commit that adds it fails to sync on that cluster, saying why.
func refuseCanary(t *testing.T, kube kubernetes.Interface) {
	t.Helper()
	refuseDeployments(t, kube, "refuse-broken-canaries",
		"object.spec.template.metadata.?labels[?'fleet-canary'].orValue('') != 'broken'", canaryRefused)
}
