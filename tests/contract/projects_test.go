package contract

import (
	"strings"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// hubProjects are the projects of a hub with Git delivery to acme/registry and the add-ons template, whose
// fleet is the hub and spoke-a, by name.
func hubProjects(t *testing.T) map[string]map[string]any {
	t.Helper()
	a := gitopsbridge.GitOpsBridgeArgs{
		Namespace: argocdNamespace,
		Hub:       &gitopsbridge.Hub{FleetClusters: []string{"hub", "spoke-a"}, ChartRepositories: gitopsbridge.DefaultChartRepositories},
		AddonsRepo: &gitopsbridge.Repo{URL: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
			Path: "bootstrap/control-plane/addons", Revision: "e6d355197ff3af8e6be09e1dea068dc12727a915"},
		Git: &gitopsbridge.GitDelivery{Owner: "acme", Repository: "registry", Branch: "main"},
	}
	out := map[string]map[string]any{}
	for _, p := range gitopsbridge.HubProjects(a) {
		out[p.Name] = p.Object()
	}
	return out
}

// secretObjects are Kubernetes Secrets from the product's cluster secret manifests, for Argo CD's cluster
// database.
func secretObjects(t *testing.T, manifests ...map[string]any) []corev1.Secret {
	t.Helper()
	var out []corev1.Secret
	for _, m := range manifests {
		raw, err := yaml.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var s corev1.Secret
		if err := yaml.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

type projectCase struct {
	source  argov1alpha1.ApplicationSource
	dest    argov1alpha1.ApplicationDestination
	objects []syncedObject
	refused bool
}

func runProjectCases(t *testing.T, project map[string]any, secrets []corev1.Secret, cases map[string]projectCase) {
	t.Helper()
	adb := argoDB(t, argocdNamespace, secrets...)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := permitted(t, project, tc.source, tc.dest, adb, tc.objects)
			switch {
			case !tc.refused && err != nil:
				t.Errorf("Argo CD refuses it: %v", err)
			case tc.refused && err == nil:
				t.Error("Argo CD permits it")
			}
		})
	}
}

// TestRegistryProject: Argo CD v3.5.7's project checks (util/argo ValidatePermissions and the AppProject's
// kind and destination checks the controller makes at sync) over the registry Application the product writes and
// over an evil registry commit: the registry repository's cluster secrets into Argo CD's namespace on the hub,
// nothing else.
func TestRegistryProject(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	app := gitopsbridge.RegistryApplication(gitopsbridge.GitDelivery{Owner: "acme", Repository: "registry", Branch: "main"},
		"dev", argocdNamespace)
	var spec argov1alpha1.ApplicationSpec
	raw, _ := yaml.Marshal(app)
	if err := yaml.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Project != gitopsbridge.RegistryProject {
		t.Fatalf("the registry Application is in project %q", spec.Project)
	}
	src, dest := *spec.Source, spec.Destination
	secret := func(name, ns string) []syncedObject {
		return []syncedObject{{Kind: "Secret", Name: name, Namespace: ns, Namespaced: true}}
	}
	runProjectCases(t, hubProjects(t)[gitopsbridge.RegistryProject], secretObjects(t, hub, spoke), map[string]projectCase{
		"the registry's cluster secrets": {source: src, dest: dest, objects: secret("spoke-a", "")},
		"another repository": {refused: true, dest: dest,
			source: argov1alpha1.ApplicationSource{RepoURL: "https://github.com/evil/registry.git", Path: "clusters/dev", TargetRevision: "main"}},
		"a Secret into kube-system":  {refused: true, source: src, dest: dest, objects: secret("x", "kube-system")},
		"a Deployment on the hub":    {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "apps", Kind: "Deployment", Name: "miner", Namespaced: true}}},
		"a ClusterRoleBinding":       {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
		"an Application of its own":  {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "argoproj.io", Kind: "Application", Name: "x", Namespaced: true}}},
		"a spoke as the destination": {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: argocdNamespace}},
		"the hub's kube-system":      {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: "kube-system"}},
	})
}

