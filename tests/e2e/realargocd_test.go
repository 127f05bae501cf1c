package e2e

import (
	"context"
	"encoding/json"
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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestArgoCDSyncsAddons closes the GitOps loop with Argo CD's own controllers (tests/argocdhub) on the dev fleet's
// hub: the add-ons repository is the offline one, laid out as the GitOps Bridge template, served over Git; after
// `up`, the real ApplicationSet controller renders each enabled add-on's Application for each spoke from the cluster
// secrets the fleet wrote, and the real application controller syncs it into that spoke's API server, reaching it
// through the secret's awsAuthConfig (argocd-k8s-auth, Pod Identity, the offline STS). Toggling an add-on off in
// the stack file removes its Application from that spoke only; an evil add-ons commit and a tenant's commit that
// reaches outside its namespaces are refused by Argo CD or the hub's API server, the refusal in a status. A new
// add-ons commit rolled out wave by wave stops at the wave Argo CD fails and goes back (testRollout); a Kubernetes
// upgrade stops before the wave of a cluster whose upgrade insight is in ERROR (testKubernetesRollout).
func TestArgoCDSyncsAddons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	addons, sha := env.Git().AddonsRepository()
	stack := env.Fleet("dev")
	stack.SetConfig(map[string]string{
		"gitops-fleet:repositories.addons.url":      addons,
		"gitops-fleet:repositories.addons.revision": sha,
		// The rollouts' waves (testRollout, testKubernetesRollout): the hub 0, spoke-usw2 1, spoke-use2 2.
		"gitops-fleet:clusters[1].wave": "2", "gitops-fleet:clusters[2].wave": "1",
		// A hub past a controller replica's budget of 2 clusters: the application controller sharded over 2 replicas,
		// each cluster secret naming its own (docs/capacity.md). The offline hub's one controller still manages
		// every cluster (Argo CD places a secret whose shard it has no replica for by its algorithm).
		"gitops-fleet:argocd.controllerSharding.clustersPerReplica": "2",
	})
	stack.Up("up")
	hubCP := env.Hub()
	// spoke-use2's platform team holds metrics-server back with an admission policy of its own: that add-on
	// fails to sync there, and only there.
	holdBack(t, env.Cluster("spoke-use2").Typed(), "metrics-server")
	started := time.Now()
	hub := hubCP.ArgoCD()
	apps := hubCP.Dynamic().Resource(status.ApplicationsResource).Namespace(gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons"))
	want := map[string]bool{}
	for _, spoke := range []string{"spoke-use2", "spoke-usw2"} {
		for _, chart := range []string{"aws-load-balancer-controller", "metrics-server"} {
			want["addon-"+spoke+"-"+chart] = true
		}
	}
	want["addon-spoke-use2-aws-for-fluent-bit"] = true
	want["addon-spoke-use2-aws-ebs-csi-classes"], want["addon-spoke-usw2-aws-ebs-csi-classes"] = true, true
	delete(want, "addon-spoke-use2-metrics-server") // held back (holdBack)
	synced := func() (map[string]string, bool) {
		list, err := apps.List(ctx, metav1.ListOptions{})
		if err != nil {
			return map[string]string{"list": err.Error()}, false
		}
		states, all := map[string]string{}, true
		for _, app := range list.Items {
			sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status")
			health, _, _ := unstructured.NestedString(app.Object, "status", "health", "status")
			states[app.GetName()] = sync + "/" + health
			if conditions, _, _ := unstructured.NestedSlice(app.Object, "status", "conditions"); len(conditions) > 0 {
				states[app.GetName()] += fmt.Sprint(" ", conditions) // Argo CD's reason, for the failure's message
			}
			if want[app.GetName()] && (sync != "Synced" || health != "Healthy") {
				all = false
			}
		}
		for name := range want {
			if _, ok := states[name]; !ok {
				all = false
			}
		}
		return states, all
	}
	states, ok := waitFor(5*time.Minute, synced)
	if !ok {
		t.Fatalf("after 5 minutes the add-on Applications are %v; want %v each Synced/Healthy", states, slices.Sorted(maps.Keys(want)))
	}
	t.Logf("every add-on Application Synced and Healthy %s after Argo CD started: %v", time.Since(started).Round(time.Second), states)

	t.Run("each cluster secret names its controller replica, which the hub's guard admitted", func(t *testing.T) {
		for _, name := range []string{"hub", "spoke-use2", "spoke-usw2"} {
			secret, err := hubCP.Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, name, metav1.GetOptions{})
			if want := fmt.Sprint(gitopsbridge.ShardOf(name, 2)); err != nil || string(secret.Data["shard"]) != want {
				t.Errorf("%s's cluster secret: shard %q, %v; want %s", name, secret.Data["shard"], err, want)
			}
		}
		release, err := hubCP.Typed().AppsV1().StatefulSets(gitopsbridge.DefaultNamespace).Get(ctx,
			"argo-cd-argocd-application-controller", metav1.GetOptions{})
		if err != nil || release.Spec.Replicas == nil || *release.Spec.Replicas != 2 {
			t.Errorf("the chart's application controller StatefulSet: %v, %v; want 2 replicas", release, err)
		}
		// The StatefulSet's two replicas run (tests/argocdhub), each shard told its number: spoke-use2's Applications
		// are reconciled by replica 1 only, spoke-usw2's by replica 0 only, as their secrets say. The hub has none:
		// its add-ons are its stack's (argocd.stackAddons in Pulumi.dev.yaml).
		reconciled := func(log, cluster string) bool {
			return slices.ContainsFunc(strings.Split(log, "\n"), func(l string) bool {
				return strings.Contains(l, "Reconciliation completed") && strings.Contains(l, "application=addon-"+cluster+"-")
			})
		}
		for shard, log := range []string{hub.Log("application-controller"), hub.Log("application-controller-1")} {
			for _, cluster := range []string{"hub", "spoke-use2", "spoke-usw2"} {
				want := cluster != "hub" && gitopsbridge.ShardOf(cluster, 2) == shard
				if got := reconciled(log, cluster); got != want {
					t.Errorf("controller replica %d reconciled %s's Applications: %v, want %v", shard, cluster, got, want)
				}
			}
		}
	})

	t.Run("the spokes hold the add-ons, the controller's service account with the role the fleet created", func(t *testing.T) {
		env := env.For(t)
		for _, spoke := range []string{"spoke-use2", "spoke-usw2"} {
			secret, err := hubCP.Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, spoke, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			kube := env.ClusterIn(devClusters[spoke], spoke).Typed()
			if err := addonRole(ctx, kube, env.Cloud(), secret.Annotations, "aws_load_balancer_controller"); err != nil {
				t.Errorf("%s: %v", spoke, err)
			}
			for _, d := range []string{"aws-load-balancer-controller", "metrics-server"} {
				_, err := kube.AppsV1().Deployments("kube-system").Get(ctx, d, metav1.GetOptions{})
				if held := spoke == "spoke-use2" && d == "metrics-server"; held != (err != nil) {
					t.Errorf("%s: Deployment kube-system/%s: %v (held back: %v)", spoke, d, err, held)
				}
			}
		}
	})

	t.Run("fleet status reads the stack, the real Argo CD, EKS and a refresh preview", func(t *testing.T) {
		fleetStatusShows(t, env, stack, want)
	})

	t.Run("toggling metrics_server off on spoke-usw2 removes its Application there only", func(t *testing.T) {
		stack := stack.For(t)
		stack.SetConfig(map[string]string{"gitops-fleet:clusters[2].addons.metrics_server": "false"})
		stack.Up("up-toggle")
		gone := "addon-spoke-usw2-metrics-server"
		states, ok := waitFor(3*time.Minute, func() (map[string]string, bool) {
			states, _ := synced()
			_, still := states[gone]
			return states, !still
		})
		if !ok {
			t.Fatalf("%s is still there: %v", gone, states)
		}
		delete(want, gone)
		if states, ok := synced(); !ok {
			t.Errorf("the other add-ons' Applications are %v, want each of %v Synced/Healthy", states, slices.Sorted(maps.Keys(want)))
		}
	})

	t.Run("a Kubernetes upgrade wave by wave: held at the cluster whose upgrade insight is in ERROR", func(t *testing.T) {
		testKubernetesRollout(t, env, stack)
	})

	t.Run("an add-ons commit wave by wave: a wave that fails its gate goes back, the later ones never change", func(t *testing.T) {
		testRollout(t, env, stack, sha)
	})

	t.Run("an evil add-ons commit is refused by Argo CD: nothing lands in Argo CD's namespace", func(t *testing.T) {
		src := t.TempDir()
		env, stack := env.For(t), stack.For(t)
		if err := os.CopyFS(src, os.DirFS(filepath.Join(env.Root(), offline.AddonsFixture))); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, src, evilAddons)
		evil := env.Git().Publish(addons, src, "add-ons: two more ApplicationSets")
		stack.SetConfig(map[string]string{"gitops-fleet:repositories.addons.revision": evil})
		stack.Up("up-evil")
		appsets := hubCP.Dynamic().Resource(argoApplicationSets).Namespace(gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons"))
		// Who refuses what: Argo CD's application controller, the takeover (project default, as the hub fenced it,
		// allows no destination in Argo CD's namespace), in the Application's status; the hub's API server, the
		// Application in a bootstrap project (the fleet's admission policy on Applications), in the ApplicationSet's
		// status, as the ApplicationSet controller heard it.
		want := map[string]string{
			"Application evil-takeover": "InvalidSpecError: application destination server 'https://kubernetes.default.svc' " +
				"and namespace 'argocd' do not match any of the allowed destinations in project 'default'",
			"ApplicationSet evil-project": "ValidatingAdmissionPolicy 'gitops-fleet-applications' with binding " +
				"'gitops-fleet-applications' denied request: an Application in argocd-addons must name project default, not fleet-addons",
		}
		refusals, ok := waitFor(2*time.Minute, func() (map[string]string, bool) {
			got := map[string]string{}
			if app, err := apps.Get(ctx, "evil-takeover", metav1.GetOptions{}); err == nil {
				got["Application evil-takeover"] = conditions(app)
			}
			if set, err := appsets.Get(ctx, "evil-project", metav1.GetOptions{}); err == nil {
				got["ApplicationSet evil-project"] = conditions(set)
			}
			for k, w := range want {
				if !strings.Contains(got[k], w) {
					return got, false
				}
			}
			return got, true
		})
		if !ok {
			t.Errorf("the refusals are %v; want each of %v", refusals, want)
		}
		if _, err := apps.Get(ctx, "evil-project", metav1.GetOptions{}); err == nil {
			t.Error("the Application evil-project exists in a bootstrap project")
		}
		if app, err := apps.Get(ctx, "evil-takeover", metav1.GetOptions{}); err == nil {
			if sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status"); sync == "Synced" {
				t.Error("the Application evil-takeover synced")
			}
		}
	})

	usw2 := env.Cluster("spoke-usw2").Typed()
	t.Run("a tenant's commit syncs into its namespace only: a cluster-scoped object or another namespace refuses the sync", func(t *testing.T) {
		src := t.TempDir()
		env := env.For(t)
		if err := os.CopyFS(src, os.DirFS(filepath.Join(env.Root(), offline.PaymentsFixture))); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, src, tenantCommit)
		env.Git().Publish(tenantRepo, src, "payments: ledger")
		tenantApps := hubCP.Dynamic().Resource(status.ApplicationsResource).Namespace(gitopsbridge.DefaultNamespace)
		// What the repository's webhook to Argo CD's server would do (neither runs here): ask for a refresh.
		for _, name := range []string{"payments-spoke-use2", "payments-spoke-usw2"} {
			if err := offline.RefreshApplication(ctx, tenantApps, name); err != nil {
				t.Fatal(err)
			}
		}
		refused := []string{"one or more synchronization tasks are not valid",
			"namespace kube-system is not permitted in project 'tenant-payments'",
			"resource rbac.authorization.k8s.io:ClusterRoleBinding is not permitted in project tenant-payments"}
		states, ok := waitFor(3*time.Minute, func() (map[string]string, bool) {
			got := map[string]string{}
			for _, name := range []string{"payments-spoke-use2", "payments-spoke-usw2"} {
				app, err := tenantApps.Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return map[string]string{name: err.Error()}, false
				}
				sync, _, _ := unstructured.NestedString(app.Object, "status", "sync", "status")
				health, _, _ := unstructured.NestedString(app.Object, "status", "health", "status")
				phase, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "phase")
				msg, _, _ := unstructured.NestedString(app.Object, "status", "operationState", "message")
				got[name] = sync + "/" + health + " | " + phase + " | " + msg + " | " + conditions(app)
			}
			done := strings.HasPrefix(got["payments-spoke-usw2"], "Synced/Healthy | Succeeded")
			for _, r := range refused {
				done = done && strings.Contains(got["payments-spoke-use2"], r)
			}
			return got, done
		})
		if !ok {
			t.Errorf("the tenant's Applications are %v; want payments-spoke-usw2 synced and healthy (its Deployment "+
				"admitted by the namespace's Pod Security level and quota) and payments-spoke-use2's sync refused: %q",
				states, refused)
		}
		use2 := env.ClusterIn(devClusters["spoke-use2"], "spoke-use2").Typed()
		if _, err := use2.RbacV1().ClusterRoleBindings().Get(ctx, "payments-admin", metav1.GetOptions{}); err == nil {
			t.Error("the tenant's ClusterRoleBinding reached spoke-use2")
		}
		if _, err := use2.CoreV1().ConfigMaps("kube-system").Get(ctx, "payments-was-here", metav1.GetOptions{}); err == nil {
			t.Error("the tenant's ConfigMap reached kube-system on spoke-use2")
		}
		if _, err := usw2.AppsV1().Deployments("payments").Get(ctx, "ledger", metav1.GetOptions{}); err != nil {
			t.Errorf("the tenant's Deployment on spoke-usw2: %v", err)
		}
	})

	t.Run("decommissioning spoke-usw2: Argo CD deletes the tenant's Application there and what it synced; the add-ons stay", func(t *testing.T) {
		stack := stack.For(t)
		stack.SetConfig(map[string]string{"gitops-fleet:clusters[2].decommission": "true"})
		stack.Up("up-decommission")
		tenantApps := hubCP.Dynamic().Resource(status.ApplicationsResource).Namespace(gitopsbridge.DefaultNamespace)
		state, ok := waitFor(3*time.Minute, func() (map[string]string, bool) {
			got := map[string]string{}
			if _, err := tenantApps.Get(ctx, "payments-spoke-usw2", metav1.GetOptions{}); err == nil {
				got["Application payments-spoke-usw2"] = "still there"
			}
			if _, err := usw2.AppsV1().Deployments("payments").Get(ctx, "ledger", metav1.GetOptions{}); err == nil {
				got["Deployment payments/ledger on spoke-usw2"] = "still there"
			}
			return got, len(got) == 0
		})
		if !ok {
			t.Errorf("after decommissioning: %v; want the tenant's Application and its Deployment deleted by Argo CD", state)
		}
		if _, err := tenantApps.Get(ctx, "payments-spoke-use2", metav1.GetOptions{}); err != nil {
			t.Errorf("the tenant's Application on spoke-use2, which stays: %v", err)
		}
		if _, err := usw2.CoreV1().Namespaces().Get(ctx, "payments", metav1.GetOptions{}); err != nil {
			t.Errorf("the tenant's namespace on spoke-usw2 (the stack's, not Argo CD's): %v", err)
		}
		if states, ok := synced(); !ok {
			t.Errorf("the add-ons' Applications are %v, want each of %v Synced/Healthy: decommissioning keeps them",
				states, slices.Sorted(maps.Keys(want)))
		}
		var r status.Report
		if err := json.Unmarshal(stack.FleetStatus("-json", "-eks=false", "-connection=false"), &r); err != nil {
			t.Fatal(err)
		}
		for _, c := range r.Clusters {
			if c.Decommissioned != (c.Name == "spoke-usw2") {
				t.Errorf("fleet status: %s decommissioned %v; want spoke-usw2 only", c.Name, c.Decommissioned)
			}
		}
	})

	t.Run("removing spoke-usw2: its drain runs, then its secret goes and with it its add-on Applications", func(t *testing.T) {
		// The search tenant is on spoke-usw2 only: the fleet refuses a tenant that selects no cluster, so it goes too.
		stack := stack.For(t)
		for _, key := range []string{"gitops-fleet:clusters[2]", "gitops-fleet:tenants[1]"} {
			if err := stack.Auto.RemoveConfigWithOptions(ctx, key, &auto.ConfigOptions{Path: true}); err != nil {
				t.Fatal(err)
			}
		}
		stack.Up("up-remove")
		for name := range want {
			if strings.Contains(name, "spoke-usw2") {
				delete(want, name)
			}
		}
		states, ok := waitFor(2*time.Minute, func() (map[string]string, bool) {
			states, all := synced()
			for name := range states {
				if strings.Contains(name, "spoke-usw2") {
					return states, false
				}
			}
			return states, all
		})
		if !ok {
			t.Errorf("after removing spoke-usw2 the add-on Applications are %v; want only %v, each Synced/Healthy",
				states, slices.Sorted(maps.Keys(want)))
		}
		if _, err := hubCP.Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, "spoke-usw2", metav1.GetOptions{}); err == nil {
			t.Error("spoke-usw2's cluster secret is still on the hub")
		}
	})

	t.Run("what Argo CD used", func(t *testing.T) {
		t.Logf("peak memory (MiB): %v", hub.PeakMemory())
		if _, err := hubCP.Typed().CoreV1().ConfigMaps(gitopsbridge.DefaultNamespace).Get(ctx, "evil-payload", metav1.GetOptions{}); err == nil {
			t.Errorf("the evil payload landed in %s on the hub", gitopsbridge.DefaultNamespace)
		}
	})
}

