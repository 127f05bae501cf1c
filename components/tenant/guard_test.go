package tenant

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi-go-provider/infer"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

// withClaims makes kubeClient a fake API holding claims ("<namespace>/<name>") for the test.
func withClaims(t *testing.T, held ...string) {
	var objs []runtime.Object
	for _, h := range held {
		ns, name, _ := strings.Cut(h, "/")
		objs = append(objs, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1",
			"kind": "PersistentVolumeClaim", "metadata": map[string]any{"name": name, "namespace": ns}}})
	}
	fake := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{claims: "PersistentVolumeClaimList"}, objs...)
	old := kubeClient
	kubeClient = func(string, string, string, string, string) (dynamic.Interface, error) { return fake, nil }
	t.Cleanup(func() { kubeClient = old })
}

func guardState(prevent bool, namespaces ...string) TenantGuardState {
	return TenantGuardState{TenantGuardArgs{Tenant: "payments", ClusterName: "spoke-a", Namespaces: namespaces, PreventDeletion: prevent}}
}

func TestGuard(t *testing.T) {
	cases := map[string]struct {
		held    []string
		run     func() error
		refuses string // "" for none; else a part of the error
	}{
		"delete, claims held": {held: []string{"payments/data", "other/x"}, refuses: "(payments/data)",
			run: func() error {
				_, err := TenantGuard{}.Delete(context.Background(), infer.DeleteRequest[TenantGuardState]{State: guardState(true, "payments")})
				return err
			}},
		"delete, no claims": {held: []string{"other/x"}, run: func() error {
			_, err := TenantGuard{}.Delete(context.Background(), infer.DeleteRequest[TenantGuardState]{State: guardState(true, "payments")})
			return err
		}},
		"delete, preventDeletion false": {held: []string{"payments/data"}, run: func() error {
			_, err := TenantGuard{}.Delete(context.Background(), infer.DeleteRequest[TenantGuardState]{State: guardState(false, "payments")})
			return err
		}},
		"update dropping a namespace with claims": {held: []string{"payments-batch/cache"}, refuses: "payments-batch/cache",
			run: func() error {
				_, err := TenantGuard{}.Update(context.Background(), infer.UpdateRequest[TenantGuardArgs, TenantGuardState]{
					State: guardState(true, "payments", "payments-batch"), Inputs: guardState(true, "payments").TenantGuardArgs})
				return err
			}},
		"update keeping its namespaces": {held: []string{"payments/data"}, run: func() error {
			_, err := TenantGuard{}.Update(context.Background(), infer.UpdateRequest[TenantGuardArgs, TenantGuardState]{
				State: guardState(true, "payments"), Inputs: guardState(true, "payments", "payments-2").TenantGuardArgs})
			return err
		}},
		"update turning preventDeletion off and dropping": {held: []string{"payments-batch/cache"}, refuses: "payments-batch/cache", run: func() error {
			_, err := TenantGuard{}.Update(context.Background(), infer.UpdateRequest[TenantGuardArgs, TenantGuardState]{
				State: guardState(true, "payments", "payments-batch"), Inputs: guardState(false, "payments").TenantGuardArgs})
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			withClaims(t, tc.held...)
			err := tc.run()
			switch {
			case tc.refuses == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refuses != "" && (err == nil || !strings.Contains(err.Error(), tc.refuses) || !strings.Contains(err.Error(), "preventDeletion: false")):
				t.Errorf("want a refusal naming %s and preventDeletion: false, got %v", tc.refuses, err)
			}
		})
	}
}
