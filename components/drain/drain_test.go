package drain

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
)

// object is an unstructured object of the given API version and kind.
func object(apiVersion, kind, namespace, name string, spec map[string]any) *unstructured.Unstructured {
	o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": namespace}}}
	if spec != nil {
		o.Object["spec"] = spec
	}
	return o
}

// workloads are what a decommissioned cluster still holds: an Ingress, a LoadBalancer and a ClusterIP Service,
// a claim on a Delete volume and one on a Retain volume, and Karpenter v0.34's (v1beta1) node pool and claim.
func workloads() []runtime.Object {
	return []runtime.Object{
		object("networking.k8s.io/v1", "Ingress", "shop", "web", nil),
		object("v1", "Service", "shop", "web-lb", map[string]any{"type": "LoadBalancer"}),
		object("v1", "Service", "shop", "web", map[string]any{"type": "ClusterIP"}),
		object("v1", "PersistentVolumeClaim", "shop", "cache", map[string]any{"volumeName": "pv-cache"}),
		object("v1", "PersistentVolumeClaim", "shop", "orders", map[string]any{"volumeName": "pv-orders"}),
		object("v1", "PersistentVolume", "", "pv-cache", map[string]any{"persistentVolumeReclaimPolicy": "Delete"}),
		object("v1", "PersistentVolume", "", "pv-orders", map[string]any{"persistentVolumeReclaimPolicy": "Retain",
			"csi": map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0orders"}}),
		object("karpenter.sh/v1beta1", "NodePool", "", "default", nil),
		object("karpenter.sh/v1beta1", "NodeClaim", "", "default-x7k2p", nil),
	}
}

var listKinds = map[schema.GroupVersionResource]string{
	{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}:        "IngressList",
	{Version: "v1", Resource: "services"}:                                     "ServiceList",
	{Version: "v1", Resource: "persistentvolumeclaims"}:                       "PersistentVolumeClaimList",
	{Version: "v1", Resource: "persistentvolumes"}:                            "PersistentVolumeList",
	{Group: "karpenter.sh", Version: "v1beta1", Resource: "nodepools"}:        "NodePoolList",
	{Group: "karpenter.sh", Version: "v1beta1", Resource: "nodeclaims"}:       "NodeClaimList",
	{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}:             "NodePoolList",
	{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}:            "NodeClaimList",
	{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "gateways"}: "GatewayList",
}

// cluster is a fake API server holding objs. The Gateway API is not installed (a list is 404), and a name in
// stuck keeps its object on delete (a finalizer nobody removes).
func cluster(objs []runtime.Object, stuck ...string) *dynamicfake.FakeDynamicClient {
	c := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...)
	c.PrependReactor("list", "gateways", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "gateway.networking.k8s.io", Resource: "gateways"}, "")
	})
	c.PrependReactor("delete", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return slices.Contains(stuck, a.(k8stesting.DeleteAction).GetName()), nil, nil
	})
	return c
}

// deletes are the objects the drain deleted, in order, as "<resource> <namespace>/<name>".
func deletes(c *dynamicfake.FakeDynamicClient) []string {
	var out []string
	for _, a := range c.Actions() {
		if d, ok := a.(k8stesting.DeleteAction); ok {
			out = append(out, d.GetResource().Resource+" "+d.GetNamespace()+"/"+d.GetName())
		}
	}
	return out
}

// fakeAWS is a fake account: each call to Tagged returns the next answer (the last one once they run out).
type fakeAWS struct {
	mu      sync.Mutex
	answers [][]string
	err     error
	calls   int
}

func (a *fakeAWS) Tagged(context.Context, string) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	if a.err != nil {
		return nil, a.err
	}
	i := min(a.calls-1, len(a.answers)-1)
	if i < 0 {
		return nil, nil
	}
	return a.answers[i], nil
}

const (
	lb = "arn:aws:elasticloadbalancing:us-east-2:123456789012:loadbalancer/app/k8s-shop-web/abc"
	// retainedVolume is pv-orders' volume (reclaim policy Retain), cacheVolume pv-cache's (Delete).
	retainedVolume = "arn:aws:ec2:us-east-2:123456789012:volume/vol-0orders"
	cacheVolume    = "arn:aws:ec2:us-east-2:123456789012:volume/vol-0cache"
)

