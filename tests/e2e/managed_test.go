package e2e

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// managedClusters are the clusters of examples/fleet's managed stack by name, with their regions.
var managedClusters = map[string]string{"platform": "us-east-1", "apps-use2": "us-east-2", "apps-usw2": "us-west-2"}

// TestManagedHub is examples/fleet's managed stack on real control planes, switched live: first up with the hub
// self-managed (the stack file without argocd), then with argocd.mode managed, as a platform engineer moves a
// running fleet. The switch plans no replacement or deletion of a cluster, a cluster secret or Argo CD's namespace:
// the secrets are updated in place to name their clusters by ARN, after the capability is ACTIVE, so no spoke is
// unregistered in between; the Helm release, the management role and the spoke roles go. After it: EKS gave the
// capability's role the hub's entry (not the fleet), each spoke gives it the fleet's entry and lets it in; the hub's
// API server refuses, from the capability's identity, a secret naming kubernetes.default.svc or a spoke re-registered
// with a role, and admits the fleet's own secret written again; the fleet's own Applications there name the hub by
// name (testManagedHubDestinations); the next preview plans nothing.
func TestManagedHub(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	cfg := env.FleetConfig("managed")
	managed := cfg["gitops-fleet:argocd"]
	delete(cfg, "gitops-fleet:argocd")
	l := env.Configured("managed", cfg)
	l.Up("up")
	hub := env.Cluster("platform")
	if _, err := hub.Typed().AppsV1().Deployments("argocd").Get(ctx,
		"argo-cd-argocd-server", metav1.GetOptions{}); err != nil {
		t.Fatalf("the self-managed hub runs no Argo CD server: %v", err)
	}

	l.Config()["gitops-fleet:argocd"] = managed
	p := l.Preview("preview").Plan()
	for _, op := range []string{"delete", "replace", "delete-replaced", "create-replacement"} {
		for _, typ := range []string{"aws:eks/cluster:Cluster", "eks:index:Cluster", "kubernetes:core/v1:Secret",
			"kubernetes:core/v1:Namespace", "awsx:ec2:Vpc"} {
			if n := p[op][typ]; n > 0 {
				t.Errorf("the switch plans %s of %d %s", op, n, typ)
			}
		}
	}
	for typ, n := range p["replace"] {
		if typ != aws.AccessEntryType && typ != aws.AccessPolicyAssociationType {
			t.Errorf("the switch replaces %d %s; only the spokes' entries move from the spoke roles to the capability's", n, typ)
		}
	}
	if p["create"][capability.TypeToken] != 1 || p["delete"]["kubernetes:helm.sh/v3:Release"] != 1 ||
		p["update"]["kubernetes:core/v1:Secret"] != len(managedClusters) {
		t.Errorf("the switch plans %v; want the capability created, the Helm release deleted and the three secrets updated", p)
	}
	steps := l.Up("up").Steps
	capabilityDone := steps.First(capability.TypeToken, "::platform-argocd", true)
	for name := range managedClusters {
		if i := steps.First("kubernetes:core/v1:Secret", "::"+name+"-cluster-secret", false); i < capabilityDone {
			t.Errorf("%s's secret was rewritten before the capability was ACTIVE: Argo CD would have lost the cluster", name)
		}
	}
	l.Settled()

	caps := env.Cloud().Records("eks", capabilities.Type)
	if len(caps) != 1 {
		t.Fatalf("%d capabilities in the offline EKS, want 1", len(caps))
	}
	state, _ := caps[0].Plain()
	c := state["capability"].(map[string]any)
	role := c["roleArn"].(string)
	if c["status"] != "ACTIVE" || c["clusterName"] != "platform" || !strings.Contains(role, ":role/gitops-fleet/hub/") {
		t.Errorf("capability %v", c)
	}
	for _, r := range env.Cloud().Records("aws", "aws:iam/role:Role") {
		if strings.Contains(r.ID, "gitops-spoke") || strings.Contains(fleettest.Name(r.URN), "argocd-management") {
			t.Errorf("role %s outlived the switch", r.ID)
		}
	}
	for _, r := range env.Cloud().Records("aws", aws.AccessEntryType) {
		s, _ := r.Plain()
		if s["principalArn"] != role {
			continue
		}
		switch made := strings.HasPrefix(r.URN, "eks:capability:"); {
		case s["clusterName"] == "platform" && !made:
			t.Errorf("the fleet made the hub's entry for the capability's role (%s); EKS makes it", r.URN)
		case s["clusterName"] != "platform" && made:
			t.Errorf("spoke %v's entry for the capability's role is not the fleet's", s["clusterName"])
		}
	}
	data := map[string]string{}
	for name, region := range managedClusters {
		s, err := hub.Typed().CoreV1().Secrets("argocd").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%s's cluster secret on the hub: %v", name, err)
		}
		if want := "arn:aws:eks:" + region + ":" + aws.Account + ":cluster/" + name; string(s.Data["server"]) != want {
			t.Errorf("%s's secret names %s, want %s", name, s.Data["server"], want)
		}
		data[name] = string(s.Data["config"])
		if name != "platform" {
			// The capability's identity, as EKS's access entry names it, on the spoke the fleet let it into.
			if _, err := asCapability(env.ClusterIn(region, name), role).CoreV1().Namespaces().List(ctx,
				metav1.ListOptions{}); err != nil {
				t.Errorf("the capability's role cannot reach %s: %v", name, err)
			}
		}
	}
	for name, config := range data {
		if config != gitopsbridge.InClusterConfig() {
			t.Errorf("%s's secret carries config %s, want no credential", name, config)
		}
	}
	if _, err := hub.Typed().AppsV1().Deployments("argocd").Get(ctx, "argo-cd-argocd-server", metav1.GetOptions{}); err == nil {
		t.Error("the self-managed Argo CD still runs on the managed hub")
	}
	testManagedHubDestinations(ctx, t, hub)

	// What the managed Argo CD's identity may write in its namespace, by the hub's guard.
	secrets := asCapability(hub, role).CoreV1().Secrets("argocd")
	own, err := hub.Typed().CoreV1().Secrets("argocd").Get(ctx, "apps-use2", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	own.ResourceVersion, own.ManagedFields, own.UID, own.CreationTimestamp = "", nil, "", metav1.Time{}
	dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	inCluster := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "in-cluster", Labels: map[string]string{
		gitopsbridge.SecretTypeLabel: "cluster"}}, StringData: map[string]string{"name": "in-cluster",
		"server": gitopsbridge.InClusterServer, "config": gitopsbridge.InClusterConfig()}}
	if _, err := secrets.Create(ctx, inCluster, dry); err == nil || !strings.Contains(err.Error(), "does not take the in-cluster server") {
		t.Errorf("a secret naming kubernetes.default.svc: the hub answered %v, want the guard's refusal", err)
	}
	withRole := own.DeepCopy()
	withRole.Data["config"] = []byte(gitopsbridge.SpokeConfig("apps-use2", "arn:aws:iam::"+aws.Account+":role/evil", "Q0E="))
	if _, err := secrets.Update(ctx, withRole, metav1.UpdateOptions{DryRun: dry.DryRun}); err == nil || !strings.Contains(err.Error(), "data differ") {
		t.Errorf("a spoke re-registered with a role: the hub answered %v, want the guard's refusal", err)
	}
	synced := own.DeepCopy()
	synced.Annotations["argocd.argoproj.io/tracking-id"] = "registry:/Secret:argocd/apps-use2"
	if _, err := secrets.Update(ctx, synced, metav1.UpdateOptions{DryRun: dry.DryRun}); err != nil {
		t.Errorf("the fleet's own secret written again by the capability was refused: %v", err)
	}

	// What the fleet's Applications on the hub have the managed Argo CD do there, asked of the hub's API server as
	// the capability's identity: all allowed, by the association the fleet adds to EKS's entry. The same asked for
	// an identity with EKS's two Argo CD policies only: the bootstrap ApplicationSets, the add-ons' CRDs and the
	// cache's cluster-wide lists are refused, as AWS's guide says they are without it.
	syncs := hubSyncs(t, hub.Typed(), "argocd")
	session := "arn:aws:sts::" + aws.Account + ":assumed-role/" + path.Base(role) + "/eks-capability"
	if no := denied(ctx, t, hub.Typed(), session, []string{aws.AccessGroup(role), "system:authenticated"}, syncs); len(no) > 0 {
		t.Errorf("the capability's role may not do on the hub what the fleet's Applications there need (%d of %d): %q",
			len(no), len(syncs), no)
	}
	bindOnly(ctx, t, hub.Typed(), "e2e:argocd-policies-only", "argocd")
	no := denied(ctx, t, hub.Typed(), "e2e", []string{"e2e:argocd-policies-only", "system:authenticated"}, syncs)
	for _, want := range []string{`create argoproj.io/applicationsets in "argocd-addons"`,
		`create apiextensions.k8s.io/customresourcedefinitions in ""`, `list apps/statefulsets in ""`} {
		if !slices.Contains(no, want) {
			t.Errorf("EKS's two Argo CD policies alone allow %s; the offline EKS models them wider than AWS documents", want)
		}
	}

	// fleet status asks EKS of the managed hub's capability.
	var report status.Report
	if err := json.Unmarshal(l.FleetStatus("-json"), &report); err != nil {
		t.Fatal(err)
	}
	dated := 0
	for _, c := range report.Clusters {
		want := []string(nil)
		if c.Name == "platform" {
			want = []string{"argocd (argocd): ACTIVE"}
		}
		if c.EKS == nil || !slices.Equal(c.EKS.Capabilities, want) {
			t.Errorf("fleet status: %s's EKS %+v, want capabilities %q", c.Name, c.EKS, want)
			continue
		}
		// AWS runs a managed hub's application controller: no metrics to read, and nothing unreachable for it.
		if c.Connection != status.Unknown {
			t.Errorf("fleet status: %s's Argo CD connection %q on a managed hub, want %s", c.Name, c.Connection, status.Unknown)
		}
		// Each cluster's version in EKS's calendar: its end of standard support, and the price tier that follows.
		standard, _, known := capabilities.SupportDates(c.EKS.Version)
		if known {
			dated++
		}
		if s := c.EKS.Support; known && (s == nil || s.EndOfStandardSupport != standard.Format(time.DateOnly) ||
			(s.PriceTier == status.PriceExtended) != !time.Now().Before(standard)) {
			t.Errorf("fleet status: %s runs %s, support %+v; want its end of standard support %s and the price it sets",
				c.Name, c.EKS.Version, s, standard.Format(time.DateOnly))
		}
	}
	if dated != len(managedClusters) {
		t.Errorf("fleet status: %d of %d clusters run a version of EKS's calendar; the check above asked nothing of the others", dated, len(managedClusters))
	}
	if len(report.Clusters) != len(managedClusters) || len(report.Unreachable) > 0 {
		t.Errorf("fleet status: %d clusters, unreachable %q", len(report.Clusters), report.Unreachable)
	}
}

