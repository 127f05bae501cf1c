package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// testClusterSecretGuards: the hub's API server itself, through the guards the fleet installed, refuses what an
// evil registry commit would make Argo CD's application controller write or prune, and what Argo CD's server
// would register, each with the guard's message (a stage's identity, which the dev fleet has none of, is in the
// contract tests), and admits the fleet's own secret written again by a
// sync (with Argo CD's tracking annotation). Every request is a dry run: nothing changes on the hub.
func testClusterSecretGuards(ctx context.Context, t *testing.T, hub *fleettest.Hub) {
	ns := gitopsbridge.DefaultNamespace
	controller := argoCDUser(gitopsbridge.ApplicationControllerServiceAccount)
	server := argoCDUser(gitopsbridge.ServerServiceAccount)
	own, err := hub.Typed().CoreV1().Secrets(ns).Get(ctx, "spoke-use2", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	controllerAsAdmin(ctx, t, hub, ns)
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
			secrets := hub.TypedAs(tc.user).CoreV1().Secrets(ns)
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
		err := hub.TypedAs(controller).CoreV1().Secrets(ns).Delete(ctx, own.Name,
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
		if _, err := hub.TypedAs(controller).CoreV1().Secrets(ns).Update(ctx, synced,
			metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
			t.Errorf("the fleet's own cluster secret, written by the controller, was refused: %v", err)
		}
	})
	// Nothing but RBAC guards the guards: the API server applies no admission policy to admission policies. Argo
	// CD's server, narrowed on every hub, may not delete one. The dev hub runs add-ons, so its application
	// controller stays the hub's admin (hub.addonsOnHub); the narrowed controller is in TestRegistrationPullRequests.
	t.Run("Argo CD's server reads Secrets of its namespace only", func(t *testing.T) {
		if _, err := hub.TypedAs(server).CoreV1().Secrets("kube-system").List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
			t.Errorf("Argo CD's server listing kube-system's Secrets: %v, want forbidden", err)
		}
		if _, err := hub.TypedAs(server).CoreV1().Secrets(ns).Get(ctx, own.Name, metav1.GetOptions{}); err != nil {
			t.Errorf("Argo CD's server reading a cluster secret in its namespace: %v", err)
		}
	})
	t.Run("Argo CD's server deleting the cluster-secret guard", func(t *testing.T) {
		err := hub.TypedAs(server).AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(ctx,
			gitopsbridge.ClusterSecretPolicyName, metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		if !apierrors.IsForbidden(err) {
			t.Errorf("the hub's API server answered %v, want forbidden", err)
		}
	})
}

// testApplicationGuards: the hub's API server refuses an Application an evil add-ons commit would make the
// ApplicationSet controller write into another project, and one anyone would write into default in Argo CD's own
// namespace, and a change of project default by Argo CD's server, each with the guard's message; it admits the
// add-ons' own Application. It also reads project default back as the real provider wrote it: fenced to the
// add-ons' namespace and the fleet's clusters. Every write is a dry run.
func testApplicationGuards(ctx context.Context, t *testing.T, hub *fleettest.Hub) {
	ns := gitopsbridge.DefaultNamespace
	addons := gitopsbridge.ApplicationsNamespace(ns, "addons")
	appsets, server := argoCDUser(gitopsbridge.ApplicationSetServiceAccount), argoCDUser(gitopsbridge.ServerServiceAccount)
	projects := schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "appprojects"}
	app := func(namespace, project string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": "addon-spoke-use2-metrics-server", "namespace": namespace},
			"spec": map[string]any{"project": project,
				"source":      map[string]any{"repoURL": "https://kubernetes-sigs.github.io/metrics-server", "chart": "metrics-server", "targetRevision": "3.12.0"},
				"destination": map[string]any{"name": "spoke-use2", "namespace": "kube-system"}},
		}}
	}
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	for name, tc := range map[string]struct {
		user, namespace, project, want string
	}{
		"the add-ons' Application in default":             {user: appsets, namespace: addons, project: gitopsbridge.AddonApplicationsProject},
		"an add-ons commit's Application in the registry": {user: appsets, namespace: addons, project: gitopsbridge.RegistryProject, want: "must name project default, not fleet-registry"},
		"an Application in default in Argo CD's namespace": {user: server, namespace: ns, project: gitopsbridge.AddonApplicationsProject,
			want: "only Applications of " + addons + " name it"},
	} {
		t.Run(name, func(t *testing.T) {
			dyn, err := dynamic.NewForConfig(hub.As(tc.user))
			if err != nil {
				t.Fatal(err)
			}
			_, err = dyn.Resource(status.ApplicationsResource).Namespace(tc.namespace).Create(ctx, app(tc.namespace, tc.project), dryRun)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), gitopsbridge.ApplicationPolicyName)):
				t.Errorf("the server answered %v, want a refusal by %s: %q", err, gitopsbridge.ApplicationPolicyName, tc.want)
			}
		})
	}
	stored, err := hub.Dynamic().Resource(projects).Namespace(ns).Get(ctx, gitopsbridge.AddonApplicationsProject, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sources, _, _ := unstructured.NestedStringSlice(stored.Object, "spec", "sourceNamespaces")
	dests, _, _ := unstructured.NestedSlice(stored.Object, "spec", "destinations")
	if !slices.Equal(sources, []string{addons}) || len(dests) == 0 {
		t.Errorf("project default as stored: sourceNamespaces %v, destinations %v", sources, dests)
	}
	for _, d := range dests {
		if m, _ := d.(map[string]any); m["namespace"] == "*" && m["server"] != nil {
			t.Errorf("project default reaches every namespace of %v", m["server"])
		}
	}
	t.Run("project default opened through Argo CD's server", func(t *testing.T) {
		opened := stored.DeepCopy()
		_ = unstructured.SetNestedSlice(opened.Object, []any{map[string]any{"server": "*", "namespace": "*"}}, "spec", "destinations")
		dyn, err := dynamic.NewForConfig(hub.As(server))
		if err != nil {
			t.Fatal(err)
		}
		_, err = dyn.Resource(projects).Namespace(ns).Update(ctx, opened, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil || !strings.Contains(err.Error(), gitopsbridge.ProjectPolicyName) || !strings.Contains(err.Error(), "only the deployer") {
			t.Errorf("the server answered %v, want the project guard's refusal", err)
		}
	})
}