func TestDrain(t *testing.T) {
	everything := []string{"ingresses shop/web", "services shop/web-lb", "persistentvolumeclaims shop/cache",
		"nodepools /default", "nodeclaims /default-x7k2p"}
	cases := map[string]struct {
		reason  string
		stuck   []string
		aws     *fakeAWS
		keep    []Kind
		force   bool
		deletes []string
		err     string // "" for success; else a part of the *LeftoverError's message
		left    []string
	}{
		"all goes": {reason: "in order: load balancers' objects, LoadBalancer Services (not ClusterIP), claims on " +
			"Delete volumes (not Retain), Karpenter's pools then claims; then AWS empties",
			aws: &fakeAWS{answers: [][]string{{lb}, {lb}, nil}}, deletes: everything},
		"a retained volume": {reason: "the volume of a Retain PersistentVolume stays on purpose: not waited for",
			aws: &fakeAWS{answers: [][]string{{retainedVolume}}}, deletes: everything},
		"keep claims": {reason: "drain.keep leaves the kind alone, and the volumes its claims hold",
			aws: &fakeAWS{answers: [][]string{{cacheVolume}}}, keep: []Kind{PersistentVolumeClaims}, deletes: []string{"ingresses shop/web", "services shop/web-lb", "nodepools /default", "nodeclaims /default-x7k2p"}},
		"an AWS leftover": {reason: "a load balancer that never goes: the ARN and the ways out",
			aws: &fakeAWS{answers: [][]string{{lb}}}, deletes: everything, err: "drain.force: true", left: []string{lb}},
		"a deleted claim's volume stays": {reason: "a Delete volume still there is a leftover, beside a retained one",
			aws: &fakeAWS{answers: [][]string{{cacheVolume, retainedVolume}}}, deletes: everything, err: "still there",
			left: []string{cacheVolume}},
		"an AWS leftover, forced": {reason: "drain.force goes on", force: true,
			aws: &fakeAWS{answers: [][]string{{lb}}}, deletes: everything},
		"an object that stays": {reason: "an Ingress held by a finalizer: nothing after it is deleted",
			stuck: []string{"web"}, aws: &fakeAWS{}, deletes: []string{"ingresses shop/web"},
			err: "objects are still being deleted", left: []string{"ingresses shop/web"}},
		"an object that stays, forced": {reason: "drain.force goes on past a stuck object: the later steps are deleted " +
			"and AWS is asked, within a poll interval each", force: true, stuck: []string{"web"},
			aws: &fakeAWS{answers: [][]string{{lb}}}, deletes: everything},
		"AWS cannot be asked": {reason: "an API error fails the drain", aws: &fakeAWS{err: errors.New("AccessDenied")},
			deletes: everything, err: "AccessDenied"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube := cluster(workloads(), tc.stuck...)
			var logs []string
			d := Drainer{Cluster: "spoke-b", Kube: kube, AWS: tc.aws, Log: func(m string) { logs = append(logs, m) },
				Settings: Settings{Timeout: 300 * time.Millisecond, Poll: 5 * time.Millisecond, Force: tc.force, Keep: tc.keep}}
			err := d.Run(context.Background())
			if diff := cmp.Diff(tc.deletes, deletes(kube)); diff != "" {
				t.Errorf("%s: deletes (-want +got):\n%s", tc.reason, diff)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%s: %v", tc.reason, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%s: want an error containing %q, got %v", tc.reason, tc.err, err)
			}
			var lerr *LeftoverError
			if errors.As(err, &lerr) {
				if got := append(lerr.ARNs, lerr.Objects...); !slices.Equal(got, tc.left) {
					t.Errorf("%s: left %v, want %v", tc.reason, got, tc.left)
				}
			} else if tc.left != nil {
				t.Errorf("%s: want a *LeftoverError naming %v, got %v", tc.reason, tc.left, err)
			}
			if tc.force && !slices.ContainsFunc(logs, func(m string) bool { return strings.Contains(m, lb) }) {
				t.Errorf("a forced drain logs what it leaves: %v", logs)
			}
			if tc.force && tc.stuck != nil && !slices.ContainsFunc(logs, func(m string) bool {
				return strings.Contains(m, "still being deleted") && strings.Contains(m, "shop/web")
			}) {
				t.Errorf("a forced drain logs the object it left: %v", logs)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		max  time.Duration
		want []time.Duration
	}{
		{10 * time.Second, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}},
		{300 * time.Millisecond, []time.Duration{300 * time.Millisecond, 300 * time.Millisecond}},
	} {
		next := backoff(tc.max)
		var got []time.Duration
		for range tc.want {
			got = append(got, next())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("backoff(%s) = %v, want %v", tc.max, got, tc.want)
		}
	}
}
