package e2e

import (
	"context"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestDevFleetOnRealServers is the dev fleet with a real control plane behind each of its EKS clusters and every
// Kubernetes object written by the real Pulumi Kubernetes provider: the servers accept what the fleet writes
// (Argo CD's chart with its CRDs established and its Deployments available, the cluster secrets, the
// ApplicationSets and AppProjects against the chart's CRDs, the tenants' namespaces), a second up changes
// nothing against them (no server-side default drifts), and destroy deletes the control planes with the clusters.
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

	t.Run("the hub holds every cluster secret, ApplicationSet and AppProject the fleet wrote", func(t *testing.T) {
		secrets, err := typed(t, env, hub).CoreV1().Secrets(gitopsbridge.DefaultNamespace).List(ctx,
			metav1.ListOptions{LabelSelector: "argocd.argoproj.io/secret-type=cluster"})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range secrets.Items {
			names = append(names, s.Name)
		}
		if want := slices.Sorted(mapKeys(devClusters)); !slices.Equal(slices.Sorted(slices.Values(names)), want) {
			t.Errorf("cluster secrets %v, want %v", names, want)
		}
		dyn := dynamicClient(t, env, hub)
		for _, kind := range []struct {
			resource string
			want     []string
		}{
			{"appprojects", []string{gitopsbridge.AddonsProject, gitopsbridge.WorkloadsProject}},
			{"applicationsets", []string{"bootstrap-addons", "bootstrap-workloads"}},
		} {
			list, err := dyn.Resource(schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1",
				Resource: kind.resource}).Namespace(gitopsbridge.DefaultNamespace).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("%s: %v", kind.resource, err)
			}
			for _, want := range kind.want {
				if !slices.ContainsFunc(list.Items, func(u unstructured.Unstructured) bool { return u.GetName() == want }) {
					t.Errorf("no %s %s on the hub", kind.resource, want)
				}
			}
		}
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

	t.Run("a second up plans no change against the real servers", func(t *testing.T) {
		if _, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(progress(t, env, "preview"))); err != nil {
			t.Fatalf("preview --expect-no-changes: %v", err)
		}
	})

	if _, err := stack.Destroy(ctx, optdestroy.ProgressStreams(progress(t, env, "destroy"))); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if names := env.Clusters.Names(); len(names) != 0 {
		t.Errorf("control planes after destroy: %v", names)
	}
}

func devControlPlanes() []string {
	var names []string
	for cluster, region := range devClusters {
		names = append(names, controlplane.Name(region, cluster))
	}
	return slices.Sorted(slices.Values(names))
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func typed(t *testing.T, env *offline.Env, name string) kubernetes.Interface {
	t.Helper()
	cfg, err := env.Clusters.Admin(name)
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return kube
}

func dynamicClient(t *testing.T, env *offline.Env, name string) dynamic.Interface {
	t.Helper()
	cfg, err := env.Clusters.Admin(name)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
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
