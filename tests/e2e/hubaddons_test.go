package e2e

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestHubAddonsThroughTheStack is docs/aws.md's first fleet (examples/fleet/Pulumi.aws.yaml) brought up: its hub's
// add-ons, metrics-server and the load balancer controller, are the stack's Helm releases (argocd.stackAddons), so
// the add-ons repository does not reach the hub. On the hub's real API server: the charts' objects, the controller's
// service account with the IAM role FleetCluster made; the hub's cluster secret labels both add-ons false, so no
// ApplicationSet selects the hub; and the API server's authorizer refuses Argo CD's application controller what an
// add-on chart would need (cluster roles and their bindings, CRDs, webhooks, a Deployment in kube-system): it kept its
// narrowed role, so a commit to the add-ons repository, synced by Argo CD, cannot reach the hub's guards.
func TestHubAddonsThroughTheStack(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	stack := env.Configured("aws", env.FleetConfig("aws"))
	up := stack.Up("up")
	if created := up.Steps.Plan()["create"]; created["kubernetes:helm.sh/v3:Release"] != 1 || created[chartType] != 2 {
		t.Errorf("up created %d Helm releases and %d charts, want Argo CD's release and the two add-ons' charts",
			created["kubernetes:helm.sh/v3:Release"], created[chartType])
	}
	stack.SettledByNext() // the hand-back's exact plan

	ctx := context.Background()
	hub := env.ClusterIn("us-east-1", "first").Typed()
	// The load balancer controller's objects as the stack applied them, for Argo CD to leave behind below.
	lbSA, err := hub.CoreV1().ServiceAccounts("kube-system").Get(ctx, "aws-load-balancer-controller-sa", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lbDeployment, err := hub.AppsV1().Deployments("kube-system").Get(ctx, "aws-load-balancer-controller", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	secret, err := hub.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, "first", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the hub's cluster secret: %v", err)
	}
	for _, label := range []string{"enable_metrics_server", "enable_aws_load_balancer_controller"} {
		if got := secret.Labels[label]; got != "false" {
			t.Errorf("the hub's cluster secret labels %s %q, want \"false\": an ApplicationSet would select the hub", label, got)
		}
	}
	for _, d := range []string{"metrics-server", "aws-load-balancer-controller"} {
		if _, err := hub.AppsV1().Deployments("kube-system").Get(ctx, d, metav1.GetOptions{}); err != nil {
			t.Errorf("Deployment kube-system/%s of the stack's release: %v", d, err)
		}
	}
	if err := addonRole(ctx, hub, env.Cloud(), secret.Annotations, "aws_load_balancer_controller"); err != nil {
		t.Error(err)
	}

	controller, groups := argoCDUser(gitopsbridge.ApplicationControllerServiceAccount), argoCDGroups()
	// What an add-on's chart writes, and an admission policy (the guards).
	charts := append(addonChartWrites(), authorizationv1.ResourceAttributes{Verb: "create",
		Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies"})
	if allowed, _ := access(ctx, t, hub, controller, groups, charts); len(allowed) > 0 {
		t.Errorf("Argo CD's application controller may %v on the hub: it is the hub's admin", allowed)
	}

	// The second up: the load balancer controller handed back to the add-ons repository. Its release goes; the hub's
	// secret enables it for the ApplicationSets (the guard pins the new labels), and with it the add-ons repository
	// reaches the hub again (hub.addonsOnHub: the default project names the hub, Argo CD's chart values give the
	// controller its cluster role back): Argo CD's controller is the hub's admin once more.
	t.Run("an add-on handed back to the add-ons repository", func(t *testing.T) {
		stack := stack.For(t)
		stack.Apply(fleettest.Change{
			Edit: func(c fleettest.Config) {
				c["gitops-fleet:argocd"] = map[string]any{"stackAddons": []any{"metrics_server"}}
			},
			// The narrowed controller's write Role and its binding (gitopsbridge.ControllerWriteRole) go: the chart's
			// cluster role covers what they granted.
			// The chart goes with the objects it applied.
			WantPlan: fleettest.Plan{
				"delete": {chartType: 1, "kubernetes:apps/v1:Deployment": 1, "kubernetes:core/v1:ServiceAccount": 1,
					"kubernetes:rbac.authorization.k8s.io/v1:Role": 1, "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": 1},
				"update": {"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy": 1,
					"kubernetes:argoproj.io/v1alpha1:AppProject": 1, "kubernetes:core/v1:Secret": 1,
					"kubernetes:helm.sh/v3:Release": 1},
			},
			SettledByNext: true, // the move back's exact plan
		})
		secret, err := hub.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, "first", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := secret.Labels["enable_aws_load_balancer_controller"]; got != "true" {
			t.Errorf("the hub's secret labels enable_aws_load_balancer_controller %q, want \"true\"", got)
		}
		if got := denied(ctx, t, hub, controller, groups, charts); len(got) != 0 {
			t.Errorf("with the repository on the hub, Argo CD's controller may not %v there", got)
		}
	})

	// The third up: the add-on moved to the stack again, after Argo CD installed it from the add-ons repository (no
	// Argo CD runs here: its server-side apply is played by the hub's admin with Argo CD's field manager, objects as
	// the stack had applied them). The template's ApplicationSets keep what they installed once the hub's label
	// goes false (preserveResourcesOnDeletion), so the stack meets those objects: it takes them over, as a Helm
	// release could not (Helm refuses objects without its ownership metadata).
	t.Run("an add-on moved to the stack after Argo CD installed it", func(t *testing.T) {
		sa, deployment := lbSA.DeepCopy(), lbDeployment.DeepCopy()
		sa.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}
		deployment.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}
		deployment.Status = appsv1.DeploymentStatus{}
		dyn := env.ClusterIn("us-east-1", "first").Dynamic()
		for resource, o := range map[string]interface {
			metav1.Object
			runtime.Object
		}{"serviceaccounts": sa, "deployments": deployment} {
			o.SetResourceVersion("")
			o.SetUID("")
			o.SetManagedFields(nil)
			o.SetCreationTimestamp(metav1.Time{})
			o.SetGeneration(0)
			labels := o.GetLabels()
			labels["app.kubernetes.io/instance"] = "addon-first-aws-load-balancer-controller" // Argo CD's tracking label
			o.SetLabels(labels)
			argocdApply(ctx, t, dyn, resource, o)
		}
		stack := stack.For(t)
		stack.Apply(fleettest.Change{
			Edit: func(c fleettest.Config) {
				c["gitops-fleet:argocd"] = map[string]any{"stackAddons": []any{"metrics_server", "aws_load_balancer_controller"}}
			},
			WantPlan: fleettest.Plan{
				"create": {chartType: 1, "kubernetes:apps/v1:Deployment": 1, "kubernetes:core/v1:ServiceAccount": 1,
					"kubernetes:rbac.authorization.k8s.io/v1:Role": 1, "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": 1},
				"update": {"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy": 1,
					"kubernetes:argoproj.io/v1alpha1:AppProject": 1, "kubernetes:core/v1:Secret": 1,
					"kubernetes:helm.sh/v3:Release": 1},
			},
			SettledByNext: true, // the storage classes' exact plan
		})
		sa, err := hub.CoreV1().ServiceAccounts("kube-system").Get(ctx, lbSA.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		managers := fieldManagers(sa)
		if !slices.ContainsFunc(slices.Collect(maps.Keys(managers)), stackManager) ||
			sa.Annotations["eks.amazonaws.com/role-arn"] != lbSA.Annotations["eks.amazonaws.com/role-arn"] {
			t.Errorf("the service account Argo CD left: managers %v, annotations %v; want the stack's manager too, the "+
				"fleet's role", slices.Sorted(maps.Keys(managers)), sa.Annotations)
		}
		if got := denied(ctx, t, hub, controller, groups, charts); len(got) != len(charts) {
			t.Errorf("with every hub add-on the stack's again, Argo CD's controller may %d of the chart writes, want none",
				len(charts)-len(got))
		}
	})

	// The fourth up: the EBS CSI driver on a hub that EKS created before Kubernetes 1.30, whose gp2 class EKS marked
	// the default (played by the hub's admin with the offline EKS's field manager; the offline EKS made it as 1.30
	// and later do). The storage classes' chart sets that annotation "false"; the stack's apply takes the field from
	// EKS, as Argo CD's forced apply would, instead of failing on the conflict.
	t.Run("the EBS storage classes on a hub created before 1.30: EKS's default gp2 taken over", func(t *testing.T) {
		if _, err := hub.StorageV1().StorageClasses().Patch(ctx, "gp2", types.MergePatchType,
			[]byte(`{"metadata":{"annotations":{"`+defaultClass+`":"true"}}}`), metav1.PatchOptions{FieldManager: "eks"}); err != nil {
			t.Fatalf("EKS's gp2 class on the hub: %v", err)
		}
		stack := stack.For(t)
		stack.Apply(fleettest.Change{
			Edit: func(c fleettest.Config) {
				c["gitops-fleet:argocd"] = map[string]any{"stackAddons": []any{"metrics_server", "aws_load_balancer_controller",
					"aws_ebs_csi_driver"}}
				cluster(c, "first")["addons"].(map[string]any)["aws_ebs_csi_driver"] = true
			},
			// The driver's EKS add-on and role, the classes' chart (its values known before the hub's annotations:
			// it renders in the preview), the secret's labels and annotations and the guard pinning them. The load
			// balancer controller's values read the hub's annotations, unknown in this preview (the driver's role
			// is new): its chart renders nothing in the preview, which so lists its objects as deleted; the up keeps
			// them (CheckUp).
			WantPlan: fleettest.Plan{
				"create": {"aws:eks/addon:Addon": 1, "aws:iam/role:Role": 1,
					"aws:iam/rolePolicyAttachment:RolePolicyAttachment": 1, chartType: 1,
					"kubernetes:storage.k8s.io/v1:StorageClass": 2},
				"delete": {"kubernetes:apps/v1:Deployment": 1, "kubernetes:core/v1:ServiceAccount": 1},
				"update": {"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy": 1,
					"kubernetes:core/v1:Secret": 1},
			},
			CheckUp: func(up fleettest.Steps) {
				if deleted := up.URNs("delete"); len(deleted) > 0 {
					t.Errorf("the up deleted %v", deleted)
				}
			},
		})
		if _, err := hub.AppsV1().Deployments("kube-system").Get(ctx, "aws-load-balancer-controller", metav1.GetOptions{}); err != nil {
			t.Errorf("the load balancer controller after the up: %v", err)
		}
		for name, want := range map[string]string{"gp2": "false", "gp3": "true"} {
			sc, err := hub.StorageV1().StorageClasses().Get(ctx, name, metav1.GetOptions{})
			if err != nil || sc.Annotations[defaultClass] != want {
				t.Errorf("the hub's %s class: %v, %v; want %s=%s", name, sc.GetAnnotations(), err, defaultClass, want)
			}
		}
	})
}

// chartType is the Kubernetes provider's Helm v4 Chart: the stack's hub add-ons, rendered and applied as Argo CD does.
const chartType = "kubernetes:helm.sh/v4:Chart"

// argocdApply applies o (its TypeMeta set), of resource, to a cluster as Argo CD's application controller does with
// ServerSideApply=true: a server-side apply under its field manager, forced.
func argocdApply(ctx context.Context, t *testing.T, dyn dynamic.Interface, resource string, o runtime.Object) {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{Object: u}
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	force := true
	gvr := obj.GroupVersionKind().GroupVersion().WithResource(resource)
	if _, err := dyn.Resource(gvr).Namespace(obj.GetNamespace()).Patch(ctx, obj.GetName(), types.ApplyPatchType, data,
		metav1.PatchOptions{FieldManager: "argocd-controller", Force: &force}); err != nil {
		t.Fatalf("Argo CD's apply of %s %s: %v", obj.GetKind(), obj.GetName(), err)
	}
}
