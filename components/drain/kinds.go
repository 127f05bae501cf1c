package drain

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind names a kind of object the drain deletes; drain.keep lists kinds to leave.
type Kind string

// The kinds the drain deletes, in Steps' order.
const (
	Ingresses              Kind = "ingresses"
	Gateways               Kind = "gateways"
	LoadBalancerServices   Kind = "loadBalancerServices"
	PersistentVolumeClaims Kind = "persistentVolumeClaims"
	NodePools              Kind = "nodePools"
	NodeClaims             Kind = "nodeClaims"
)

// Step is one kind: the API resources that hold it (a kind whose CRD is not installed is skipped) and which of
// their objects the drain deletes.
type Step struct {
	Kind      Kind
	Resources []schema.GroupVersionResource
	// Selects tells whether an object is deleted; nil selects every object. lookup reads other objects (the
	// PersistentVolume of a claim).
	Selects func(obj unstructured.Unstructured, lookup Lookup) bool
}

// Lookup reads one cluster-scoped object, nil when it does not exist.
type Lookup func(gvr schema.GroupVersionResource, name string) *unstructured.Unstructured

var (
	persistentVolumes = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}
	// karpenter are the API versions of Karpenter's NodePools and NodeClaims: v1 from Karpenter v1.0, v1beta1
	// from v0.32 to v0.37 (the template's v0.34.1).
	karpenter = []string{"v1", "v1beta1"}
)

// Steps are the kinds in the order they are deleted: first what exposes the workloads (the load balancers'
// Ingresses, Gateways and Services), then their storage, then Karpenter's capacity, which the workloads ran on.
var Steps = []Step{
	{Kind: Ingresses, Resources: []schema.GroupVersionResource{{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}}},
	{Kind: Gateways, Resources: []schema.GroupVersionResource{{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "gateways"}}},
	{Kind: LoadBalancerServices, Resources: []schema.GroupVersionResource{{Version: "v1", Resource: "services"}},
		Selects: func(obj unstructured.Unstructured, _ Lookup) bool {
			t, _, _ := unstructured.NestedString(obj.Object, "spec", "type")
			return t == "LoadBalancer"
		}},
	{Kind: PersistentVolumeClaims, Resources: []schema.GroupVersionResource{{Version: "v1", Resource: "persistentvolumeclaims"}},
		Selects: deletesItsVolume},
	{Kind: NodePools, Resources: versions("karpenter.sh", "nodepools")},
	{Kind: NodeClaims, Resources: versions("karpenter.sh", "nodeclaims")},
}

func versions(group, resource string) []schema.GroupVersionResource {
	var out []schema.GroupVersionResource
	for _, v := range karpenter {
		out = append(out, schema.GroupVersionResource{Group: group, Version: v, Resource: resource})
	}
	return out
}

// deletesItsVolume selects a claim whose volume goes with it: bound to a PersistentVolume whose reclaim policy is
// Delete, or not bound yet (no volume to keep). A claim on a Retain volume is kept: the volume is kept on purpose.
func deletesItsVolume(claim unstructured.Unstructured, lookup Lookup) bool {
	volume, _, _ := unstructured.NestedString(claim.Object, "spec", "volumeName")
	if volume == "" {
		return true
	}
	pv := lookup(persistentVolumes, volume)
	if pv == nil {
		return true
	}
	policy, _, _ := unstructured.NestedString(pv.Object, "spec", "persistentVolumeReclaimPolicy")
	return policy == "Delete"
}
