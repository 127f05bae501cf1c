package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/spokegen"
)

// testClusterSecretGuardAtSize: the hub's API server stores the cluster-secret guard of a hub and n realistic
// spokes (tests/spokegen), as GitOpsBridge would build it, and enforces it: the last spoke's secret, written by
// a sync, is admitted; a flipped add-on label and an unregistered cluster are refused with the guard's message.
// The guard is a copy, under its own name and bound to a namespace of its own, so the fleet's guard is untouched;
// every write of a Secret is a dry run, and the copy and its namespace are deleted after.
func testClusterSecretGuardAtSize(ctx context.Context, t *testing.T, hub *fleettest.Hub, n int) {
	const ns, name = "guard-at-size", "gitops-fleet-cluster-secrets-at-size"
	g := gitopsbridge.ClusterSecretGuard{Namespace: ns, SecretWriters: []string{argoCDUser(gitopsbridge.ServerServiceAccount)},
		Registered: []gitopsbridge.ClusterSecret{{Name: "hub", Namespace: ns, ClusterName: "hub",
			Labels: gitopsbridge.Labels("hub", "prod", "1.33", 0, nil, nil), Server: gitopsbridge.InClusterServer,
			Config: gitopsbridge.InClusterConfig()}}}
	for i := range n {
		s := spokegen.Spoke(i)
		s.Namespace = ns
		g.Registered = append(g.Registered, s)
	}
	p := g.Policy()
	p.Name = name
	admin := hub.Typed()
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{}) })
	controllerAsAdmin(ctx, t, hub, ns)
	for _, o := range []struct {
		resource string
		object   map[string]any
	}{{"validatingadmissionpolicies", p.Object()}, {"validatingadmissionpolicybindings", p.Binding()}} {
		r := hub.Dynamic().Resource(schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: o.resource})
		if _, err := r.Create(ctx, &unstructured.Unstructured{Object: o.object}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("the API server refused the guard of %d spokes (%s): %v", n, o.resource, err)
		}
		t.Cleanup(func() { _ = r.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}
	raw, _ := json.Marshal(p.Object())
	t.Logf("the guard of %d spokes: %d bytes of JSON", n, len(raw))

	controller := hub.TypedAs(argoCDUser(gitopsbridge.ApplicationControllerServiceAccount)).CoreV1().Secrets(ns)
	secret := func(s gitopsbridge.ClusterSecret, edit func(*corev1.Secret)) *corev1.Secret {
		out := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: ns, Labels: s.Labels,
			Annotations: map[string]string{"argocd.argoproj.io/tracking-id": "cluster-registry:/Secret:" + ns + "/" + s.Name}},
			StringData: s.StringData()}
		for k, v := range s.Annotations {
			out.Annotations[k] = v
		}
		if edit != nil {
			edit(out)
		}
		return out
	}
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	rogue := spokegen.Spoke(n)
	// The API server enforces a new policy once its informer has it: until then the rogue secret is admitted.
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := controller.Create(ctx, secret(rogue, nil), dryRun)
		if err != nil {
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "is not one the stack registered, by name") {
				t.Errorf("an unregistered cluster: %v, want the guard's refusal", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the guard of %d spokes is not enforced a minute after it was stored", n)
		}
		time.Sleep(time.Second)
	}
	last := g.Registered[len(g.Registered)-1]
	if _, err := controller.Create(ctx, secret(last, nil), dryRun); err != nil {
		t.Errorf("spoke %s, the last registered, from Git: %v", last.Name, err)
	}
	flipped := secret(g.Registered[n/2], func(s *corev1.Secret) { s.Labels["enable_velero"] = "false" })
	if _, err := controller.Create(ctx, flipped, dryRun); err == nil || !strings.Contains(err.Error(), "label enable_velero differ") {
		t.Errorf("a flipped add-on label: %v, want the guard's refusal", err)
	}
}
