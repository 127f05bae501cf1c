package e2e

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// testClusterSecretGuards: the hub's API server itself, through the guards the fleet installed, refuses what an
// evil registry commit would make Argo CD's application controller write or prune, and what Argo CD's server
// would register, each with the guard's message (a stage's identity, which the dev fleet has none of, is in the
// contract tests), and admits the fleet's own secret written again by a
// sync (with Argo CD's tracking annotation). Every request is a dry run: nothing changes on the hub.
func testClusterSecretGuards(ctx context.Context, t *testing.T, env *offline.Env, hub string) {
	ns := gitopsbridge.DefaultNamespace
	controller := "system:serviceaccount:" + ns + ":" + gitopsbridge.ApplicationControllerServiceAccount
	server := "system:serviceaccount:" + ns + ":" + gitopsbridge.ServerServiceAccount
	own, err := typed(t, env, hub).CoreV1().Secrets(ns).Get(ctx, "spoke-use2", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	own.ResourceVersion, own.ManagedFields, own.UID, own.CreationTimestamp = "", nil, "", metav1.Time{}
	edit := func(f func(s *corev1.Secret)) *corev1.Secret {
		s := own.DeepCopy()
		f(s)
		return s
	}
	clusterLabels := map[string]string{gitopsbridge.SecretTypeLabel: "cluster", "cluster_name": "evil"}
	cases := map[string]struct {
		user, reason string
		secret       *corev1.Secret
		update       bool
		policy, want string
	}{
		"argocd-secret from a sync": {user: controller, reason: "a sync cannot rewrite Argo CD's own secrets",
			secret: &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "argocd-secret-evil"},
				StringData: map[string]string{"admin.password": "x"}},
			policy: gitopsbridge.ClusterSecretPolicyName, want: "may write Secrets other than cluster secrets"},
		"a project": {user: controller, reason: "a cluster secret holds name, server and config only",
			secret: &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "evil", Labels: clusterLabels},
				StringData: map[string]string{"name": "evil", "server": "https://evil.example", "config": "{}", "project": "default"}},
			policy: gitopsbridge.ClusterSecretPolicyName, want: "holds exactly name, server and config"},
		"an exec-config cluster through Argo CD's server": {user: server, reason: "Argo CD's API registers no cluster the stack did not",
			secret: &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "evil", Labels: clusterLabels},
				StringData: map[string]string{"name": "evil", "server": "https://evil.example",
					"config": `{"execProviderConfig":{"command":"sh"}}`}},
			policy: gitopsbridge.ClusterSecretPolicyName, want: "one the stack registered, by name"},
		"a registered spoke's data as argocd-secret": {user: controller, reason: "the name is pinned: pruning it later would delete Argo CD's own",
			secret: edit(func(s *corev1.Secret) { s.Name = "argocd-secret" }),
			policy: gitopsbridge.ClusterSecretPolicyName, want: "one the stack registered, by name"},
		"an annotation of the spoke's values": {user: controller, update: true, reason: "annotations feed the add-ons' Helm values",
			secret: edit(func(s *corev1.Secret) { s.Annotations["aws_region"] = "us-east-1\nimage: evil" }),
			policy: gitopsbridge.ClusterSecretPolicyName, want: "annotation aws_region differ"},
		"an add-on label flipped": {user: controller, update: true, reason: "enable_* labels select the add-ons",
			secret: edit(func(s *corev1.Secret) { s.Labels["enable_ack_s3"] = "true" }),
			policy: gitopsbridge.ClusterSecretPolicyName, want: "label enable_ack_s3 differ"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			secrets := impersonating(t, env, hub, tc.user).CoreV1().Secrets(ns)
			var err error
			if tc.update {
				_, err = secrets.Update(ctx, tc.secret, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
			} else {
				_, err = secrets.Create(ctx, tc.secret, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.policy) {
				t.Errorf("%s: the server answered %v, want a refusal by %s: %q", tc.reason, err, tc.policy, tc.want)
			}
		})
	}
	t.Run("a registered spoke pruned by a sync", func(t *testing.T) {
		err := impersonating(t, env, hub, controller).CoreV1().Secrets(ns).Delete(ctx, own.Name,
			metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil || !strings.Contains(err.Error(), gitopsbridge.ClusterSecretPolicyName) ||
			!strings.Contains(err.Error(), "deleted only by the deployer") {
			t.Errorf("a registered cluster secret pruned by the controller: %v, want the guard's refusal", err)
		}
	})
	t.Run("the fleet's own secret, written again by a sync", func(t *testing.T) {
		synced := edit(func(s *corev1.Secret) {
			s.Annotations["argocd.argoproj.io/tracking-id"] = "cluster-registry-dev:/Secret:argocd/spoke-use2"
		})
		if _, err := impersonating(t, env, hub, controller).CoreV1().Secrets(ns).Update(ctx, synced,
			metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
			t.Errorf("the fleet's own cluster secret, written by the controller, was refused: %v", err)
		}
	})
	// Who else may write or delete the guards: what issue 36's "guard the guards" starts from.
	for _, user := range []string{controller, server} {
		for _, verb := range []string{"delete", "update"} {
			allowed := canI(ctx, t, env, hub, user, verb, "admissionregistration.k8s.io", "validatingadmissionpolicies")
			t.Logf("%s may %s the fleet's ValidatingAdmissionPolicies: %v", user, verb, allowed)
		}
	}
}
