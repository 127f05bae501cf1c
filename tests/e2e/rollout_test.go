package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/rollout"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// testRollout rolls a new add-ons commit out over the dev fleet wave by wave (provider/rollout, as `fleet rollout`
// runs it), gated on the real Argo CD of the hub: the hub (wave 0), then spoke-usw2 (wave 1), then spoke-use2 (wave 2),
// as the stack's config sets them.
// The commit gives the load balancer controller's pods a label that spoke-usw2's platform team refuses (an admission
// policy there): the hub takes it, Synced and Healthy; spoke-usw2's sync of it fails, and the gate says so with the
// policy's words as soon as Argo CD does; spoke-usw2 goes back to its last good commit (its retried sync of the bad
// one ended first), Synced and Healthy there; spoke-use2 never changes; the failure, naming the cluster and Argo CD's
// message, is recorded in the stack config and the stack's rollout output, and a second run changes nothing. Once
// the policy is lifted (and spoke-use2's held-back metrics-server is off), -retry takes the commit to spoke-usw2;
// killed there, after wave 1's `up` and before its gate, the next run resumes at wave 1 (an `up` that changes
// nothing), then takes it to spoke-use2, every wave in order. It leaves the stack config on the fleet-wide revision again (no
// per-cluster pin, no record).
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
	rolloutOutput(t, stack, "spoke-usw2")
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

	// The cause fixed outside the repository: spoke-usw2's platform team lifts its policy, and spoke-use2 stops
	// running metrics-server (its held-back Application would fail wave 2's pre-check). -retry takes the commit on
	// from the wave that failed: spoke-usw2, then spoke-use2 once spoke-usw2 is Synced and Healthy at it.
	usw2 := env.Cluster("spoke-usw2").Typed().AdmissionregistrationV1()
	if err := usw2.ValidatingAdmissionPolicyBindings().Delete(ctx, "refuse-broken-canaries", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := usw2.ValidatingAdmissionPolicies().Delete(ctx, "refuse-broken-canaries", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	stack.SetConfig(map[string]string{"gitops-fleet:clusters[1].addons.metrics_server": "false"})
	stack.Up("up-no-metrics-server-on-use2")
	if _, gone := waitFor(2*time.Minute, func() (string, bool) {
		list, err := status.Applications(ctx, env.Hub().Dynamic())
		return fmt.Sprint(err), err == nil && !slices.ContainsFunc(list, func(a status.Application) bool {
			return a.Name == "addon-spoke-use2-metrics-server"
		})
	}); !gone {
		t.Fatal("spoke-use2's metrics-server Application is still there")
	}
	// The retry is killed as soon as wave 1's `up` returns, before its gate; the next run (no -retry) resumes it at
	// wave 1, whose `up` then changes nothing.
	mark = len(log.String())
	killCtx, kill := context.WithCancel(ctx)
	killed := &killAfterUp{Stack: stack.Auto, wave: 1, kill: kill}
	if _, err := rollout.Run(killCtx, killed, gate, rollout.Options{Revision: bad, Retry: true, Poll: 3 * time.Second,
		Timeout: 3 * time.Minute, Log: &log}); !errors.Is(err, context.Canceled) || len(killed.changes) != 1 {
		t.Fatalf("the killed retry: %v after %d ups (%s); want killed after wave 1's", err, len(killed.changes), log.String()[mark:])
	}
	if _, recorded, err := driver.Clusters(ctx); err != nil || recorded == nil || recorded.State != rollout.Running || recorded.Wave != 1 {
		t.Fatalf("the stack config records %+v, %v after the kill; want running at wave 1", recorded, err)
	}
	resumed := &killAfterUp{Stack: stack.Auto, wave: -1}
	rec, err = rollout.Run(ctx, resumed, gate, rollout.Options{Revision: bad, Poll: 3 * time.Second,
		Timeout: 3 * time.Minute, Log: &log})
	retried := log.String()[mark:]
	t.Logf("the retry, killed and resumed:\n%s", retried)
	if err != nil || rec.State != rollout.Done {
		t.Fatalf("the resumed retry: %+v, %v", rec, err)
	}
	healthy1, start2 := strings.Index(retried, "wave 1: spoke-usw2 Synced and Healthy"), strings.Index(retried, "wave 2: spoke-use2 at")
	if strings.Contains(retried, "wave 0: hub at") || !strings.Contains(retried, "resuming the rollout of "+bad+" at wave 1") ||
		healthy1 < 0 || start2 < healthy1 {
		t.Errorf("the retry: want wave 0 only gated, wave 1 resumed, spoke-use2 changed only after spoke-usw2 was " +
			"Synced and Healthy")
	}
	if len(resumed.changes) == 0 || slices.ContainsFunc(slices.Collect(maps.Keys(resumed.changes[0])), func(op string) bool {
		return op != "same"
	}) {
		t.Errorf("the resumed run's first up (wave 1's again) changed %v; want nothing applied twice", resumed.changes)
	}
	if apps, err = status.Applications(ctx, env.Hub().Dynamic()); err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if strings.HasPrefix(a.Name, "addon-") && (!slices.Contains(a.Revisions, bad) || a.Sync != "Synced" || a.Health != "Healthy") {
			t.Errorf("after the retry %s is %s/%s at %v, want Synced/Healthy at %s", a.Name, a.Sync, a.Health, a.Revisions, bad)
		}
	}
	outputs, err := stack.Auto.Outputs(ctx)
	if got, _ := outputs["rollout"].Value.(map[string]any); err != nil || got["state"] != rollout.Done {
		t.Errorf("the stack's rollout output after the retry: %v, %v", outputs["rollout"].Value, err)
	}
}