// tenantRepo is the dev fleet's payments workloads repository (examples/fleet/Pulumi.dev.yaml), which
// TestArgoCDSyncsAddons publishes: per cluster, a folder of manifests that Argo CD syncs into the tenant's namespace.
const tenantRepo = offline.PaymentsRepo

// tenantCommit is what a payments commit adds to its repository (offline.PaymentsFixture: its Deployment in
// clusters/<cluster>/): on spoke-use2, a ClusterRoleBinding making its service account cluster admin and a ConfigMap
// in kube-system.
var tenantCommit = map[string]string{
	"clusters/spoke-use2/escalate.yaml": `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: payments-admin
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: cluster-admin
subjects:
  - kind: ServiceAccount
    name: ledger
    namespace: payments
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: payments-was-here
  namespace: kube-system
data:
  owner: payments
`,
}

// writeFiles writes files (path relative to dir -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for file, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, file)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// conditions are an Argo CD object's status conditions, "type: message" each.
func conditions(obj *unstructured.Unstructured) string {
	list, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	var out []string
	for _, c := range list {
		m, _ := c.(map[string]any)
		out = append(out, fmt.Sprintf("%v: %v", m["type"], m["message"]))
	}
	return strings.Join(out, "; ")
}

// argoApplicationSets are Argo CD's ApplicationSets.
var argoApplicationSets = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applicationsets"}

