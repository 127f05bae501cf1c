package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/workloads"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// putWorkloadsOnServer writes spokeWorkloads of cluster into its real API server (namespace shop; Karpenter's
// NodePool and NodeClaim kinds from stand-in CRDs, the NodeClaim owned by the NodePool so that the server's
// garbage collector deletes it with its pool) and the AWS resources their controllers made into the offline cloud.
// It then plays those controllers for each object that made some (playController), until the object or the server
// is gone.
func putWorkloadsOnServer(t *testing.T, env *fleettest.Env, cluster, region string) {
	t.Helper()
	ctx := context.Background()
	plane := env.ClusterIn(region, cluster)
	dyn := plane.Dynamic()
	openCRD(ctx, t, dyn, nodePools, "NodePool", "Cluster")
	openCRD(ctx, t, dyn, nodeClaims, "NodeClaim", "Cluster")
	if _, err := plane.Typed().CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	objects, tagged := spokeWorkloads(cluster, region)
	if err := workloads.Put(env.Cloud().Store(), nil, tagged); err != nil {
		t.Fatal(err)
	}
	var pool *unstructured.Unstructured
	for _, o := range objects {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(o.Object)}
		if o.Resource == nodeClaims && pool != nil {
			u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "karpenter.sh/v1", Kind: "NodePool",
				Name: pool.GetName(), UID: pool.GetUID()}})
		}
		res := dyn.Resource(o.Resource).Namespace(u.GetNamespace())
		created, err := res.Create(ctx, u, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("%s %s/%s on %s: %v", u.GetKind(), u.GetNamespace(), u.GetName(), cluster, err)
		}
		if o.Resource == nodePools {
			pool = created
		}
		if len(o.Made) > 0 {
			go playController(env, res, created, o.Made)
		}
	}
}

// controllerFinalizers are the finalizers the add-on controllers put on objects they made cloud resources for.
var controllerFinalizers = []string{ingressFinalizer, lbFinalizer, karpenterFinalizer}

// playController plays the add-on controller that made the cloud resources `made` for obj: once obj is being deleted
// (or is gone, when no controller's finalizer holds it), the controller deletes them (releaseAfter later) and removes
// its finalizer, as the AWS Load Balancer Controller, the EBS CSI driver and Karpenter do. It ends with the object, or
// when the server goes.
func playController(env *fleettest.Env, res dynamic.ResourceInterface, obj *unstructured.Unstructured, made []string) {
	ctx := context.Background()
	w, err := res.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + obj.GetName(),
		ResourceVersion: obj.GetResourceVersion()})
	if err != nil {
		return
	}
	defer w.Stop()
	forgotten := false
	for e := range w.ResultChan() {
		o, ok := e.Object.(*unstructured.Unstructured)
		if !ok || (e.Type != watch.Deleted && o.GetDeletionTimestamp() == nil) {
			continue
		}
		if !forgotten {
			time.Sleep(releaseAfter)
			if workloads.Forget(env.Cloud().Store(), made) != nil {
				return
			}
			forgotten = true
		}
		if e.Type == watch.Deleted {
			return
		}
		keep := slices.DeleteFunc(slices.Clone(o.GetFinalizers()), func(f string) bool { return slices.Contains(controllerFinalizers, f) })
		if len(keep) == len(o.GetFinalizers()) {
			continue // another's finalizer (pvc-protection): the server deletes it once that is released
		}
		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": keep}})
		if _, err := res.Patch(ctx, o.GetName(), types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return
		}
	}
}

// workloadsOnServer are the workloads' objects left on the real API server of cluster, as "<resource>/<name>", sorted:
// those of namespace shop and the cluster-scoped ones of spokeWorkloads' kinds.
func workloadsOnServer(t *testing.T, env *fleettest.Env, cluster, region string) []string {
	t.Helper()
	dyn := env.ClusterIn(region, cluster).Dynamic()
	var names []string
	for _, gvr := range []schema.GroupVersionResource{ingresses, services, claims, volumes, nodePools, nodeClaims} {
		var res dynamic.ResourceInterface = dyn.Resource(gvr)
		if !slices.Contains([]schema.GroupVersionResource{volumes, nodePools, nodeClaims}, gvr) {
			res = dyn.Resource(gvr).Namespace("shop")
		}
		list, err := res.List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list.Items {
			names = append(names, gvr.Resource+"/"+o.GetName())
		}
	}
	return slices.Sorted(slices.Values(names))
}
