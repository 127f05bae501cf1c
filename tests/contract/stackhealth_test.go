package contract

import (
	"context"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/lua"
	"github.com/argoproj/argo-cd/v3/util/settings"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
)

// TestStackHealth: Argo CD v3.5.7 reads StackDelivery's argocd-cm entry as the health check of pulumi.com/v1
// Stacks (its settings manager and Lua VM, as the application controller does) and maps PKO's Stack conditions
// as PKO documents them: Ready is Healthy, Reconciling is Progressing, Stalled is Degraded. So Argo CD's health,
// and Kargo's verification of a promotion with it, waits for the Stack to be Ready.
func TestStackHealth(t *testing.T) {
	overrides := stackOverrides(t)
	vm := lua.VM{ResourceOverrides: overrides}
	cases := map[string]struct {
		conditions []any
		want       string
	}{
		"not seen by PKO yet": {want: "Progressing"},
		"an update runs":      {conditions: conditions("Ready", "False", "Reconciling", "True"), want: "Progressing"},
		"updated":             {conditions: conditions("Ready", "True"), want: "Healthy"},
		"failed, retrying":    {conditions: conditions("Ready", "False"), want: "Progressing"},
		"failed, given up":    {conditions: conditions("Ready", "False", "Stalled", "True"), want: "Degraded"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "pulumi.com/v1", "kind": "Stack",
				"metadata": map[string]any{"name": "fleet-prod", "namespace": "fleet-stacks"},
			}}
			if tc.conditions != nil {
				obj.Object["status"] = map[string]any{"conditions": tc.conditions}
			}
			script, _, err := vm.GetHealthScript(obj)
			if err != nil || script == "" {
				t.Fatalf("Argo CD has no health script for pulumi.com/Stack: %q, %v", script, err)
			}
			h, err := vm.ExecuteHealthLua(obj, script)
			if err != nil {
				t.Fatal(err)
			}
			if string(h.Status) != tc.want {
				t.Errorf("health %s (%s), want %s", h.Status, h.Message, tc.want)
			}
		})
	}
}

// stackOverrides are Argo CD's resource overrides from an argocd-cm that holds StackDelivery's entry.
func stackOverrides(t *testing.T) map[string]argov1alpha1.ResourceOverride {
	t.Helper()
	part := map[string]string{"app.kubernetes.io/part-of": "argocd"}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cm", Namespace: "argocd", Labels: part},
		Data: map[string]string{delivery.HealthCheckKey: delivery.HealthCheck}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "argocd-secret", Namespace: "argocd", Labels: part}}
	mgr := settings.NewSettingsManager(context.Background(), fake.NewClientset(cm, secret), "argocd")
	overrides, err := mgr.GetResourceOverrides()
	if err != nil {
		t.Fatal(err)
	}
	if overrides["pulumi.com/Stack"].HealthLua == "" {
		t.Fatalf("argocd-cm key %s gives no health check: %v", delivery.HealthCheckKey, overrides)
	}
	return overrides
}

// conditions are status conditions from type, status pairs.
func conditions(pairs ...string) []any {
	var out []any
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, map[string]any{"type": pairs[i], "status": pairs[i+1], "message": pairs[i] + " is " + pairs[i+1]})
	}
	return out
}
