package e2e

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestDeliveryOnRealServers is the delivery stack (examples/fleet/Pulumi.delivery.yaml) on a real control plane:
// the management hub's charts install from the offline network (Argo CD's upstream chart; PKO's and Kargo's from
// an OCI registry, with cert-manager's, as stand-ins carrying the upstream CRDs), the objects the stack writes are
// accepted against those CRDs (the Kargo Project's objects in the namespace Kargo makes for it), every Stack manifest the stack
// commits to Git is admitted by the hub's API server as Argo CD's controller would write it (PKO's CRD schema and
// the Stack guard) while a manifest that breaks the guard is refused with its message (a field the delivery did not
// write among them: deny by default), a second up plans no change, an object the hub refuses (a platform team's own
// policy) fails the up with a Pulumi error naming it and the server's reason, and destroy leaves no control plane
// behind.
func TestDeliveryOnRealServers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	stack := env.Fleet("delivery")
	stack.Up("up")
	hub := fleettest.HubOf(env.Cluster("mgmt"))
	dyn := hub.Dynamic()

	t.Run("the charts are installed: their CRDs established, their Deployments available", func(t *testing.T) {
		crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1",
			Resource: "customresourcedefinitions"})
		for _, crd := range []string{"applications.argoproj.io", "stacks.pulumi.com", "programs.pulumi.com",
			"workspaces.auto.pulumi.com", "projects.kargo.akuity.io", "projectconfigs.kargo.akuity.io",
			"warehouses.kargo.akuity.io", "stages.kargo.akuity.io"} {
			obj, err := crds.Get(ctx, crd, metav1.GetOptions{})
			if err != nil || !established(obj) {
				t.Errorf("CRD %s is not established: %v", crd, err)
			}
		}
		for ns, want := range map[string][]string{
			gitopsbridge.DefaultNamespace: {"argo-cd-argocd-server"},
			"pulumi-kubernetes-operator":  {"pulumi-kubernetes-operator-controller-manager"},
			"cert-manager":                {"cert-manager", "cert-manager-cainjector", "cert-manager-webhook"},
			"kargo":                       {"kargo-api", "kargo-controller", "kargo-management-controller"},
		} {
			list, err := hub.Typed().AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			available := map[string]bool{}
			for _, d := range list.Items {
				available[d.Name] = deploymentAvailable(d)
			}
			for _, name := range want {
				if !available[name] {
					t.Errorf("Deployment %s/%s is not available (Deployments there: %v)", ns, name, available)
				}
			}
		}
	})

	t.Run("every Kubernetes object in the stack's state is on the hub, the Kargo Project's in its namespace", func(t *testing.T) {
		kinds := map[string]int{}
		env, stack := env.For(t), stack.For(t)
		for _, o := range stateObjects(env, stack) {
			kinds[o.kind]++
			if _, err := o.get(ctx, env); err != nil {
				t.Errorf("%s %s/%s on %s: %v", o.kind, o.namespace, o.name, o.server, err)
			}
		}
		for _, kind := range []string{"Project", "ProjectConfig", "Warehouse", "Stage", "Application", "AppProject",
			"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"} {
			if kinds[kind] == 0 {
				t.Errorf("the state holds no %s (kinds: %v)", kind, kinds)
			}
		}
		// Kargo's webhook makes the Project's namespace as the Project is created (here its stand-in, in the offline
		// network): the ProjectConfig, Warehouse and Stages above are in it.
		ns, err := hub.Typed().CoreV1().Namespaces().Get(ctx, "fleet", metav1.GetOptions{})
		if err != nil || ns.Labels["kargo.akuity.io/project"] != "true" {
			t.Errorf("the Project's namespace fleet: %v, labels %v; want kargo.akuity.io/project=true", err, ns.GetLabels())
		}
	})

	t.Run("the hub admits the Stack manifests the stack commits, as Argo CD writes them, and the guard refuses others", func(t *testing.T) {
		env := env.For(t)
		stacks := asArgoCD(t, hub).Resource(schema.GroupVersionResource{Group: "pulumi.com", Version: "v1", Resource: "stacks"})
		dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
		files := stackFiles(env.For(t))
		if len(files) != 4 {
			t.Fatalf("Stack manifests in Git: %v, want dev, qa, prod and prod's preview", slices.Sorted(maps.Keys(files)))
		}
		var prod *unstructured.Unstructured
		for path, obj := range files {
			u := &unstructured.Unstructured{Object: obj}
			if _, err := stacks.Namespace(u.GetNamespace()).Create(ctx, u, dryRun); err != nil {
				t.Errorf("%s: the hub refused the fleet's own Stack: %v", path, err)
			}
			if strings.HasSuffix(path, "/prod/stack.yaml") {
				prod = u
			}
		}
		if prod == nil {
			t.Fatal("no prod Stack manifest")
		}
		policy := delivery.StackPolicyName("fleet")
		cases := map[string]struct {
			edit func(spec map[string]any)
			want string
		}{
			"another program": {func(s map[string]any) { s["projectRepo"] = "https://github.com/evil/program.git" },
				"runs only the delivered program"},
			"another stack": {func(s map[string]any) { s["stack"] = "gitops-fleet/gitops-fleet/dev" },
				"deploys only the stage's own stack"},
			"another ServiceAccount": {func(s map[string]any) { s["serviceAccountName"] = "fleet-dev" },
				"runs as the stage's own ServiceAccount"},
			"the operator's environment": {func(s map[string]any) {
				s["envRefs"] = map[string]any{"AWS_SECRET_ACCESS_KEY": map[string]any{"type": "Env",
					"env": map[string]any{"name": "AWS_SECRET_ACCESS_KEY"}}}
			}, "envRefs are of type Secret or Literal only"},
			"a privileged workspace": {func(s map[string]any) {
				s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"podTemplate": map[string]any{
					"spec": map[string]any{"containers": []any{map[string]any{"name": "pulumi",
						"securityContext": map[string]any{"privileged": true}}}}}}}
			}, "cannot run a container privileged"},
			// Deny by default: every field but the promotion's and the workspace's resources is what the stack wrote.
			"another workspace image": {func(s map[string]any) {
				s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"image": "evil/pulumi:latest"}}
			}, "spec.workspaceTemplate.spec.image differ"},
			"destroy armed for the next deletion": {func(s map[string]any) { s["destroyOnFinalize"] = true },
				"spec.destroyOnFinalize differ"},
			"prod's stack config rewritten": {func(s map[string]any) {
				s["config"] = map[string]any{"gitops-fleet:clusters": "[]"}
			}, "spec.config differ"},
			"a promotion that sizes the workspace": {func(s map[string]any) {
				s["commit"] = strings.Repeat("b", 40)
				s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"resources": map[string]any{
					"requests": map[string]any{"cpu": "2", "memory": "4Gi"}}}}
			}, ""},
		}
		for name, tc := range cases {
			t.Run(name, func(t *testing.T) {
				evil := prod.DeepCopy()
				spec, _ := evil.Object["spec"].(map[string]any)
				tc.edit(spec)
				_, err := stacks.Namespace(evil.GetNamespace()).Create(ctx, evil, dryRun)
				switch {
				case tc.want == "" && err != nil:
					t.Errorf("the server refused it: %v", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), policy) || !strings.Contains(err.Error(), tc.want)):
					t.Errorf("the server answered %v, want a refusal by %s: %q", err, policy, tc.want)
				}
			})
		}
		other := prod.DeepCopy()
		other.SetName("fleet-prod-2")
		if _, err := stacks.Namespace(other.GetNamespace()).Create(ctx, other, dryRun); err == nil ||
			!strings.Contains(err.Error(), "holds only the Stacks the delivery writes") {
			t.Errorf("a second Stack in prod's namespace: the server answered %v", err)
		}
	})

	t.Run("a second up plans no change against the real server", func(t *testing.T) {
		stack.For(t).Settled()
	})

	// Argo CD's own controllers run on the hub from here on, the destroy included: they sync the stages' Stacks, and
	// delete them when the destroy deletes their Applications (Argo CD's resources finalizer).
	publishManifests(env, "dev", "qa", "prod")
	hub.ArgoCD()
	stagesThroughArgoCD(t, env, dyn)

	t.Run("the hub's refusal of an object surfaces as a Pulumi error naming it and the server's reason", func(t *testing.T) {
		stack := stack.For(t)
		// The platform team's own policy on the hub, outside the stack: a new Kargo stage waits for the change board.
		policy := &admissionv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "change-board"},
			Spec: admissionv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{
					{RuleWithOperations: admissionv1.RuleWithOperations{
						Operations: []admissionv1.OperationType{admissionv1.Create},
						Rule: admissionv1.Rule{APIGroups: []string{"kargo.akuity.io"}, APIVersions: []string{"*"},
							Resources: []string{"stages"}},
					}},
					// A ConfigMap called dr shows when the server enforces the policy.
					{RuleWithOperations: admissionv1.RuleWithOperations{
						Operations: []admissionv1.OperationType{admissionv1.Create},
						Rule:       admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
					}},
				}},
				Validations: []admissionv1.Validation{{Expression: "object.metadata.name != 'dr'",
					Message: "stage dr waits for the change board"}},
			},
		}
		admission := hub.Typed().AdmissionregistrationV1()
		if _, err := admission.ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := admission.ValidatingAdmissionPolicyBindings().Create(ctx, &admissionv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "change-board"},
			Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: "change-board",
				ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		dr := offline.DeliveryConfigKey + ".stages[3]."
		stack.For(t).SetConfig(map[string]string{dr + "name": "dr", dr + "stack": "gitops-fleet/gitops-fleet/dr",
			dr + "commit": strings.Repeat("c", 40)})
		// The API server enforces a new policy within a second or so: wait until it refuses the probe.
		probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dr"}}
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			_, err := hub.Typed().CoreV1().ConfigMaps("default").Create(ctx, probe,
				metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			return err != nil && strings.Contains(err.Error(), "change board"), nil
		})
		if err != nil {
			t.Fatalf("the hub never enforced the policy: %v", err)
		}
		_, err = stack.For(t).TryUp("up-refused")
		if err == nil || !strings.Contains(err.Error(), "delivery-dr-stage") ||
			!strings.Contains(err.Error(), "stage dr waits for the change board") {
			t.Errorf("up answered %v; want the refusal of Stage delivery-dr-stage with the policy's message", err)
		}
	})

	stack.Destroy("destroy")
	if names := env.ControlPlanes(); len(names) != 0 {
		t.Errorf("control planes after destroy: %v", names)
	}
}

// asArgoCD is a dynamic client of control plane name acting as Argo CD's application controller, the writer of
// what the manifests repository holds.
func asArgoCD(t *testing.T, hub *fleettest.Hub) dynamic.Interface {
	t.Helper()
	controller := argoCDUser(gitopsbridge.ApplicationControllerServiceAccount)
	dyn, err := dynamic.NewForConfig(hub.As(controller))
	if err != nil {
		t.Fatal(err)
	}
	return dyn
}
