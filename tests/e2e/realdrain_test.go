package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// lbFinalizer is the finalizer the AWS Load Balancer Controller puts on a Service whose load balancer it made, and
// removes once the load balancer is deleted.
const lbFinalizer = "service.k8s.aws/resources"

// releaseAfter is how long the test's stand-ins for the add-on controllers take to delete what they made before they
// release its object. A drain waits for each kind in turn (ingresses, Services, claims, NodePools, NodeClaims), so
// TestDay2's 20 s drain timeout holds five of these plus the API servers' time on a loaded machine: at 3 s, one run
// on 2 busy cores ran out of it at the NodeClaims.
const releaseAfter = time.Second

// testDrainOnRealServers destroys the stack with workloads on spoke-usw2's real API server: a Service of type
// LoadBalancer under the AWS Load Balancer Controller's finalizer (the test plays the controller: it releases the
// Service releaseAfter after its deletion is asked), a ClusterIP Service and a PersistentVolumeClaim (the API
// server gives it the pvc-protection finalizer, which kube-controller-manager releases). The spoke's drain deletes
// the load balancer's Service and the claim, leaves the ClusterIP Service, and ends only once both are gone, before
// its cluster is deleted; a Karpenter NodePool (a stand-in CRD: Karpenter's chart is not here) under Karpenter's
// finalizer, which the test releases releaseAfter after the delete as Karpenter would, is deleted and waited for
// too. Before
// that, a claim in a tenant's namespace stops the destroy at the tenant's guard, the drain not run. It returns the
// destroy's steps.
func testDrainOnRealServers(t *testing.T, env *fleettest.Env, stack *fleettest.Stack) fleettest.Steps {
	env, stack = env.For(t), stack.For(t)
	ctx := context.Background()
	const cluster = "spoke-usw2"
	kube := env.Cluster(cluster).Typed()
	services, claims := kube.CoreV1().Services("default"), kube.CoreV1().PersistentVolumeClaims("default")
	port := []corev1.ServicePort{{Port: 443}}
	if _, err := services.Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Finalizers: []string{lbFinalizer}},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: port}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := services.Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "internal"},
		Spec: corev1.ServiceSpec{Ports: port}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	claim, err := claims.Create(ctx, &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data"},
		Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceStorage: resource.MustParse("1Gi")}}}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(claim.Finalizers) == 0 {
		t.Errorf("the API server gave the claim no finalizer: %v", claim.Finalizers)
	}

	dyn := env.Cluster(cluster).Dynamic()
	nodePools := karpenterNodePools(ctx, t, dyn)
	if _, err := nodePools.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": "general", "finalizers": []any{karpenterFinalizer}},
		"spec":     map[string]any{"template": map[string]any{"spec": map[string]any{}}},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	seen := &drainSeen{}
	watchCtx, stop := context.WithCancel(ctx)
	defer stop()
	go seen.playLoadBalancerController(watchCtx, kube)
	go seen.watchClaims(watchCtx, kube)
	go seen.playKarpenter(watchCtx, nodePools)

	// A claim of the payments tenant (preventDeletion, its default): the tenant's guard refuses the destroy, and
	// does so before the spoke's drain, which would delete every claim on a Delete volume, the tenant's included.
	tenantClaims := kube.CoreV1().PersistentVolumeClaims("payments")
	ledger := claim.DeepCopy()
	ledger.ObjectMeta = metav1.ObjectMeta{Name: "ledger"}
	if _, err := tenantClaims.Create(ctx, ledger, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = stack.TryDestroy("destroy-refused")
	if err == nil || !strings.Contains(err.Error(), `its namespaces on cluster "spoke-usw2" hold PersistentVolumeClaims (payments/ledger)`) {
		t.Fatalf("destroy with a claim in payments: %v, want the payments guard's refusal naming payments/ledger", err)
	}
	for _, c := range []struct{ namespace, name string }{{"payments", "ledger"}, {"default", "data"}} {
		if got, err := kube.CoreV1().PersistentVolumeClaims(c.namespace).Get(ctx, c.name, metav1.GetOptions{}); err != nil || got.DeletionTimestamp != nil {
			t.Errorf("after the refused destroy, claim %s/%s: %v (deleting: %v); the drain ran before the guard decided",
				c.namespace, c.name, err, got != nil && got.DeletionTimestamp != nil)
		}
	}
	// The tenant's data moved away, the destroy goes on.
	if err := tenantClaims.Delete(ctx, "ledger", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := tenantClaims.Get(ctx, "ledger", metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	}); err != nil {
		t.Fatalf("the tenant's claim is not gone: %v", err)
	}

	steps := stack.Destroy("destroy")
	var drainedAt time.Time
	if i := steps.Last(drain.TypeToken, "::"+cluster+"-drain", true); i >= 0 {
		drainedAt = steps[i].At
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	switch {
	case drainedAt.IsZero():
		t.Errorf("%s was not drained", cluster)
	case seen.released.IsZero():
		t.Error("the drain never asked to delete the LoadBalancer Service")
	case drainedAt.Before(seen.released):
		t.Errorf("the drain ended at %s, before the load balancer's Service was released at %s: it did not wait",
			drainedAt.Format(time.TimeOnly), seen.released.Format(time.TimeOnly))
	}
	if !seen.internalLeft {
		t.Error("the ClusterIP Service was gone when the LoadBalancer Service was deleted: the drain deletes only load balancers")
	}
	switch {
	case seen.nodePoolReleased.IsZero():
		t.Error("the drain never asked to delete Karpenter's NodePool")
	case !drainedAt.IsZero() && drainedAt.Before(seen.nodePoolReleased):
		t.Errorf("the drain ended at %s, before Karpenter released its NodePool at %s", drainedAt.Format(time.TimeOnly),
			seen.nodePoolReleased.Format(time.TimeOnly))
	}
	switch {
	case seen.claimGone.IsZero():
		t.Error("the claim was never deleted (kube-controller-manager releases pvc-protection once it is asked)")
	case !drainedAt.IsZero() && drainedAt.Before(seen.claimGone):
		t.Errorf("the drain ended at %s, before the claim was gone at %s", drainedAt.Format(time.TimeOnly),
			seen.claimGone.Format(time.TimeOnly))
	}
	return steps
}

// drainSeen is what the test's watchers saw of the drain on the server.
type drainSeen struct {
	mu               sync.Mutex
	released         time.Time // the load balancer's Service released by its controller
	internalLeft     bool      // the ClusterIP Service still there when the load balancer's was asked to go
	claimGone        time.Time
	nodePoolReleased time.Time // the NodePool released by Karpenter
}

// karpenterFinalizer is the finalizer Karpenter puts on a NodePool and removes once its nodes are gone.
const karpenterFinalizer = "karpenter.sh/termination"

// karpenterNodePools installs a stand-in for Karpenter's NodePool CRD (openCRD) and returns the NodePools' client.
func karpenterNodePools(ctx context.Context, t *testing.T, dyn dynamic.Interface) dynamic.ResourceInterface {
	t.Helper()
	openCRD(ctx, t, dyn, nodePools, "NodePool", "Cluster")
	return dyn.Resource(nodePools)
}

// openCRD installs a stand-in CRD of kind, served as the resource gvr of scope (Cluster or Namespaced) with its
// schema left open (the add-ons' charts and CRDs are not here), and returns once the server says it is established.
func openCRD(ctx context.Context, t *testing.T, dyn dynamic.Interface, gvr schema.GroupVersionResource, kind, scope string) {
	t.Helper()
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	open := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	name := gvr.Resource + "." + gvr.Group
	if _, err := crds.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{"group": gvr.Group, "scope": scope,
			"names": map[string]any{"plural": gvr.Resource, "singular": strings.ToLower(kind), "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": gvr.Version, "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": open}}}},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		return err == nil && established(crd), nil
	}); err != nil {
		t.Fatalf("the %s CRD is not established: %v", kind, err)
	}
}

