package status

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// fixture is the dev fleet's clusters output (testdata/clusters.json) with Argo CD's Applications: metrics-server
// fails to sync on spoke-use2 only, karpenter is progressing there, the hub's load balancer controller has no
// Application, the hub's Fluent Bit is its stack's (throughStack; a Degraded Application Argo CD kept from before
// does not count); Argo CD's controllers reach the hub and spoke-use2, and report nothing of spoke-usw2.
func fixture(t *testing.T) Report {
	t.Helper()
	data, err := os.ReadFile("testdata/clusters.json")
	if err != nil {
		t.Fatal(err)
	}
	var outputs map[string]any
	if err := json.Unmarshal(data, &outputs); err != nil {
		t.Fatal(err)
	}
	apps := []Application{
		{Name: "addon-hub-metrics-server", Cluster: "hub", Sync: "Synced", Health: "Healthy",
			Revisions: []string{"0e1f6d1b8a4c3e2f9a7b6c5d4e3f2a1b0c9d8e7f", "3.12.2"}},
		{Name: "addon-hub-aws-for-fluent-bit", Cluster: "hub", Sync: "OutOfSync", Health: "Degraded"},
		{Name: "addon-spoke-use2-metrics-server", Cluster: "spoke-use2", Sync: "OutOfSync", Health: "Missing",
			Message: "one or more objects failed to apply: chart metrics-server 9.9.9 not found"},
		{Name: "addon-spoke-use2-karpenter", Cluster: "spoke-use2", Sync: "Synced", Health: "Progressing",
			Revisions: []string{"0e1f6d1b8a4c3e2f9a7b6c5d4e3f2a1b0c9d8e7f"}},
		{Name: "addon-spoke-usw2-metrics-server", Cluster: "spoke-usw2", Sync: "Synced", Health: "Healthy"},
		{Name: "addon-elsewhere-metrics-server", Cluster: "elsewhere", Sync: "OutOfSync", Health: "Degraded"},
	}
	r := Report{At: time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC),
		Clusters: WithConnections(WithApplications(FromOutputs("dev", outputs), apps),
			map[string]string{"hub": ConnectionSuccessful, "spoke-use2": ConnectionSuccessful, "elsewhere": ConnectionFailed}),
		Stacks: []Stack{{Name: "dev", DriftChecked: true, Drifted: []string{"spoke-use2-cluster-secret"}}}}
	r.Clusters[1].Drifted = ofClusters(r.Stacks[0].Drifted, r.Clusters)["spoke-use2"]
	r.Clusters[0].EKS = &EKS{Status: "ACTIVE", Version: "1.33", PlatformVersion: "eks.5"}
	r.Clusters[1].EKS = &EKS{Status: "ACTIVE", Version: "1.33", PlatformVersion: "eks.5",
		Insights: []Insight{{Name: "Deprecated APIs removed in Kubernetes v1.34", Status: "WARNING", Reason: "in use"}}}
	return r
}

