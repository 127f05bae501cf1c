package e2e

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestRegistrationPullRequests: the dev fleet with Git delivery through pull requests (git.pullRequest, as the prod
// example registers), on Argo CD's own controllers. After `up` every registration waits in its pull request and
// the hub holds no cluster secret; merging the hub's and spoke-use2's pull requests (their branches' files onto
// main, served as GitHub would) has the registry Application register exactly those two, and the ApplicationSet
// controller then gives spoke-use2 its add-ons, Synced and Healthy, while spoke-usw2, whose pull request is still
// open, gets none; the EBS storage classes of both (the hub's from its stack, spoke-use2's from Argo CD) take over
// the gp2 class EKS made (testStorageClasses). The hub's add-ons are the stack's (argocd.stackAddons, as the dev
// example sets), so Argo CD's application controller is not its admin (controllerClusterAdmin): all of the above is
// synced through the Roles the hub grants it, and the hub's API server refuses the controller the fleet's guards,
// RBAC and pods (testNarrowedController).
func TestRegistrationPullRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := newEnv(t)
	addonsRepo, sha := env.Git().AddonsRepository()
	const owner, repo = "gitops-fleet", "fleet-registry"
	stack := env.Fleet("dev")
	stack.SetConfig(map[string]string{
		"gitops-fleet:repositories.addons.url":      addonsRepo,
		"gitops-fleet:repositories.addons.revision": sha,
		"gitops-fleet:git.owner":                    owner,
		"gitops-fleet:git.repository":               repo,
		"gitops-fleet:git.pullRequest":              "true",
		"github:token":                              "ghp_e2e0registration0token",
	})
	stack.Up("up")
	// What each cluster's pull request would merge: its branch's files.
	pulls := map[string]map[string]string{}
	for _, cluster := range []string{"hub", "spoke-use2", "spoke-usw2"} {
		files := env.Git().GitHubFiles(owner, repo, "gitops-fleet/"+cluster)
		if _, ok := files[gitopsbridge.RegistryPath("dev")+"/"+cluster+".yaml"]; !ok {
			t.Fatalf("the pull request branch gitops-fleet/%s holds %v, want its registration", cluster, slices.Sorted(maps.Keys(files)))
		}
		pulls[cluster] = files
	}
	env.Git().PublishGitHub(owner, repo, "main", "the registry before any merge", nil)
	hub := env.Hub()
	hub.ArgoCD()
	dyn := hub.Dynamic()
	apps := dyn.Resource(status.ApplicationsResource)
	registry := gitopsbridge.RegistryApplicationName("dev")
	// The registry Application has compared main, holding no registration yet, by the time this holds.
	if state, ok := waitFor(2*time.Minute, func() (string, bool) {
		app, err := apps.Namespace(gitopsbridge.DefaultNamespace).Get(ctx, registry, metav1.GetOptions{})
		if err != nil {
			return err.Error(), false
		}
		return conditions(app), app.Object["status"] != nil
	}); !ok {
		t.Fatalf("the registry Application %s: %s", registry, state)
	}
	if got := hub.ClusterSecrets(); len(got) != 0 {
		t.Errorf("cluster secrets %v on the hub before any pull request is merged", got)
	}

	merged := map[string]string{}
	maps.Copy(merged, pulls["hub"])
	maps.Copy(merged, pulls["spoke-use2"])
	env.Git().PublishGitHub(owner, repo, "main", "Merge the hub's and spoke-use2's registrations", merged)
	started := time.Now()
	// What the registry's push webhook to Argo CD's server would do (neither runs here): ask for a refresh.
	if err := offline.RefreshApplication(ctx, apps.Namespace(gitopsbridge.DefaultNamespace), registry); err != nil {
		t.Fatal(err)
	}
	addons := gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons")
	want := []string{"addon-spoke-use2-aws-ebs-csi-classes", "addon-spoke-use2-aws-for-fluent-bit",
		"addon-spoke-use2-aws-load-balancer-controller", "addon-spoke-use2-metrics-server"}
	type view struct{ Secrets, Addons string }
	got, ok := waitFor(3*time.Minute, func() (view, bool) {
		v := view{Secrets: strings.Join(hub.ClusterSecrets(), ",")}
		list, err := status.Applications(ctx, dyn)
		if err != nil {
			return v, false
		}
		healthy, count := []string{}, 0
		for _, app := range list {
			if app.Namespace != addons {
				continue
			}
			count++
			v.Addons += app.Name + "=" + app.Sync + "/" + app.Health + " "
			if app.Sync == "Synced" && app.Health == "Healthy" {
				healthy = append(healthy, app.Name)
			}
		}
		slices.Sort(healthy)
		return v, v.Secrets == "hub,spoke-use2" && slices.Equal(healthy, want) && count == len(want)
	})
	if !ok {
		t.Fatalf("after merging: cluster secrets [%s], add-on Applications %s; want hub and spoke-use2 registered and "+
			"exactly %v Synced and Healthy", got.Secrets, got.Addons, want)
	}
	t.Logf("the merged registrations' add-ons Synced and Healthy %s after the merge", time.Since(started).Round(time.Second))
	t.Run("Fluent Bit on the hub is the stack's release, with the hub's role and log group", func(t *testing.T) {
		testFluentBitOnTheHub(ctx, t, env.For(t), hub)
	})
	t.Run("the EBS storage classes: the hub's from its stack, spoke-use2's from Argo CD, EKS's gp2 taken over", func(t *testing.T) {
		testStorageClasses(ctx, t, hub.Typed(), env.Cluster("spoke-use2").Typed())
	})
	testNarrowedController(ctx, t, hub)
}

