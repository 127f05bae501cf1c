package e2e

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// What the tests read back from the clusters' real API servers (offline.Options.ControlPlanes), whoever wrote it:
// the servers, not the stack's state, say what is in a cluster.

// clusterSecrets are the names of the Argo CD cluster secrets (label argocd.argoproj.io/secret-type=cluster) in Argo
// CD's namespace on the control plane of EKS cluster cluster in region, sorted.
func clusterSecrets(t *testing.T, env *offline.Env, region, cluster string) []string {
	t.Helper()
	secrets, err := typed(t, env, controlplane.Name(region, cluster)).CoreV1().Secrets(gitopsbridge.DefaultNamespace).List(
		context.Background(), metav1.ListOptions{LabelSelector: gitopsbridge.SecretTypeLabel + "=cluster"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range secrets.Items {
		names = append(names, s.Name)
	}
	return slices.Sorted(slices.Values(names))
}

// hasNamespace says whether the control plane of EKS cluster cluster in region holds namespace name, not being
// deleted (serverNamespace).
func hasNamespace(t *testing.T, env *offline.Env, region, cluster, name string) bool {
	t.Helper()
	return serverNamespace(t, env, region, cluster, name) != nil
}

// serverNamespace is namespace name as the control plane of EKS cluster cluster in region holds it; nil when it has
// none, or one being deleted (a namespace Pulumi deleted may still be Terminating while kube-controller-manager
// empties it).
func serverNamespace(t *testing.T, env *offline.Env, region, cluster, name string) *corev1.Namespace {
	t.Helper()
	ns, err := typed(t, env, controlplane.Name(region, cluster)).CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		t.Fatal(err)
	}
	if ns.DeletionTimestamp != nil {
		return nil
	}
	return ns
}

// argoCDUser is the Kubernetes username of Argo CD's service account sa in Argo CD's namespace: who its pods are
// to the hub's API server (and whom a test impersonates to write as them).
func argoCDUser(sa string) string {
	return "system:serviceaccount:" + gitopsbridge.DefaultNamespace + ":" + sa
}