// killAfterUp is the fleet's stack for a rollout that is killed (kill: its context cancelled) as soon as the `up` of
// wave returns, before the wave's gate; it keeps each up's resource changes (Pulumi's summary: "same", "update", ...).
type killAfterUp struct {
	Stack   auto.Stack
	wave    int
	kill    context.CancelFunc
	at      int
	changes []map[string]int
}

func (k *killAfterUp) Clusters(ctx context.Context) ([]rollout.Cluster, *rollout.Record, error) {
	return rollout.AutoStack{Stack: k.Stack}.Clusters(ctx)
}

func (k *killAfterUp) Pin(ctx context.Context, field string, values map[int]string, rec rollout.Record) error {
	k.at = rec.Wave
	return rollout.AutoStack{Stack: k.Stack}.Pin(ctx, field, values, rec)
}

func (k *killAfterUp) Publish(ctx context.Context) error {
	return rollout.AutoStack{Stack: k.Stack}.Publish(ctx)
}

func (k *killAfterUp) Up(ctx context.Context) error {
	res, err := k.Stack.Up(ctx)
	if err != nil {
		return err
	}
	if res.Summary.ResourceChanges != nil {
		k.changes = append(k.changes, *res.Summary.ResourceChanges)
	}
	if k.at == k.wave {
		k.kill()
	}
	return nil
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

// testKubernetesRollout rolls Kubernetes 1.34 out over the dev fleet wave by wave (provider/rollout, as `fleet rollout
// -version` runs it), gated on EKS (the offline EKS's DescribeCluster and ListInsights, through the AWS SDK) and on
// the real Argo CD of the hub. spoke-use2 (wave 2) has an upgrade insight in ERROR: the hub and spoke-usw2 are
// upgraded, each wave once EKS says ACTIVE at 1.34 with its add-ons Synced and Healthy; the rollout stops before wave 2
// changes, naming spoke-use2 and EKS's insight, recorded in the stack config; a second run changes nothing. The
// clusters keep the versions they run (a retry, once the insight is resolved, is provider/rollout's TestRunIsIdempotent's
// path; here spoke-use2's held-back metrics-server would fail its pre-check). The API servers stay v1.33: one minor is
// built here.
func testKubernetesRollout(t *testing.T, env *fleettest.Env, stack *fleettest.Stack) {
	ctx := context.Background()
	env, stack = env.For(t), stack.For(t)
	insight := capabilities.InsightSummary{ID: "deprecated-apis", Name: "Deprecated APIs removed in Kubernetes v1.34",
		Category: "UPGRADE_READINESS"}
	insight.InsightStatus.Status, insight.InsightStatus.Reason = "ERROR", "flowcontrol.apiserver.k8s.io/v1beta3 is still requested"
	env.Cloud().Capabilities().SetInsights("spoke-use2", insight)
	defer env.Cloud().Capabilities().SetInsights("spoke-use2")
	defer func() { // the clusters keep the version they run; the record goes
		if err := stack.Auto.RemoveConfig(ctx, rollout.RecordKey); err != nil {
			t.Error(err)
		}
	}()
	var log strings.Builder
	gate := rollout.ArgoCD{Hub: env.Hub().Dynamic(), Namespace: gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons")}
	driver := rollout.AutoStack{Stack: stack.Auto}
	o := rollout.Options{Field: rollout.KubernetesVersion, Revision: "1.34", EKS: rollout.StatusEKS{Client: env.Cloud().EKS},
		Poll: 3 * time.Second, Timeout: 3 * time.Minute, Log: &log}
	started := time.Now()
	rec, err := rollout.Run(ctx, driver, gate, o)
	t.Logf("rollout (%s):\n%s", time.Since(started).Round(time.Second), log.String())
	var failed *rollout.WaveFailed
	if !errors.As(err, &failed) || failed.Wave != 2 || failed.Cluster != "spoke-use2" ||
		!strings.Contains(failed.Message, "before the change: upgrade insight in ERROR") ||
		!strings.Contains(failed.Message, insight.Name) || !strings.Contains(failed.Message, insight.InsightStatus.Reason) {
		t.Fatalf("the rollout: %v; want wave 2 held before it changed, at spoke-use2, with EKS's insight and reason", err)
	}
	if rec.State != rollout.Failed || rec.Field != rollout.KubernetesVersion {
		t.Errorf("the record: %+v", rec)
	}
	rolloutOutput(t, stack, "spoke-use2")
	versions := func() map[string]string { // what EKS says each cluster runs, and what its entry pins
		got := map[string]string{}
		clusters, _, err := driver.Clusters(ctx)
		if err != nil {
			t.Fatal(err)
		}
		described, err := o.EKS.Describe(ctx, clusters)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range clusters {
			got[c.Name] = c.Version + " " + described[c.Name].Status + " " + described[c.Name].Version
		}
		return got
	}
	want := map[string]string{"hub": "1.34 ACTIVE 1.34", "spoke-usw2": "1.34 ACTIVE 1.34", "spoke-use2": "1.33 ACTIVE 1.33"}
	if got := versions(); !maps.Equal(got, want) {
		t.Errorf("pinned and running (EKS): %v, want %v", got, want)
	}
	mark := len(log.String())
	if _, err := rollout.Run(ctx, driver, gate, o); !errors.As(err, &failed) || strings.Contains(log.String()[mark:], "wave ") {
		t.Errorf("a second run: %v (%q); want the recorded failure and no wave changed", err, log.String()[mark:])
	}
}

// rolloutOutput checks the stack's rollout output: the failed rollout's record, naming cluster, as the stack config
// holds it (Stack.Publish's targeted up wrote it).
func rolloutOutput(t *testing.T, stack *fleettest.Stack, cluster string) {
	t.Helper()
	outputs, err := stack.Auto.Outputs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := outputs["rollout"].Value.(map[string]any)
	if got["state"] != rollout.Failed || got["cluster"] != cluster {
		t.Errorf("the stack's rollout output is %v, want the failure at %s", outputs["rollout"].Value, cluster)
	}
}
