package controlplane_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// clustersForTest are control planes in a temporary workdir from the binaries `make kube` builds, deleted when
// the test ends.
func clustersForTest(t *testing.T) controlplane.Clusters {
	t.Helper()
	root, err := offline.Root()
	if err != nil {
		t.Fatal(err)
	}
	c := controlplane.Clusters{Workdir: t.TempDir(), Bin: filepath.Join(root, "bin", "kube")}
	if _, err := os.Stat(filepath.Join(c.Bin, "kwokctl")); err != nil {
		t.Fatalf("the control plane's binaries: %v (build them with `make kube`)", err)
	}
	t.Cleanup(func() {
		if err := c.DeleteAll(context.Background()); err != nil {
			t.Errorf("delete: %v", err)
		}
	})
	return c
}

// TestControlPlane is a control plane's life: created with ready nodes, it runs a Deployment to Available (the
// controller manager, the scheduler and kwok's kubelets at work); stopped (its processes killed, as a reboot
// would), then started after another control plane was created meanwhile (on ports of its own), it still holds the
// Deployment; deleted, nothing of it is left.
func TestControlPlane(t *testing.T) {
	ctx := context.Background()
	c := clustersForTest(t)
	name := controlplane.Name("us-east-1", "hub")
	if err := c.Create(ctx, name, nil); err != nil {
		t.Fatal(err)
	}
	kube := client(t, c, name)
	version, err := kube.Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if version.GitVersion != controlplane.KubeVersion {
		t.Errorf("server version %s, want %s", version.GitVersion, controlplane.KubeVersion)
	}
	nodes, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != controlplane.Nodes {
		t.Errorf("%d nodes, want %d", len(nodes.Items), controlplane.Nodes)
	}

	replicas := int32(2)
	labels := map[string]string{"app": "web"}
	_, err = kube.AppsV1().Deployments("default").Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	available(t, kube, "web", replicas)

	// Stopped the hard way: every process of the control plane killed, its pid files left behind.
	processes := c.PIDs(name)
	if len(processes) == 0 {
		t.Fatal("the running control plane has no live process in its pid files")
	}
	for _, pid := range processes {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 10*time.Second, true,
		func(context.Context) (bool, error) { return !c.Running(name), nil }); err != nil {
		t.Fatal("the control plane still runs after its processes were killed")
	}
	// A control plane created while it is stopped is given ports of its own: both run side by side after.
	other := controlplane.Name("us-east-1", "mgmt")
	if err := c.Create(ctx, other, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, name); err != nil {
		t.Fatalf("starting the control plane again after another was created: %v", err)
	}
	kube = client(t, c, name)
	if _, err := kube.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{}); err != nil {
		t.Errorf("after a restart: %v", err)
	}
	if _, err := client(t, c, other).Discovery().ServerVersion(); err != nil {
		t.Errorf("the other control plane, beside the restarted one: %v", err)
	}
	if err := c.Delete(ctx, other); err != nil {
		t.Fatal(err)
	}

	if err := c.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if names := c.Names(); len(names) != 0 {
		t.Errorf("control planes after delete: %v", names)
	}
	if c.Running(name) {
		t.Error("the API server still runs after delete")
	}
}

func client(t *testing.T, c controlplane.Clusters, name string) kubernetes.Interface {
	t.Helper()
	kube, err := c.Typed(name)
	if err != nil {
		t.Fatal(err)
	}
	return kube
}

func available(t *testing.T, kube kubernetes.Interface, name string, replicas int32) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true,
		func(ctx context.Context) (bool, error) {
			d, err := kube.AppsV1().Deployments("default").Get(ctx, name, metav1.GetOptions{})
			return err == nil && d.Status.AvailableReplicas == replicas, nil
		})
	if err != nil {
		t.Fatalf("deployment %s never had %d available replicas: %v", name, replicas, err)
	}
}