// testFluentBitOnTheHub: the hub's aws_for_fluentbit, a Helm release of the hub's stack (argocd.stackAddons), as
// the hub's API server holds it: the hub's secret labels it false (no ApplicationSet selects the hub), its service
// account carries the IAM role FleetCluster made, which the offline cloud holds, and the chart's CloudWatch output
// (the stand-in's ConfigMap) names the region and log group of the secret's annotations, as the template's
// ApplicationSet writes them.
func testFluentBitOnTheHub(ctx context.Context, t *testing.T, env *fleettest.Env, hub *fleettest.Hub) {
	kube := hub.Typed()
	secret, err := kube.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, "hub", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the hub's cluster secret: %v", err)
	}
	if got := secret.Labels["enable_aws_for_fluentbit"]; got != "false" {
		t.Errorf("the hub's cluster secret labels enable_aws_for_fluentbit %q, want \"false\"", got)
	}
	a := secret.Annotations
	ns := a["aws_for_fluentbit_namespace"]
	if err := addonRole(ctx, kube, env.Cloud(), a, "aws_for_fluentbit"); err != nil {
		t.Error(err)
	}
	if _, err := kube.AppsV1().DaemonSets(ns).Get(ctx, "aws-for-fluent-bit", metav1.GetOptions{}); err != nil {
		t.Errorf("the DaemonSet of the stack's release: %v", err)
	}
	cm, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "aws-for-fluent-bit", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the chart's configuration: %v", err)
	}
	conf := strings.Join(strings.Fields(cm.Data["fluent-bit.conf"]), " ")
	for _, want := range []string{"region " + a["aws_region"], "log_group_name " + a["aws_for_fluentbit_log_group_name"],
		"log_group_template " + a["aws_for_fluentbit_log_group_name"] + "/workload/$kubernetes['namespace_name']"} {
		if a["aws_for_fluentbit_log_group_name"] == "" || !strings.Contains(conf, want) {
			t.Errorf("Fluent Bit's output %q does not say %q", conf, want)
		}
	}
}

