package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestDevFleet is the user's job on the dev stack, with a real control plane behind each of its EKS clusters and
// every Kubernetes object written by the real Pulumi Kubernetes provider. Up puts each cluster's AWS resources in
// its region; the servers accept what the fleet writes (Argo CD's chart with its CRDs established and its
// Deployments available, the cluster secrets, the ApplicationSets and AppProjects against the chart's CRDs, the
// tenants' namespaces on the clusters they select and nowhere else) and enforce what it means (the cluster-secret
// and Application guards, Pod Security, quotas); they authenticate and authorize who the fleet grants access as
// EKS does (the tenants' owners, the hub's Argo CD). Refresh and a second up change nothing against them (no
// server-side default drifts), nothing secret is in plaintext in the state, and destroy drains every cluster, the
// hub last, waiting on a spoke's real server for its load balancer, claim and NodePool, then deletes the control
// planes with the clusters and leaves nothing in the cloud or the stack.
func TestDevFleet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	stack := env.Fleet("dev")
	// The first up is `make demo` killed half-way, as a new user's may be, and run again: every later check is of
	// the fleet that run converged to.
	stack.Checkpoints(true)
	if !t.Run("make demo killed during its first up converges when run again, with nothing lost or duplicated", func(t *testing.T) {
		interruptedUp(t, env.For(t), stack.For(t))
	}) {
		t.FailNow()
	}
	stack.Checkpoints(false)
	outputs := stack.Outputs()
	hub := env.Hub()
	if got, want := env.ControlPlanes(), devControlPlanes(env); !slices.Equal(got, want) {
		t.Fatalf("control planes %v, want %v", got, want)
	}

	t.Run("every cluster's AWS resources are in its region", func(t *testing.T) {
		env := env.For(t)
		byCluster := map[string]int{}
		for _, r := range env.Cloud().Records("aws", "") {
			owner := ownerOf(fleettest.Name(r.URN))
			if owner == "" {
				t.Errorf("%s %s belongs to no cluster", r.Type, fleettest.Name(r.URN))
				continue
			}
			byCluster[owner]++
			if want := devClusters[owner]; r.Scope != want {
				t.Errorf("%s %s (cluster %s) was created in %q, want %s", r.Type, fleettest.Name(r.URN), owner, r.Scope, want)
			}
		}
		eks := env.Cloud().Records("aws", "aws:eks/cluster:Cluster")
		for name, region := range devClusters {
			if byCluster[name] == 0 {
				t.Errorf("cluster %s has no AWS resources in %s", name, region)
			}
			if !slices.ContainsFunc(eks, func(r emulator.Record) bool { return r.ID == name && r.Scope == region }) {
				t.Errorf("no EKS cluster %s in %s", name, region)
			}
		}
	})

	t.Run("Argo CD's chart is installed on the hub: CRDs established, Deployments available", func(t *testing.T) {
		ext := hub.Dynamic().Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io",
			Version: "v1", Resource: "customresourcedefinitions"})
		for _, crd := range []string{"applications.argoproj.io", "applicationsets.argoproj.io", "appprojects.argoproj.io"} {
			obj, err := ext.Get(ctx, crd, metav1.GetOptions{})
			if err != nil {
				t.Errorf("CRD %s: %v", crd, err)
				continue
			}
			if !established(obj) {
				t.Errorf("CRD %s is not established", crd)
			}
		}
		deployments, err := hub.Typed().AppsV1().Deployments(gitopsbridge.DefaultNamespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(deployments.Items) == 0 {
			t.Fatal("no Deployment in the argocd namespace")
		}
		for _, d := range deployments.Items {
			if !deploymentAvailable(d) {
				t.Errorf("Deployment %s is not available: %+v", d.Name, d.Status)
			}
		}
	})

	t.Run("every Kubernetes object in the stack's state is on the server it was written to", func(t *testing.T) {
		env := env.For(t)
		objects := stateObjects(env, stack)
		kinds := map[string]int{}
		for _, o := range objects {
			kinds[o.kind]++
			if _, err := o.get(ctx, env); err != nil {
				t.Errorf("%s %s/%s on %s: %v", o.kind, o.namespace, o.name, o.server, err)
			}
		}
		// The dev fleet registers its three clusters and bootstraps the add-ons on the hub; its tenants are on the
		// spokes: each kind must be there at least once.
		for _, kind := range []string{"Secret", "ApplicationSet", "AppProject", "ValidatingAdmissionPolicy",
			"ValidatingAdmissionPolicyBinding", "Namespace", "ResourceQuota", "NetworkPolicy", "ServiceAccount"} {
			if kinds[kind] == 0 {
				t.Errorf("the state holds no %s (kinds: %v)", kind, kinds)
			}
		}
		if got, want := env.ClusterIn(devClusters["hub"], "hub").ClusterSecrets(), slices.Sorted(maps.Keys(devClusters)); !slices.Equal(got, want) {
			t.Errorf("cluster secrets %v, want %v", got, want)
		}
	})

	t.Run("the spokes' cluster secrets on the hub carry awsAuthConfig and no credential", func(t *testing.T) {
		for _, spoke := range []string{"spoke-use2", "spoke-usw2"} {
			secret, err := hub.Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, spoke, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var config map[string]any
			if err := json.Unmarshal(secret.Data["config"], &config); err != nil {
				t.Fatalf("secret %s config: %v", spoke, err)
			}
			auth, _ := config["awsAuthConfig"].(map[string]any)
			if auth["clusterName"] != spoke || !strings.Contains(fmt.Sprint(auth["roleARN"]), ":role/gitops-fleet/spoke/") {
				t.Errorf("secret %s awsAuthConfig = %v, want the spoke's name and spoke role", spoke, auth)
			}
			for _, credential := range []string{"bearerToken", "password", "username", "keyData", "certData"} {
				if strings.Contains(string(secret.Data["config"]), credential) {
					t.Errorf("secret %s config carries %s: %s", spoke, credential, secret.Data["config"])
				}
			}
		}
	})

	t.Run("the hub's API server enforces the cluster-secret guards on every writer but the deployer", func(t *testing.T) {
		testClusterSecretGuards(ctx, t, hub)
	})

	t.Run("the hub's API server stores and enforces the cluster-secret guard of 200 spokes", func(t *testing.T) {
		testClusterSecretGuardAtSize(ctx, t, hub, 200)
	})

	t.Run("the hub's API server fences the add-ons' Applications and the hub's projects", func(t *testing.T) {
		testApplicationGuards(ctx, t, hub)
	})

	t.Run("the tenants' namespaces are on the clusters they select, and only there, with their Pod Security level", func(t *testing.T) {
		env := env.For(t)
		want := map[string][]string{"payments": {"spoke-use2", "spoke-usw2"}, "payments-batch": {"spoke-use2", "spoke-usw2"},
			"search": {"spoke-usw2"}}
		tenants, _ := outputs["tenants"].Value.(map[string]any)
		for _, tenant := range []string{"payments", "search"} {
			summary, _ := tenants[tenant].(map[string]any)
			if got := fmt.Sprint(summary["clusters"]); got != fmt.Sprint(want[tenant]) {
				t.Errorf("tenants output: %s on %s, want %v", tenant, got, want[tenant])
			}
		}
		where := map[string][]string{}
		for _, cluster := range slices.Sorted(maps.Keys(devClusters)) {
			for ns := range want {
				got := env.ClusterIn(devClusters[cluster], cluster).Namespace(ns)
				if got == nil {
					continue
				}
				where[ns] = append(where[ns], cluster)
				if got.Labels["pod-security.kubernetes.io/enforce"] == "" {
					t.Errorf("%s: namespace %s has no Pod Security level: %v", cluster, ns, got.Labels)
				}
			}
		}
		if !maps.EqualFunc(where, want, slices.Equal) {
			t.Errorf("tenant namespaces by cluster: %v, want %v", where, want)
		}
	})

	t.Run("a spoke's API server enforces a tenant namespace's Pod Security level and quota, and keeps the level", func(t *testing.T) {
		env := env.For(t)
		pods := env.ClusterIn(devClusters["spoke-usw2"], "spoke-usw2").Typed().CoreV1().Pods("payments")
		dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
		privileged := true
		_, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "root"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox",
				SecurityContext: &corev1.SecurityContext{Privileged: &privileged}}}}}, dryRun)
		if err == nil || !strings.Contains(err.Error(), `violates PodSecurity "restricted:`) {
			t.Errorf("a privileged pod in payments (restricted): %v, want PodSecurity's refusal", err)
		}
		// Nor can the namespace's level be lowered, by anyone: the tenant's namespaces policy pins it.
		namespaces := env.ClusterIn(devClusters["spoke-usw2"], "spoke-usw2").Typed().CoreV1().Namespaces()
		ns, err := namespaces.Get(ctx, "payments", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ns.Labels["pod-security.kubernetes.io/enforce"] = "privileged"
		_, err = namespaces.Update(ctx, ns, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil || !strings.Contains(err.Error(), "tenant namespace payments enforces, audits and warns Pod Security level restricted") {
			t.Errorf("payments relabelled privileged: %v, want the tenant's namespaces policy's refusal", err)
		}
		// Restricted-compliant, over payments' quota (requests.cpu 8, limits.cpu 8 in Pulumi.dev.yaml).
		yes, no := true, false
		cpu := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("9"), corev1.ResourceMemory: resource.MustParse("1Gi")}
		_, err = pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "big"},
			Spec: corev1.PodSpec{
				SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: &yes,
					SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
				Containers: []corev1.Container{{Name: "c", Image: "busybox",
					Resources: corev1.ResourceRequirements{Requests: cpu, Limits: cpu},
					SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: &no,
						Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}}}}}}, dryRun)
		if err == nil || !strings.Contains(err.Error(), "exceeded quota") {
			t.Errorf("a pod over payments' quota: %v, want the quota's refusal", err)
		}
	})

	t.Run("refresh against the real servers changes nothing", func(t *testing.T) {
		stack := stack.For(t)
		if changes := stack.Refresh("refresh"); len(changes) != 1 || changes["same"] == 0 {
			t.Errorf("refresh changes = %v, want only \"same\"", changes)
		}
	})

	t.Run("the tenants' owners reach their namespaces through EKS authentication, and nothing else", func(t *testing.T) {
		testOwnersAccess(t, env)
	})
	t.Run("the hub's Argo CD reaches each spoke through its cluster secret, as the fleet grants", func(t *testing.T) {
		testArgoCDAccess(t, env)
	})

	t.Run("the hub's Argo CD may reach every spoke's API endpoint, and the defaults' networks every cluster's", func(t *testing.T) {
		env := env.For(t)
		var hubIPs []string
		for _, r := range env.Cloud().Records("aws", "aws:ec2/eip:Eip") {
			if r.Scope == devClusters["hub"] {
				hubIPs = append(hubIPs, fmt.Sprint(env.Cloud().Plain(r)["publicIp"])+"/32")
			}
		}
		if len(hubIPs) == 0 {
			t.Fatal("the hub has no NAT addresses")
		}
		for _, r := range env.Cloud().Records("aws", "aws:eks/cluster:Cluster") {
			vpc, _ := env.Cloud().Plain(r)["vpcConfig"].(map[string]any)
			cidrs := fmt.Sprint(vpc["publicAccessCidrs"])
			// Every cluster inherits the stack file's defaults.publicAccessCidrs (the Go program sends a cluster's
			// unset list as an empty one, which counts as unset).
			if !strings.Contains(cidrs, "203.0.113.0/24") {
				t.Errorf("%s: public access %s, want the stack file's defaults.publicAccessCidrs 203.0.113.0/24", r.ID, cidrs)
			}
			if r.ID == "hub" {
				continue
			}
			for _, ip := range hubIPs {
				if vpc["endpointPublicAccess"] != true || !strings.Contains(cidrs, ip) {
					t.Errorf("spoke %s: public endpoint %v for %s, want on for the hub's %s", r.ID,
						vpc["endpointPublicAccess"], cidrs, ip)
				}
			}
		}
	})

	t.Run("kubeconfigs are never in plaintext in the state", func(t *testing.T) {
		stack := stack.For(t)
		text, _ := stack.Export(false)
		for _, marker := range []string{"get-token", "current-context", "client.authentication.k8s.io"} {
			if n := strings.Count(text, marker); n > 0 {
				t.Errorf("stack export has %d plaintext %q (a kubeconfig)", n, marker)
			}
		}
	})

	t.Run("refresh finds the access entry deleted outside the stack, and up puts it back", func(t *testing.T) {
		stack := stack.For(t)
		// Exactly the entry and its policy's association, whatever else the fleet holds (the rest "same").
		exactly := func(op string, got map[string]int) bool {
			return got[op] == 2 && got["same"] > 0 && len(got) == 2
		}
		if got := stack.Refresh("refresh-drifted"); !exactly("delete", got) {
			t.Errorf("refresh after spoke-usw2's access entry was deleted: %v, want 2 deletes (the entry and its policy's association) and the rest same", got)
		}
		if got := stack.Up("up-restore").Changes; !exactly("create", got) {
			t.Errorf("up after the refresh: %v, want 2 creates and the rest same", got)
		}
	})

	t.Run("a second up plans no change against the real servers", func(t *testing.T) {
		stack := stack.For(t)
		stack.Settled()
	})

	t.Run("destroy drains every cluster, the hub last, a spoke's load balancer, claim and NodePool waited for on its server", func(t *testing.T) {
		env := env.For(t)
		stack := stack.For(t)
		steps := testDrainOnRealServers(t, env, stack)
		hubDrain := steps.First(drain.TypeToken, "::hub-drain", false)
		for name := range devClusters {
			drained := steps.Last(drain.TypeToken, "::"+name+"-drain", true)
			if cluster := steps.First("aws:eks/cluster:Cluster", "::"+name+"-cluster-eksCluster", false); drained < 0 || cluster < drained {
				t.Errorf("%s's EKS cluster deleted at event %d, its drain ended at %d", name, cluster, drained)
			}
			if name != "hub" && (hubDrain < 0 || drained > hubDrain) {
				t.Errorf("%s's drain ended at event %d, the hub's began at %d: the hub drains last", name, drained, hubDrain)
			}
		}
		for _, pkg := range []string{"aws", "github"} {
			if left := notRetained(env.Cloud().Records(pkg, "")); len(left) > 0 {
				t.Errorf("%d %s resources left after destroy, first %s %s", len(left), pkg, left[0].Type, left[0].ID)
			}
		}
		if kept := len(env.Cloud().Records("aws", "aws:s3/bucketV2:BucketV2")); kept != 2 {
			t.Errorf("the two spokes' Velero buckets hold backups and are retained; %d are left", kept)
		}
		if _, dep := stack.Export(false); len(dep.Resources) != 0 {
			t.Errorf("the stack still has %d resources", len(dep.Resources))
		}
	})
	if names := env.ControlPlanes(); len(names) != 0 {
		t.Errorf("control planes after destroy: %v", names)
	}
}

// devClusters are the clusters of examples/fleet/Pulumi.dev.yaml and their regions.
var devClusters = map[string]string{"hub": "us-east-1", "spoke-use2": "us-east-2", "spoke-usw2": "us-west-2"}

// ownerOf is the cluster a resource belongs to, from its name ("spoke-use2-node-role" -> "spoke-use2").
func ownerOf(name string) string {
	for _, tenant := range []string{"payments", "search"} { // the dev stack's tenants: <tenant>-<cluster>-...
		name = strings.TrimPrefix(name, tenant+"-")
	}
	best := ""
	for c := range devClusters {
		if (name == c || strings.HasPrefix(name, c+"-")) && len(c) > len(best) {
			best = c
		}
	}
	return best
}

func devControlPlanes(env *fleettest.Env) []string {
	var names []string
	for cluster, region := range devClusters {
		names = append(names, env.ClusterIn(region, cluster).ControlPlane())
	}
	return slices.Sorted(slices.Values(names))
}

func established(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conditions {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

func deploymentAvailable(d appsv1.Deployment) bool {
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable && c.Status == "True" {
			return true
		}
	}
	return false
}
