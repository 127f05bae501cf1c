package e2e

import (
	"context"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
	if n := up.Steps.Plan()["create"]["kubernetes:helm.sh/v3:Release"]; n != 3 {
		t.Errorf("up created %d Helm releases, want 3: Argo CD's and the two add-ons'", n)
	}
	stack.Settled()

	ctx := context.Background()
	hub := env.ClusterIn("us-east-1", "first").Typed()
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
	a := secret.Annotations
	sa, err := hub.CoreV1().ServiceAccounts(a["aws_load_balancer_controller_namespace"]).Get(ctx,
		a["aws_load_balancer_controller_service_account"], metav1.GetOptions{})
	switch {
	case err != nil:
		t.Errorf("the load balancer controller's service account: %v", err)
	case sa.Annotations["eks.amazonaws.com/role-arn"] != a["aws_load_balancer_controller_iam_role_arn"] ||
		!env.Cloud().RoleExists(a["aws_load_balancer_controller_iam_role_arn"]):
		t.Errorf("the service account's role %q, want the fleet's %q, in the offline cloud",
			sa.Annotations["eks.amazonaws.com/role-arn"], a["aws_load_balancer_controller_iam_role_arn"])
	}

	controller := "system:serviceaccount:" + gitopsbridge.DefaultNamespace + ":argocd-application-controller"
	groups := []string{"system:serviceaccounts", "system:serviceaccounts:" + gitopsbridge.DefaultNamespace, "system:authenticated"}
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
			WantPlan: fleettest.Plan{
				"delete": {"kubernetes:helm.sh/v3:Release": 1, "kubernetes:rbac.authorization.k8s.io/v1:Role": 1,
					"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": 1},
				"update": {"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy": 1,
					"kubernetes:argoproj.io/v1alpha1:AppProject": 1, "kubernetes:core/v1:Secret": 1,
					"kubernetes:helm.sh/v3:Release": 1},
			},
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
}