func TestFromOutputsAndApplications(t *testing.T) {
	r := fixture(t)
	got := map[string]map[string]string{}
	for _, c := range r.Clusters {
		got[c.Name] = map[string]string{"decommissioned": map[bool]string{true: "yes", false: "no"}[c.Decommissioned]}
		for _, a := range c.Addons {
			got[c.Name][a.Name] = a.State()
		}
	}
	want := map[string]map[string]string{
		"hub": {"decommissioned": "no", "metrics_server": "ok", "aws_load_balancer_controller": "unknown",
			"aws_for_fluentbit": "stack"},
		"spoke-use2": {"decommissioned": "no", "metrics_server": "failed", "karpenter": "progressing"},
		"spoke-usw2": {"decommissioned": "yes", "metrics_server": "ok"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("states (-want +got):\n%s", d)
	}
	hub := r.Clusters[0]
	lbc, _ := hub.Addon("aws_load_balancer_controller")
	if lbc.Version != "2.7.1" || !strings.HasSuffix(lbc.IamRoleArn, "-aws-load-balancer-controller") ||
		hub.NodeGroups[0].String() != "system 2 (2-4) m6i.large ON_DEMAND" || hub.SecretName != "hub" {
		t.Errorf("the hub from its output: %+v", hub)
	}
	metrics, _ := hub.Addon("metrics_server")
	karpenter, _ := r.Clusters[1].Addon("karpenter")
	if metrics.Deployed != "3.12.2" || karpenter.Deployed != "" || lbc.Deployed != "" {
		t.Errorf("deployed charts %q, %q, %q; want the chart's version of a multi-source Application, none of "+
			"commits only or of no Application", metrics.Deployed, karpenter.Deployed, lbc.Deployed)
	}
	if r.Clusters[2].SecretName != "spoke-usw2" || r.Clusters[2].NodeGroups != nil {
		t.Errorf("an output without secretName or nodeGroups: %+v, want the cluster's name as its secret's", r.Clusters[2])
	}
	unread := FromOutputs("dev", map[string]any{"a": map[string]any{"labels": map[string]any{"enable_x": "true"}}})
	if a := unread[0].Addons[0]; a.State() != "unknown" || unread[0].ArgoCD != Unknown {
		t.Errorf("before Argo CD is read: %+v, ArgoCD %q; want unknown, never healthy", a, unread[0].ArgoCD)
	}
}

func TestState(t *testing.T) {
	cases := map[string]struct {
		reason string
		addon  Addon
		want   string
	}{
		"healthy":     {"Synced and Healthy", Addon{Sync: "Synced", Health: "Healthy"}, "ok"},
		"unknown":     {"nothing reported is never healthy", Addon{Sync: Unknown, Health: "Healthy"}, "unknown"},
		"degraded":    {"synced but broken", Addon{Sync: "Synced", Health: "Degraded"}, "failed"},
		"sync failed": {"a failed sync says why", Addon{Sync: "OutOfSync", Health: "Missing", Message: "failed"}, "failed"},
		"pending":     {"out of sync with no failure: Argo CD is at it", Addon{Sync: "OutOfSync", Health: "Healthy"}, "progressing"},
		"rolling":     {"rolling out", Addon{Sync: "Synced", Health: "Progressing"}, "progressing"},
		"stack":       {"a hub add-on its stack installs has no Application", Addon{ThroughStack: true}, "stack"},
	}
	for name, tc := range cases {
		if got := tc.addon.State(); got != tc.want {
			t.Errorf("%s (%s): %s, want %s", name, tc.reason, got, tc.want)
		}
	}
}

func TestTable(t *testing.T) {
	r := fixture(t)
	r.Unreachable = []string{"stack prod: no such stack"}
	r.Stacks[0].Rollout = &Rollout{Revision: "c1", Wave: 2, State: "failed", Cluster: "spoke-use2", Message: "held back"}
	r.Stacks[0].Capacity = &Capacity{Planned: 240, Running: 236, Clusters: 61, ControllerReplicas: 2,
		ShardingAlgorithm: "consistent-hashing"}
	var plain, coloured bytes.Buffer
	if err := Table(&plain, r, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
	for i, want := range []string{"CLUSTER", "hub ", "spoke-use2 ", "spoke-usw2 (decommissioned)",
		"hub of stack dev: 236 Applications on the hub's Argo CD (240 planned), 61 clusters; application controller: 2 replicas, consistent-hashing",
		"rollout of stack dev: c1 at wave 2, failed: spoke-use2: held back", "unreachable: stack prod"} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
			t.Fatalf("line %d does not start with %q:\n%s", i, want, plain.String())
		}
	}
	// The wave from the stack's output; "-" for a stack that does not say (spoke-usw2's, from before waves).
	for i, want := range []string{"us-east-1 hub 0 1.33", "us-east-2 spoke 1 1.33", "us-west-2 spoke - 1.32"} {
		if !strings.Contains(strings.Join(strings.Fields(lines[i+1]), " "), want) {
			t.Errorf("row %d lacks %q (region, role, wave, Kubernetes):\n%s", i+1, want, lines[i+1])
		}
	}
	for i, want := range []string{
		"system 2 (2-4) m6i.large ON_DEMAND ACTIVE 1.33 eks.5 none reachable Successful",
		"system 2 (1-3) m6i.large,m7i.large SPOT ACTIVE 1.33 eks.5, 1 upgrade insight(s) 1 resource(s) reachable Successful",
		"1.32 Unknown none reachable Unknown",
	} {
		if !strings.Contains(strings.Join(strings.Fields(lines[i+1]), " "), want) {
			t.Errorf("row %d lacks %q (node groups, EKS, drift, Argo CD read, its connection):\n%s", i+1, want, lines[i+1])
		}
	}
	// The add-ons as a count per state, the failed ones named.
	if !strings.HasSuffix(lines[2], "1 progressing, failed: metrics_server") || !strings.HasSuffix(lines[1], "1 ok, 1 stack, 1 unknown") ||
		strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("table:\n%s", plain.String())
	}
	if err := Table(&coloured, r, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(coloured.String(), "\x1b[31mfailed: metrics_server\x1b[0m") ||
		strings.Count(coloured.String(), "\x1b[32mSuccessful\x1b[0m") != 2 || !strings.Contains(coloured.String(), "\x1b[90mUnknown\x1b[0m") {
		t.Errorf("a failed add-on is not red, or a connection not green (Successful) or grey (Unknown), on a terminal:\n%q", coloured.String())
	}
}