// playKarpenter does what Karpenter does when a NodePool is being deleted: it drains and deletes the pool's nodes
// (here, waits releaseAfter), then removes its finalizer.
func (s *drainSeen) playKarpenter(ctx context.Context, pools dynamic.ResourceInterface) {
	w, err := pools.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=general"})
	if err != nil {
		return
	}
	released := whenDeleted(w, func() {}, func() error {
		_, err := pools.Patch(ctx, "general", types.MergePatchType, releasePatch, metav1.PatchOptions{})
		return err
	})
	s.mu.Lock()
	s.nodePoolReleased = released
	s.mu.Unlock()
}

// playLoadBalancerController does what the AWS Load Balancer Controller does when a Service it manages is being
// deleted: it deletes the load balancer (here, waits releaseAfter), then removes its finalizer. It notes whether the
// ClusterIP Service was still there when the deletion was asked.
func (s *drainSeen) playLoadBalancerController(ctx context.Context, kube kubernetes.Interface) {
	services := kube.CoreV1().Services("default")
	w, err := services.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=web"})
	if err != nil {
		return
	}
	var internalLeft bool
	released := whenDeleted(w, func() {
		_, err := services.Get(ctx, "internal", metav1.GetOptions{})
		internalLeft = err == nil
	}, func() error {
		_, err := services.Patch(ctx, "web", types.MergePatchType, releasePatch, metav1.PatchOptions{})
		return err
	})
	if !released.IsZero() {
		s.mu.Lock()
		s.released, s.internalLeft = released, internalLeft
		s.mu.Unlock()
	}
}

// releasePatch removes an object's finalizers.
var releasePatch = []byte(`{"metadata":{"finalizers":null}}`)

// whenDeleted plays the controller of the object w watches: once the object is being deleted, it calls seen (what
// the controller finds then), waits releaseAfter (the controller's cleanup), then calls release (its finalizer
// removed). It returns when release succeeded; the zero time when release failed or w ended first.
func whenDeleted(w watch.Interface, seen func(), release func() error) time.Time {
	defer w.Stop()
	for e := range w.ResultChan() {
		obj, err := meta.Accessor(e.Object)
		if err != nil || obj.GetDeletionTimestamp() == nil {
			continue
		}
		seen()
		time.Sleep(releaseAfter)
		if release() != nil {
			return time.Time{}
		}
		return time.Now()
	}
	return time.Time{}
}

// watchClaims notes when the claim is gone.
func (s *drainSeen) watchClaims(ctx context.Context, kube kubernetes.Interface) {
	w, err := kube.CoreV1().PersistentVolumeClaims("default").Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=data"})
	if err != nil {
		return
	}
	defer w.Stop()
	for e := range w.ResultChan() {
		if e.Type == watch.Deleted {
			s.mu.Lock()
			s.claimGone = time.Now()
			s.mu.Unlock()
			return
		}
	}
}