// TestAddonsProject: the add-ons bootstrap Application (the one the bootstrap ApplicationSet generates for the
// hub) is permitted, the add-ons' charts reach the fleet's clusters by name, and another repository or a cluster
// the fleet does not name is refused.
func TestAddonsProject(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	stranger := edited(t, spoke, func(o map[string]any) {
		field(o, "metadata")["name"] = "stranger"
		field(o, "stringData")["name"] = "stranger"
		field(o, "stringData")["server"] = strings.Replace(spokeServer, "44B8", "99B8", 1)
	})
	template := "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"
	bootstrap := argov1alpha1.ApplicationSource{RepoURL: template, Path: "bootstrap/control-plane/addons",
		TargetRevision: "e6d355197ff3af8e6be09e1dea068dc12727a915"}
	chart := argov1alpha1.ApplicationSource{RepoURL: "https://aws.github.io/eks-charts", Chart: "aws-load-balancer-controller",
		TargetRevision: "1.7.1"}
	runProjectCases(t, hubProjects(t)[gitopsbridge.AddonsProject], secretObjects(t, hub, spoke, stranger), map[string]projectCase{
		"the bootstrap Application on the hub": {source: bootstrap,
			dest:    argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: argocdNamespace},
			objects: []syncedObject{{Group: "argoproj.io", Kind: "ApplicationSet", Name: "addons-aws-load-balancer-controller", Namespaced: true}}},
		"an add-on's chart on a spoke of the fleet": {source: chart,
			dest:    argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "kube-system"},
			objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "aws-load-balancer-controller-role"}}},
		"a chart from elsewhere": {refused: true, dest: argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "kube-system"},
			source: argov1alpha1.ApplicationSource{RepoURL: "https://charts.evil.example", Chart: "miner", TargetRevision: "1.0.0"}},
		"a cluster the fleet does not name": {refused: true, source: chart,
			dest: argov1alpha1.ApplicationDestination{Name: "stranger", Namespace: "kube-system"}},
	})
}

// TestDeliveryProject: each stage's Application as StackDelivery writes it, syncing its Stack, is permitted;
// an evil manifests commit that adds anything but a Stack, or sends one elsewhere, is refused.
func TestDeliveryProject(t *testing.T) {
	a := deliveryArgs()
	project := delivery.AppProject(a).Object()
	cases := map[string]projectCase{}
	for _, s := range a.Stages {
		var app struct {
			Spec argov1alpha1.ApplicationSpec `json:"spec"`
		}
		raw, _ := yaml.Marshal(delivery.Application(a, s))
		if err := yaml.Unmarshal(raw, &app); err != nil {
			t.Fatal(err)
		}
		cases[s.Name+"'s Application and Stack"] = projectCase{source: *app.Spec.Source, dest: app.Spec.Destination,
			objects: []syncedObject{{Group: "pulumi.com", Kind: "Stack", Name: s.StackName, Namespaced: true}}}
	}
	src := argov1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/platform.git", Path: "deploy/stacks/dev", TargetRevision: "main"}
	dev := argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: a.Stages[0].Namespace}
	for name, tc := range map[string]projectCase{
		"a Deployment beside the Stack":    {objects: []syncedObject{{Group: "apps", Kind: "Deployment", Name: "miner", Namespaced: true}}},
		"a Secret beside the Stack":        {objects: []syncedObject{{Kind: "Secret", Name: "pulumi-access-token", Namespaced: true}}},
		"a RoleBinding for the stage":      {objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding", Name: "x", Namespaced: true}}},
		"a ClusterRoleBinding":             {objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
		"a Stack into Argo CD's namespace": {objects: []syncedObject{{Group: "pulumi.com", Kind: "Stack", Name: "x", Namespace: argocdNamespace, Namespaced: true}}},
		"a Program (an inline program)":    {objects: []syncedObject{{Group: "pulumi.com", Kind: "Program", Name: "x", Namespaced: true}}},
	} {
		tc.source, tc.dest, tc.refused = src, dev, true
		cases[name] = tc
	}
	cases["another repository"] = projectCase{refused: true, dest: dev,
		source: argov1alpha1.ApplicationSource{RepoURL: "https://github.com/evil/stacks.git", Path: ".", TargetRevision: "main"}}
	runProjectCases(t, project, nil, cases)
}