func TestAddonTable(t *testing.T) {
	var out bytes.Buffer
	if err := AddonTable(&out, fixture(t), false); err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		rows = append(rows, strings.Fields(line)[:7])
	}
	want := [][]string{
		{"CLUSTER", "ADD-ON", "STATE", "VERSION", "DEPLOYED", "SYNC", "HEALTH"},
		{"hub", "aws_for_fluentbit", "stack", "2.31.12.20231011", "-", "-", "-"},
		{"hub", "aws_load_balancer_controller", "unknown", "2.7.1", "-", "Unknown", "Unknown"},
		{"hub", "metrics_server", "ok", "-", "3.12.2", "Synced", "Healthy"},
		{"spoke-use2", "karpenter", "progressing", "-", "-", "Synced", "Progressing"},
		{"spoke-use2", "metrics_server", "failed", "-", "-", "OutOfSync", "Missing"},
		{"spoke-usw2", "metrics_server", "ok", "-", "-", "Synced", "Healthy"},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("fleet status -addons (-want +got):\n%s\n%s", d, out.String())
	}
	if !strings.Contains(out.String(), "one or more objects failed to apply: chart metrics-server 9.9.9 not found") {
		t.Errorf("the failed add-on's message is not shown:\n%s", out.String())
	}
}

func TestJSON(t *testing.T) {
	r := fixture(t)
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, back); d != "" {
		t.Errorf("JSON does not read back (-written +read):\n%s", d)
	}
}

// TestHTML parses the page as a browser does (golang.org/x/net/html) and reads its matrix back: one row per cluster,
// one column per add-on, each cell's class its state and its link a details section of the page; no external asset.
func TestHTML(t *testing.T) {
	r := fixture(t)
	var b bytes.Buffer
	if err := HTML(&b, r, 0); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	matrix, ids, connections := map[string]map[string]string{}, map[string]bool{}, map[string]string{}
	var links []string
	var walk func(n *html.Node, cluster string)
	walk = func(n *html.Node, cluster string) {
		attr := func(k string) string {
			for _, a := range n.Attr {
				if a.Key == k {
					return a.Val
				}
			}
			return ""
		}
		if n.Type == html.ElementNode {
			if id := attr("id"); id != "" {
				ids[id] = true
			}
			switch {
			case n.Data == "tr" && attr("data-cluster") != "":
				cluster = attr("data-cluster")
				matrix[cluster] = map[string]string{}
			case n.Data == "td" && attr("data-addon") != "":
				matrix[cluster][attr("data-addon")] = attr("class")
			case n.Data == "td" && attr("data-connection") != "":
				connections[cluster] = attr("data-connection") + " " + attr("class")
			case n.Data == "a":
				links = append(links, attr("href"))
			case n.Data == "link" || n.Data == "script" || n.Data == "img":
				t.Errorf("the page loads an asset: <%s %v>", n.Data, n.Attr)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, cluster)
		}
	}
	walk(doc, "")
	want := map[string]map[string]string{
		"hub": {"aws_for_fluentbit": "stack", "aws_load_balancer_controller": "unknown", "karpenter": "none",
			"metrics_server": "ok"},
		"spoke-use2": {"aws_for_fluentbit": "none", "aws_load_balancer_controller": "none", "karpenter": "progressing",
			"metrics_server": "failed"},
		"spoke-usw2": {"aws_for_fluentbit": "none", "aws_load_balancer_controller": "none", "karpenter": "none",
			"metrics_server": "ok"},
	}
	if d := cmp.Diff(want, matrix); d != "" {
		t.Errorf("matrix (-want +got):\n%s", d)
	}
	wantConnections := map[string]string{"hub": "Successful connection ok", "spoke-use2": "Successful connection ok",
		"spoke-usw2": "Unknown connection unknown"}
	if d := cmp.Diff(wantConnections, connections); d != "" {
		t.Errorf("Argo CD's connections (-want +got):\n%s", d)
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "#") || !ids[l[1:]] {
			t.Errorf("cell link %s leads to no details on the page", l)
		}
	}
	if len(links) != 6 || !strings.Contains(b.String(), "chart metrics-server 9.9.9 not found") ||
		!strings.Contains(b.String(), "Installed by the hub's stack (argocd.stackAddons): no Argo CD Application") {
		t.Errorf("%d links; the failure's message is in the details: %v", len(links), strings.Contains(b.String(), "9.9.9"))
	}
	if strings.Contains(b.String(), "http-equiv") {
		t.Error("a page written once reloads itself")
	}
	b.Reset()
	if err := HTML(&b, r, 30*time.Second); err != nil || !strings.Contains(b.String(), `<meta http-equiv="refresh" content="30">`) {
		t.Errorf("a watched page does not reload every 30 s (%v)", err)
	}
}

