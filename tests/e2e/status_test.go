package e2e

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/browser"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// holdBack makes kube's API server refuse Deployments named name (a platform team's admission policy): Argo CD's
// sync of that add-on fails on that cluster, saying why.
func holdBack(t *testing.T, kube kubernetes.Interface, name string) {
	t.Helper()
	refuseDeployments(t, kube, "hold-back-"+name, "object.metadata.name != '"+name+"'",
		name+" is held back on this cluster by its platform team")
}

// refuseDeployments has kube's API server refuse the Deployments (created or updated) for which expression (CEL over
// object) is false, with message: a ValidatingAdmissionPolicy named name and its binding, as a platform team of the
// cluster would write.
func refuseDeployments(t *testing.T, kube kubernetes.Interface, name, expression, message string) {
	t.Helper()
	ctx := context.Background()
	policy := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionv1.RuleWithOperations{
					Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
					Rule: admissionv1.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"},
						Resources: []string{"deployments"}}}}}},
			Validations: []admissionv1.Validation{{Expression: expression, Message: message}},
		}}
	if _, err := kube.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: policy.Name},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: policy.Name,
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny}}}
	if _, err := kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// fleetStatusShows: after the dev fleet's up, with Argo CD's add-on Applications want (name -> true) Synced and
// Healthy, metrics-server held back on spoke-use2 (holdBack), an upgrade insight on spoke-use2 and a policy
// attachment of spoke-usw2's node role removed in the cloud behind the stack's back (the stack still holds it),
// fleet status reports every cluster with its node groups, what EKS says (ACTIVE, its version, the insight), each
// spoke add-on ok with the real Application's name but metrics-server failed on spoke-use2 alone with the policy's
// words, and the drift on spoke-usw2 only; the table and the HTML page say the same.
func fleetStatusShows(t *testing.T, env *fleettest.Env, stack *fleettest.Stack, want map[string]bool) {
	env, stack = env.For(t), stack.For(t)
	insight := capabilities.InsightSummary{ID: "deprecated-apis", Name: "Deprecated APIs removed in Kubernetes v1.34",
		Category: "UPGRADE_READINESS"}
	insight.InsightStatus.Status = "WARNING"
	env.Cloud().Capabilities().SetInsights("spoke-use2", insight)
	// Someone detaches a policy from one of spoke-usw2's roles in the console (the offline cloud forgets it).
	var drifted string
	for _, rec := range env.Cloud().Records("aws", "aws:iam/rolePolicyAttachment:RolePolicyAttachment") {
		if name := rec.URN[strings.LastIndex(rec.URN, "::")+2:]; strings.HasPrefix(name, "spoke-usw2-node") && drifted == "" {
			if _, err := env.Cloud().Store().Delete("aws", rec.Type, rec.ID); err != nil {
				t.Fatal(err)
			}
			drifted = name
		}
	}
	if drifted == "" {
		t.Fatal("spoke-usw2 has no node role policy attachment")
	}
	// Argo CD's controllers run as this machine's processes, not behind the hub API's pod proxy: fleet status reads
	// their metrics at their URLs, each cluster's connection state as the controller of its shard reports it.
	var metrics []string
	for _, u := range env.Hub().ArgoCD().ControllerMetrics() {
		metrics = append(metrics, "-argocd-metrics", u)
	}
	run := func(args ...string) []byte { return stack.FleetStatus(append(args, metrics...)...) }
	held := func(r status.Report) status.Addon {
		for _, c := range r.Clusters {
			if a, ok := c.Addon("metrics_server"); ok && c.Name == "spoke-use2" {
				return a
			}
		}
		return status.Addon{}
	}
	r, ok := waitFor(3*time.Minute, func() (status.Report, bool) {
		var r status.Report
		err := json.Unmarshal(run("-json", "-drift"), &r)
		a := held(r)
		// The controllers report the clusters their cache holds every 30 s (clustercollector.go).
		connected := !slices.ContainsFunc(r.Clusters, func(c status.Cluster) bool { return c.Connection != status.ConnectionSuccessful })
		return r, err == nil && a.State() == "failed" && strings.Contains(a.Message, "metrics-server is held back on this cluster") && connected
	})
	if a := held(r); !ok || !strings.Contains(a.Message, "metrics-server is held back on this cluster") ||
		a.Application != "addon-spoke-use2-metrics-server" {
		t.Errorf("spoke-use2's metrics_server: %+v; want failed, from its Application, with the policy's words", a)
	}
	if len(r.Unreachable) > 0 {
		t.Errorf("unreachable: %q", r.Unreachable)
	}
	var names []string
	for _, c := range r.Clusters {
		names = append(names, c.Name)
		if c.EKS == nil || c.EKS.Status != "ACTIVE" || c.EKS.Version != c.KubernetesVersion || len(c.NodeGroups) == 0 ||
			c.ArgoCD != "reachable" || c.Stack != "dev" || c.Connection != status.ConnectionSuccessful {
			t.Errorf("%s: EKS %+v, node groups %v, Argo CD %s (connection %s), stack %s", c.Name, c.EKS, c.NodeGroups,
				c.ArgoCD, c.Connection, c.Stack)
		}
		if got := c.EKS != nil && len(c.EKS.Insights) == 1 && c.EKS.Insights[0].Name == insight.Name; got != (c.Name == "spoke-use2") {
			t.Errorf("%s: EKS %+v; want the upgrade insight on spoke-use2 only", c.Name, c.EKS)
		}
		stack := 0
		for _, a := range c.Addons {
			if a.ThroughStack {
				stack++
			}
			// The hub's add-ons are its stack's charts (argocd.stackAddons in Pulumi.dev.yaml): no Application.
			if a.ThroughStack != (c.Name == "hub") || c.Name == "hub" && (a.State() != "stack" || a.Application != "") {
				t.Errorf("%s %s: %+v; want the hub's add-ons installed by its stack, in state stack, no other", c.Name, a.Name, a)
			}
			if a.Name == "metrics_server" && c.Name == "spoke-usw2" && a.State() != "ok" {
				t.Errorf("%s metrics_server: %+v; want ok, failed on spoke-use2 only", c.Name, a)
			}
			if app := "addon-" + c.Name + "-" + strings.ReplaceAll(a.Name, "_", "-"); want[app] && (a.State() != "ok" || a.Application != app) {
				t.Errorf("%s %s: %+v, want ok from its Application", c.Name, a.Name, a)
			}
			if a.State() == "ok" && a.Application == "" {
				t.Errorf("%s %s is ok with no Application", c.Name, a.Name)
			}
		}
		if c.Name == "hub" && stack != 4 {
			t.Errorf("the hub's add-ons %+v; want its stack's four (aws_ebs_csi_resources, which the EBS CSI driver implies, in its row)", c.Addons)
		}
		if got := slices.Contains(c.Drifted, drifted); got != (c.Name == "spoke-usw2") {
			t.Errorf("%s: drifted %v; want %s on spoke-usw2 only", c.Name, c.Drifted, drifted)
		}
	}
	if !slices.Equal(names, slices.Sorted(maps.Keys(devClusters))) || len(r.Stacks) != 1 || !r.Stacks[0].DriftChecked {
		t.Errorf("clusters %v, stacks %+v; want the dev stack's three, its drift checked", names, r.Stacks)
	}
	// The hub's load: planned by the Fleet (the stack's hubCapacity output) and running on the hub's Argo CD (the
	// offline add-ons repository holds two of the template's ApplicationSets, so fewer run than are planned).
	live, err := status.Applications(context.Background(), env.Hub().Dynamic())
	if c := r.Stacks[0].Capacity; err != nil || c == nil || c.Clusters != 3 || c.ControllerReplicas != 2 ||
		c.ShardingAlgorithm != "consistent-hashing" || c.Planned < 3 || c.Running < 1 || c.Running > c.Planned || c.Running > len(live) {
		t.Errorf("the hub's capacity: %+v (%d Applications on the hub, %v); want 3 clusters, the controller sharded "+
			"over 2 replicas (the test's budget), some of the planned Applications running", c, len(live), err)
	}
	// Each row counts its add-ons per state and names the failed ones (the JSON above has every add-on's state).
	// While Argo CD retries the held-back sync, an attempt in progress shows it progressing: the table is read again
	// until it shows the failure.
	table, _ := waitFor(2*time.Minute, func() (string, bool) {
		table := string(run("-eks=false"))
		return table, strings.Count(table, "failed: metrics_server") == 1
	})
	t.Logf("fleet status:\n%s", table)
	if strings.Count(table, "failed: metrics_server") != 1 || strings.Count(table, "reachable") != 3 ||
		strings.Count(table, status.ConnectionSuccessful) != 3 ||
		!strings.Contains(table, "unchecked") || !strings.Contains(table, "hub of stack dev: ") {
		t.Errorf("the table:\n%s", table)
	}
	// -failing: spoke-use2 alone (its held-back metrics-server); -wave 1: spoke-usw2 alone.
	for _, tc := range []struct {
		args []string
		want string
	}{{[]string{"-failing"}, "spoke-use2"}, {[]string{"-wave", "1"}, "spoke-usw2"}} {
		filtered, ok := waitFor(2*time.Minute, func() (status.Report, bool) {
			var r status.Report
			err := json.Unmarshal(run(append([]string{"-json", "-eks=false"}, tc.args...)...), &r)
			return r, err == nil && len(r.Clusters) == 1 && r.Clusters[0].Name == tc.want
		})
		if !ok {
			t.Errorf("fleet status %v: %+v; want %s alone", tc.args, filtered.Clusters, tc.want)
		}
	}
	// The live page, opened in Chromium, shows each cluster's add-ons in the states the report gives them. The
	// report is read before and after the page, and the two must agree (Argo CD may move an add-on in between).
	page := filepath.Join(t.TempDir(), "status.html")
	states := func() map[string]map[string]string {
		var r status.Report
		if err := json.Unmarshal(run("-json", "-eks=false"), &r); err != nil {
			t.Fatal(err)
		}
		out := map[string]map[string]string{}
		for _, c := range r.Clusters {
			out[c.Name] = map[string]string{}
			for _, a := range c.Addons {
				out[c.Name][a.Name] = a.State()
			}
		}
		return out
	}
	var before map[string]map[string]string
	for try := 0; try < 3; try++ {
		before = states()
		run("-html", page, "-eks=false")
		if after := states(); maps.EqualFunc(before, after, maps.Equal) {
			break
		}
	}
	shown, opened := map[string]map[string]string{}, browser.Open(t, page)
	for c, cell := range opened.Connections() {
		if cell.Text != status.ConnectionSuccessful {
			t.Errorf("the live page shows %s's Argo CD connection %q, want %s", c, cell.Text, status.ConnectionSuccessful)
		}
	}
	if n := len(opened.Connections()); n != len(names) {
		t.Errorf("the live page shows %d clusters' connections, want %d", n, len(names))
	}
	for c, row := range opened.Matrix() {
		shown[c] = map[string]string{}
		for a, cell := range row {
			if cell.Text != "-" { // a column of an add-on the cluster does not enable
				shown[c][a] = cell.Text
			}
		}
	}
	if d := cmp.Diff(before, shown); d != "" || len(shown) != len(names) {
		t.Errorf("the live page as Chromium shows it, against the report (-report +page):\n%s", d)
	}
	// -addons: a row per cluster and add-on with the chart version Argo CD deployed.
	addons := string(run("-addons", "-eks=false"))
	t.Logf("fleet status -addons:\n%s", addons)
	if !strings.HasPrefix(addons, "CLUSTER") || strings.Count(addons, "\n") != 1+func() (n int) {
		for _, row := range before {
			n += len(row)
		}
		return n
	}() {
		t.Errorf("fleet status -addons: a row per cluster and add-on expected:\n%s", addons)
	}
}