// testStorageClasses: aws_ebs_csi_driver's storage classes (the template's aws-ebs-csi-classes chart) on the hub,
// from its stack (argocd.stackAddons), and on spoke-use2, from Argo CD's Application: the hub's secret labels the
// driver and aws_ebs_csi_resources false, so no ApplicationSet selects the hub; on both, gp3 is the default class
// and gp2, which the offline EKS made as EKS makes it on every cluster, was taken over by the installer's
// server-side apply (the stack's field manager on the hub, Argo CD's on the spoke) and is no default.
func testStorageClasses(ctx context.Context, t *testing.T, hub, spoke kubernetes.Interface) {
	secret, err := hub.CoreV1().Secrets(gitopsbridge.DefaultNamespace).Get(ctx, "hub", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the hub's cluster secret: %v", err)
	}
	for _, label := range []string{"enable_aws_ebs_csi_driver", "enable_aws_ebs_csi_resources"} {
		if got := secret.Labels[label]; got != "false" {
			t.Errorf("the hub's cluster secret labels %s %q, want \"false\"", label, got)
		}
	}
	for cluster, c := range map[string]struct {
		kube    kubernetes.Interface
		applier func(string) bool
	}{
		"hub":        {hub, stackManager},
		"spoke-use2": {spoke, func(m string) bool { return m == "argocd-controller" }},
	} {
		gp3, err := c.kube.StorageV1().StorageClasses().Get(ctx, "gp3", metav1.GetOptions{})
		if err != nil || gp3.Provisioner != "ebs.csi.aws.com" || gp3.Annotations[defaultClass] != "true" ||
			gp3.Parameters["encrypted"] != "true" {
			t.Errorf("%s's gp3 class: %v; want the EBS CSI driver's, encrypted, the default", cluster, err)
		}
		gp2, err := c.kube.StorageV1().StorageClasses().Get(ctx, "gp2", metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s's gp2 class: %v", cluster, err)
			continue
		}
		managers := fieldManagers(gp2)
		applied := slices.ContainsFunc(slices.Collect(maps.Keys(managers)), func(m string) bool {
			return c.applier(m) && managers[m] == metav1.ManagedFieldsOperationApply
		})
		if managers["eks"] == "" || !applied || gp2.Annotations[defaultClass] != "false" {
			t.Errorf("%s's gp2 class: managers %v, annotations %v; want EKS's, taken over by the installer's apply, "+
				"no default", cluster, managers, gp2.Annotations)
		}
	}
}

// testNarrowedController: on a hub whose Argo CD application controller is not its admin, the hub's API server
// itself (RBAC, as the chart and the hub's Roles grant) refuses the controller what would lift the fleet's guards
// or make it admin: deleting the cluster-secret guard or its binding, binding a cluster role, running a pod in Argo
// CD's namespace, a token of Argo CD's server, a Secret outside Argo CD's namespace. Every request is a dry run.
func testNarrowedController(ctx context.Context, t *testing.T, hub *fleettest.Hub) {
	kube := hub.TypedAs(argoCDUser(gitopsbridge.ApplicationControllerServiceAccount))
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	dryDelete := metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}
	ns := gitopsbridge.DefaultNamespace
	cases := map[string]func() error{
		"deleting the cluster-secret guard": func() error {
			return kube.AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(ctx, gitopsbridge.ClusterSecretPolicyName, dryDelete)
		},
		"deleting its binding": func() error {
			return kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(ctx, gitopsbridge.ClusterSecretPolicyName, dryDelete)
		},
		"binding cluster-admin": func() error {
			_, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: "evil"},
				RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
				Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "default", Namespace: "default"}}}, dryRun)
			return err
		},
		"a pod in Argo CD's namespace": func() error {
			_, err := kube.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "evil"},
				Spec: corev1.PodSpec{ServiceAccountName: gitopsbridge.ApplicationControllerServiceAccount,
					Containers: []corev1.Container{{Name: "evil", Image: "busybox"}}}}, dryRun)
			return err
		},
		"a token of Argo CD's server": func() error {
			_, err := kube.CoreV1().ServiceAccounts(ns).CreateToken(ctx, gitopsbridge.ServerServiceAccount,
				&authenticationv1.TokenRequest{}, dryRun)
			return err
		},
		"a Secret in kube-system": func() error {
			_, err := kube.CoreV1().Secrets("kube-system").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "evil"}}, dryRun)
			return err
		},
	}
	for name, do := range cases {
		t.Run("the controller: "+name, func(t *testing.T) {
			if err := do(); !apierrors.IsForbidden(err) {
				t.Errorf("the hub's API server answered %v, want forbidden", err)
			}
		})
	}
}
