package argocdhub

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// TestResolveEnv resolves a container's environment as the kubelet would: values, config map and secret keys (an
// optional missing one left out, a required one an error), envFrom with its prefix, and the pod's fields.
func TestResolveEnv(t *testing.T) {
	yes := true
	kube := fake.NewSimpleClientset(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cmd-params-cm", Namespace: "argocd"},
			Data: map[string]string{"application.namespaces": "argocd-addons", "redis.server": "argocd-redis:6379"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "argocd-redis", Namespace: "argocd"},
			Data: map[string][]byte{"auth": []byte("s3cret")}},
	)
	cmKey := func(name, key string, optional bool) *corev1.EnvVarSource {
		ref := &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
		if optional {
			ref.Optional = &yes
		}
		return &corev1.EnvVarSource{ConfigMapKeyRef: ref}
	}
	cases := map[string]struct {
		container corev1.Container
		want      map[string]string
		wantErr   bool
	}{
		"values, keys and fields": {
			container: corev1.Container{Env: []corev1.EnvVar{
				{Name: "PLAIN", Value: "v"},
				{Name: "ARGOCD_APPLICATION_NAMESPACES", ValueFrom: cmKey("argocd-cmd-params-cm", "application.namespaces", true)},
				{Name: "MISSING_OPTIONAL", ValueFrom: cmKey("argocd-cmd-params-cm", "nothing", true)},
				{Name: "REDIS_PASSWORD", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: "argocd-redis"}, Key: "auth"}}},
				{Name: "NS", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
				{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			}},
			want: map[string]string{"PLAIN": "v", "ARGOCD_APPLICATION_NAMESPACES": "argocd-addons", "REDIS_PASSWORD": "s3cret",
				"NS": "argocd", "POD": "controller-0"},
		},
		"envFrom with a prefix, a later value wins": {
			container: corev1.Container{
				EnvFrom: []corev1.EnvFromSource{{Prefix: "P_", ConfigMapRef: &corev1.ConfigMapEnvSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: "argocd-cmd-params-cm"}}}},
				Env: []corev1.EnvVar{{Name: "P_redis.server", Value: "localhost:6379"}},
			},
			want: map[string]string{"P_application.namespaces": "argocd-addons", "P_redis.server": "localhost:6379"},
		},
		"a required key that is missing": {
			container: corev1.Container{Env: []corev1.EnvVar{{Name: "X", ValueFrom: cmKey("argocd-cmd-params-cm", "nothing", false)}}},
			wantErr:   true,
		},
		"a missing optional config map": {
			container: corev1.Container{Env: []corev1.EnvVar{{Name: "X", ValueFrom: cmKey("absent", "k", true)}}},
			want:      map[string]string{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := resolveEnv(context.Background(), kube, "argocd", "controller", tc.container)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