// evilAddons are ApplicationSets an evil commit to the add-ons repository adds (under
// bootstrap/control-plane/addons/evil/), with the payload they point at: one that takes over Argo CD's namespace on
// the hub from project default, and one that puts its Application in a bootstrap project. Argo CD must refuse both.
var evilAddons = map[string]string{
	"bootstrap/control-plane/addons/evil/takeover-appset.yaml":          evilApplicationSet("takeover", "default", "argocd"),
	"bootstrap/control-plane/addons/evil/bootstrap-project-appset.yaml": evilApplicationSet("project", "fleet-addons", "argocd-addons"),
	"evil/payload.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: evil-payload
data:
  rbac: "g, evil, role:admin"
`,
}

// evilApplicationSet is an ApplicationSet named evil-<name> that generates one Application evil-<name> in project,
// syncing the repository's evil/ folder into namespace on the hub.
func evilApplicationSet(name, project, namespace string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: evil-` + name + `
spec:
  generators:
    - list:
        elements: [{name: ` + name + `}]
  template:
    metadata:
      name: evil-{{name}}
    spec:
      project: ` + project + `
      source:
        repoURL: ` + offline.AddonsRepo + `
        targetRevision: main
        path: evil
      destination:
        server: https://kubernetes.default.svc
        namespace: ` + namespace + `
      syncPolicy:
        automated: {}
`
}

// waitFor polls check every two seconds until it holds or timeout passes, and returns its last state.
func waitFor[S any](timeout time.Duration, check func() (S, bool)) (S, bool) {
	deadline := time.Now().Add(timeout)
	for {
		s, ok := check()
		if ok || time.Now().After(deadline) {
			return s, ok
		}
		time.Sleep(2 * time.Second)
	}
}