// asCapability is a client of cluster c acting as the capability's role does: the username and group
// EKS's authenticator gives its access entry's sessions (an assumed-role session of the role).
func asCapability(c *fleettest.Cluster, role string) kubernetes.Interface {
	session := "arn:aws:sts::" + aws.Account + ":assumed-role/" + path.Base(role) + "/eks-capability"
	return c.TypedAs(session, aws.AccessGroup(role), "system:authenticated")
}

// testManagedHubDestinations: on the managed hub's API server, after the switch, the fleet's own Applications (the
// registry's) and bootstrap ApplicationSets name the hub by its cluster secret's name, and no project permits the
// in-cluster server, which the managed Argo CD does not take.
func testManagedHubDestinations(ctx context.Context, t *testing.T, hub *fleettest.Cluster) {
	argo := func(resource string) []unstructured.Unstructured {
		list, err := hub.Dynamic().Resource(schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1",
			Resource: resource}).Namespace("argocd").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("%s on the hub: %v", resource, err)
		}
		return list.Items
	}
	named := 0
	for _, set := range argo("applicationsets") {
		if !strings.HasPrefix(set.GetName(), "bootstrap-") {
			continue
		}
		dest, _, _ := unstructured.NestedStringMap(set.Object, "spec", "template", "spec", "destination")
		if dest["name"] != "platform" || dest["server"] != "" {
			t.Errorf("ApplicationSet %s's Applications go to %v, want the hub by name", set.GetName(), dest)
		}
		named++
	}
	for _, app := range argo("applications") {
		if !strings.HasPrefix(app.GetName(), "cluster-registry-") {
			continue
		}
		dest, _, _ := unstructured.NestedStringMap(app.Object, "spec", "destination")
		if dest["name"] != "platform" || dest["server"] != "" {
			t.Errorf("Application %s goes to %v, want the hub by name", app.GetName(), dest)
		}
		named++
	}
	if named == 0 {
		t.Error("the managed hub holds no bootstrap ApplicationSet or registry Application")
	}
	for _, p := range argo("appprojects") {
		dests, _, _ := unstructured.NestedSlice(p.Object, "spec", "destinations")
		for _, d := range dests {
			if d.(map[string]any)["server"] == gitopsbridge.InClusterServer {
				t.Errorf("project %s permits the in-cluster server: %v", p.GetName(), d)
			}
		}
	}
}