// TestApplicationsByChart: an add-on's Application is found by the chart the template names it after, which is the
// add-on's name with hyphens only for some: aws_for_fluentbit's is addon-<cluster>-aws-for-fluent-bit, the
// EBS CSI driver's storage classes' addon-<cluster>-aws-ebs-csi-classes; an add-on the catalogue does not know is
// looked up by its name with hyphens.
func TestApplicationsByChart(t *testing.T) {
	c := Cluster{Name: "spoke", SecretName: "spoke", Addons: []Addon{{Name: "aws_for_fluentbit"}, {Name: "aws_ebs_csi_driver"},
		{Name: "metrics_server"}, {Name: "my_addon"}}}
	var apps []Application
	for _, chart := range []string{"aws-for-fluent-bit", "aws-ebs-csi-classes", "metrics-server", "my-addon"} {
		apps = append(apps, Application{Name: "addon-spoke-" + chart, Cluster: "spoke", Sync: "Synced", Health: "Healthy"})
	}
	for _, a := range WithApplications([]Cluster{c}, apps)[0].Addons {
		if a.State() != "ok" || !strings.HasPrefix(a.Application, "addon-spoke-") {
			t.Errorf("%s: %+v, want ok from its Application", a.Name, a)
		}
	}
}

// TestImpliedLabelsAreNoRows: a label that another add-on implies (enable_aws_ebs_csi_resources, which FleetCluster
// writes with the EBS CSI driver and the storage classes' ApplicationSet selects) is no add-on row of its own, on a
// spoke or among a hub's stack add-ons: the driver's row, found by its chart's Application, stands for both.
func TestImpliedLabelsAreNoRows(t *testing.T) {
	clusters := map[string]any{
		"spoke": map[string]any{"labels": map[string]any{"enable_aws_ebs_csi_driver": "true",
			"enable_aws_ebs_csi_resources": "true", "enable_metrics_server": "true"}},
		"hub": map[string]any{"addons": map[string]any{
			"aws_ebs_csi_driver": map[string]any{"throughStack": true}, "aws_ebs_csi_resources": map[string]any{"throughStack": true}}},
	}
	want := map[string][]string{"hub": {"aws_ebs_csi_driver"}, "spoke": {"aws_ebs_csi_driver", "metrics_server"}}
	for _, c := range FromOutputs("dev", clusters) {
		var names []string
		for _, a := range c.Addons {
			names = append(names, a.Name)
		}
		if !slices.Equal(names, want[c.Name]) {
			t.Errorf("%s's add-on rows %v, want %v", c.Name, names, want[c.Name])
		}
	}
}
