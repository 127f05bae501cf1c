package e2e

import (
	"context"
	"slices"
	"testing"

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
// deleted (a namespace Pulumi deleted may still be Terminating while kube-controller-manager empties it).
func hasNamespace(t *testing.T, env *offline.Env, region, cluster, name string) bool {
	t.Helper()
	ns, err := typed(t, env, controlplane.Name(region, cluster)).CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return false
	case err != nil:
		t.Fatal(err)
	}
	return ns.DeletionTimestamp == nil
}
