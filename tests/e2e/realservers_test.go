package e2e

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestDevFleetOnRealServers is the dev fleet with a real control plane behind each of its EKS clusters and every
// Kubernetes object written by the real Pulumi Kubernetes provider: the servers accept what the fleet writes
// (Argo CD's chart with its CRDs established and its Deployments available, the cluster secrets, the
// ApplicationSets and AppProjects against the chart's CRDs, the tenants' namespaces), enforce what it means (the
// cluster-secret guard, Pod Security, quotas), authenticate and authorize who it grants access as EKS does (the
// tenants' owners, the hub's Argo CD), a second up changes nothing against them (no server-side default drifts),
// and destroy drains the spokes' load balancers and claims on them, then deletes the control planes with the
// clusters.
func TestDevFleetOnRealServers(t *testing.T) {
	ctx := context.Background()
	env := offline.ForTestWith(t, offline.Options{ControlPlanes: true})
	stack := fleetStack(t, env, "dev")
	if _, err := stack.Up(ctx, optup.ProgressStreams(progress(t, env, "up"))); err != nil {
		t.Fatalf("up: %v", err)
	}
	hub := controlplane.Name(devClusters["hub"], "hub")
	if got, want := slices.Sorted(slices.Values(env.Clusters.Names())), devControlPlanes(); !slices.Equal(got, want) {
		t.Fatalf("control planes %v, want %v", got, want)
	}

	t.Run("Argo CD's chart is installed on the hub: CRDs established, Deployments available", func(t *testing.T) {
		ext := dynamicClient(t, env, hub).Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io",
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
		deployments, err := typed(t, env, hub).AppsV1().Deployments(gitopsbridge.DefaultNamespace).List(ctx, metav1.ListOptions{})
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
		objects := stateObjects(t, env, stack)
		kinds := map[string]int{}
		for _, o := range objects {
			kinds[o.kind]++
			if _, err := o.get(ctx, t, env); err != nil {
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
		secrets, err := typed(t, env, hub).CoreV1().Secrets(gitopsbridge.DefaultNamespace).List(ctx,
			metav1.ListOptions{LabelSelector: "argocd.argoproj.io/secret-type=cluster"})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range secrets.Items {
			names = append(names, s.Name)
		}
		if want := slices.Sorted(maps.Keys(devClusters)); !slices.Equal(slices.Sorted(slices.Values(names)), want) {
			t.Errorf("cluster secrets %v, want %v", names, want)
		}
	})

	t.Run("the hub's API server enforces the cluster-secret guards on every writer but the deployer", func(t *testing.T) {
		testClusterSecretGuards(ctx, t, env, hub)
	})

	t.Run("the hub's API server fences the add-ons' Applications and the hub's projects", func(t *testing.T) {
		testApplicationGuards(ctx, t, env, hub)
	})

	t.Run("the tenants' namespaces are on the spokes they select, with their Pod Security level", func(t *testing.T) {
		for cluster, namespaces := range map[string][]string{
			"spoke-use2": {"payments", "payments-batch"}, "spoke-usw2": {"payments", "payments-batch", "search"},
		} {
			kube := typed(t, env, controlplane.Name(devClusters[cluster], cluster))
			for _, ns := range namespaces {
				got, err := kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
				if err != nil {
					t.Errorf("%s: namespace %s: %v", cluster, ns, err)
					continue
				}
				if got.Labels["pod-security.kubernetes.io/enforce"] == "" {
					t.Errorf("%s: namespace %s has no Pod Security level: %v", cluster, ns, got.Labels)
				}
			}
		}
	})

	t.Run("a spoke's API server enforces a tenant namespace's Pod Security level and quota", func(t *testing.T) {
		pods := typed(t, env, controlplane.Name(devClusters["spoke-usw2"], "spoke-usw2")).CoreV1().Pods("payments")
		dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
		privileged := true
		_, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "root"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox",
				SecurityContext: &corev1.SecurityContext{Privileged: &privileged}}}}}, dryRun)
		if err == nil || !strings.Contains(err.Error(), `violates PodSecurity "restricted:`) {
			t.Errorf("a privileged pod in payments (restricted): %v, want PodSecurity's refusal", err)
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

	t.Run("the tenants' owners reach their namespaces through EKS authentication, and nothing else", func(t *testing.T) {
		testOwnersAccess(t, env)
	})
	t.Run("the hub's Argo CD reaches each spoke through its cluster secret, as the fleet grants", func(t *testing.T) {
		testArgoCDAccess(t, env)
	})

	t.Run("a second up plans no change against the real servers", func(t *testing.T) {
		if _, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(progress(t, env, "preview"))); err != nil {
			t.Fatalf("preview --expect-no-changes: %v", err)
		}
	})

	t.Run("destroy drains a spoke's load balancers and claims on its real server, waiting for their finalizers", func(t *testing.T) {
		testDrainOnRealServers(t, env, stack)
	})
	if names := env.Clusters.Names(); len(names) != 0 {
		t.Errorf("control planes after destroy: %v", names)
	}
}

// impersonated is the configuration of a client of control plane name acting as user, in the service accounts'
// groups (the administrator may impersonate anyone).
func impersonated(t *testing.T, env *offline.Env, name, user string) *rest.Config {
	t.Helper()
	cfg, err := env.Clusters.Admin(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: []string{"system:serviceaccounts", "system:authenticated"}}
	return cfg
}

// impersonating is a client of control plane name acting as user (impersonated).
func impersonating(t *testing.T, env *offline.Env, name, user string) kubernetes.Interface {
	t.Helper()
	kube, err := kubernetes.NewForConfig(impersonated(t, env, name, user))
	if err != nil {
		t.Fatal(err)
	}
	return kube
}

func devControlPlanes() []string {
	var names []string
	for cluster, region := range devClusters {
		names = append(names, controlplane.Name(region, cluster))
	}
	return slices.Sorted(slices.Values(names))
}

func typed(t *testing.T, env *offline.Env, name string) kubernetes.Interface {
	t.Helper()
	kube, err := env.Clusters.Typed(name)
	if err != nil {
		t.Fatal(err)
	}
	return kube
}

func dynamicClient(t *testing.T, env *offline.Env, name string) dynamic.Interface {
	t.Helper()
	dyn, err := env.Clusters.Dynamic(name)
	if err != nil {
		t.Fatal(err)
	}
	return dyn
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
