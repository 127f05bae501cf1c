package contract

import (
	"strings"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// hubArgs is a hub with Git delivery to acme/registry, the add-ons template and acme/workloads, whose fleet is the
// hub and spoke-a, by name, and whose tenant team-a owns namespace team-a.
func hubArgs() gitopsbridge.GitOpsBridgeArgs {
	return gitopsbridge.GitOpsBridgeArgs{
		Namespace: argocdNamespace,
		Hub: &gitopsbridge.Hub{FleetClusters: []string{"hub", "spoke-a"}, ChartRepositories: gitopsbridge.DefaultChartRepositories,
			ReservedNamespaces: []string{"team-a"}},
		AddonsRepo: &gitopsbridge.Repo{URL: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
			Path: "bootstrap/control-plane/addons", Revision: "e6d355197ff3af8e6be09e1dea068dc12727a915"},
		WorkloadsRepo: &gitopsbridge.Repo{URL: "https://github.com/acme/workloads", Path: "apps", Revision: "e6d355197ff3af8e6be09e1dea068dc12727a915"},
		Git:           &gitopsbridge.GitDelivery{Owner: "acme", Repository: "registry", Branch: "main"},
	}
}

// hubProjects are the projects of hubArgs, by name.
func hubProjects(t *testing.T) map[string]map[string]any {
	t.Helper()
	return projectsOf(hubArgs())
}

// projectsOf are a hub's projects (its own secret named hub) as objects, by name.
func projectsOf(a gitopsbridge.GitOpsBridgeArgs) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, p := range gitopsbridge.HubProjects(a, "hub") {
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
	// appNamespace is the Application's namespace; Argo CD's when empty.
	appNamespace string
	source       argov1alpha1.ApplicationSource
	dest         argov1alpha1.ApplicationDestination
	objects      []syncedObject
	refused      bool
}

func runProjectCases(t *testing.T, project map[string]any, secrets []corev1.Secret, cases map[string]projectCase) {
	t.Helper()
	adb := argoDB(t, argocdNamespace, secrets...)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ns := tc.appNamespace
			if ns == "" {
				ns = argocdNamespace
			}
			err := permittedIn(t, project, ns, tc.source, tc.dest, adb, tc.objects)
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
		"dev", gitopsbridge.HubDestination(hubArgs(), "hub", argocdNamespace))
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

// The namespaces of the add-ons' and the workloads' ApplicationSets and Applications on the hub.
var (
	addonsApps    = gitopsbridge.ApplicationsNamespace(argocdNamespace, "addons")
	workloadsApps = gitopsbridge.ApplicationsNamespace(argocdNamespace, "workloads")
)

// TestBootstrapProjects: each repository's bootstrap Application (the one the bootstrap ApplicationSet generates
// for the hub) syncs that repository's ApplicationSets into its own namespace on the hub, and an evil commit that
// adds anything else, or puts an ApplicationSet into Argo CD's namespace, is refused.
func TestBootstrapProjects(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	a := hubArgs()
	for _, r := range []struct {
		project, namespace, prefix string
		repo                       *gitopsbridge.Repo
	}{
		{gitopsbridge.AddonsProject, addonsApps, "addons", a.AddonsRepo},
		{gitopsbridge.WorkloadsProject, workloadsApps, "workload", a.WorkloadsRepo},
	} {
		t.Run(r.project, func(t *testing.T) {
			var spec argov1alpha1.ApplicationSpec
			raw, _ := yaml.Marshal(gitopsbridge.BootstrapApplicationSet(a, r.prefix, "hub")["template"].(map[string]any)["spec"])
			if err := yaml.Unmarshal(raw, &spec); err != nil {
				t.Fatal(err)
			}
			if spec.Project != r.project {
				t.Fatalf("the bootstrap Application is in project %q", spec.Project)
			}
			src := argov1alpha1.ApplicationSource{RepoURL: r.repo.URL, Path: r.repo.Path, TargetRevision: r.repo.Revision}
			dest := spec.Destination
			if dest.Namespace != r.namespace {
				t.Fatalf("the bootstrap Application syncs into %q", dest.Namespace)
			}
			argo := func(kind, ns string) []syncedObject {
				return []syncedObject{{Group: "argoproj.io", Kind: kind, Name: "x", Namespace: ns, Namespaced: true}}
			}
			runProjectCases(t, hubProjects(t)[r.project], secretObjects(t, hub, spoke), map[string]projectCase{
				"the repository's ApplicationSets":           {source: src, dest: dest, objects: argo("ApplicationSet", "")},
				"an ApplicationSet into Argo CD's namespace": {refused: true, source: src, dest: dest, objects: argo("ApplicationSet", argocdNamespace)},
				"an Application":                             {refused: true, source: src, dest: dest, objects: argo("Application", "")},
				"an AppProject":                              {refused: true, source: src, dest: dest, objects: argo("AppProject", "")},
				"a ConfigMap (argocd-cm)":                    {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "ConfigMap", Name: "argocd-cm", Namespace: argocdNamespace, Namespaced: true}}},
				"a ClusterRoleBinding":                       {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
				"Argo CD's namespace as the destination": {refused: true, source: src,
					dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: argocdNamespace}},
				"another repository": {refused: true, dest: dest,
					source: argov1alpha1.ApplicationSource{RepoURL: "https://github.com/evil/appsets", Path: ".", TargetRevision: "main"}},
			})
		})
	}
}

// TestAddonApplicationsProject: the Applications the add-ons' ApplicationSets generate (project default, as the
// GitOps Bridge template names it) reach the fleet's spokes by name with the add-ons' charts; from any other
// namespace (the workloads' ApplicationSets', or Argo CD's own for anyone but Argo CD's namespace rule), onto the
// hub, onto a cluster the fleet does not name, or from another chart repository, Argo CD refuses them. With
// hub.addonsOnHub the hub is reached too, but never Argo CD's namespace.
func TestAddonApplicationsProject(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	stranger := edited(t, spoke, func(o map[string]any) {
		field(o, "metadata")["name"] = "stranger"
		field(o, "stringData")["name"] = "stranger"
		field(o, "stringData")["server"] = strings.Replace(spokeServer, "44B8", "99B8", 1)
	})
	chart := argov1alpha1.ApplicationSource{RepoURL: "https://aws.github.io/eks-charts", Chart: "aws-load-balancer-controller",
		TargetRevision: "1.7.1"}
	role := []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "aws-load-balancer-controller-role"}}
	onSpoke := argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "kube-system"}
	secrets := secretObjects(t, hub, spoke, stranger)
	runProjectCases(t, hubProjects(t)[gitopsbridge.AddonApplicationsProject], secrets, map[string]projectCase{
		"an add-on's chart on a spoke of the fleet": {appNamespace: addonsApps, source: chart, dest: onSpoke, objects: role},
		"from the workloads' namespace":             {refused: true, appNamespace: workloadsApps, source: chart, dest: onSpoke},
		"from another namespace":                    {refused: true, appNamespace: "team-a", source: chart, dest: onSpoke},
		"a chart from elsewhere": {refused: true, appNamespace: addonsApps, dest: onSpoke,
			source: argov1alpha1.ApplicationSource{RepoURL: "https://charts.evil.example", Chart: "miner", TargetRevision: "1.0.0"}},
		"a cluster the fleet does not name": {refused: true, appNamespace: addonsApps, source: chart,
			dest: argov1alpha1.ApplicationDestination{Name: "stranger", Namespace: "kube-system"}},
		"the hub by name": {refused: true, appNamespace: addonsApps, source: chart,
			dest: argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "kube-system"}},
		"the hub's Argo CD namespace": {refused: true, appNamespace: addonsApps, source: chart,
			dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: argocdNamespace}},
		"an admission webhook on a spoke": {appNamespace: addonsApps, source: chart, dest: onSpoke,
			objects: []syncedObject{{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration", Name: "aws-load-balancer-webhook"}}},
		"a spoke's tenant guard replaced": {refused: true, appNamespace: addonsApps, source: chart, dest: onSpoke,
			objects: []syncedObject{{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy", Name: "gitops-fleet-tenants"}}},
		"a mutating policy on a spoke": {refused: true, appNamespace: addonsApps, source: chart, dest: onSpoke,
			objects: []syncedObject{{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding", Name: "evil"}}},
	})
	a := hubArgs()
	a.Hub.AddonsOnHub = true
	runProjectCases(t, projectsOf(a)[gitopsbridge.AddonApplicationsProject], secrets, map[string]projectCase{
		"with addonsOnHub, an add-on on the hub": {appNamespace: addonsApps, source: chart, objects: role,
			dest: argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "kube-system"}},
		"with addonsOnHub, still a spoke": {appNamespace: addonsApps, source: chart, dest: onSpoke},
		"with addonsOnHub, the hub's Argo CD namespace": {refused: true, appNamespace: addonsApps, source: chart,
			dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: argocdNamespace}},
		"with addonsOnHub, the hub's cluster-secret guard unbound": {refused: true, appNamespace: addonsApps, source: chart,
			dest: argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "kube-system"},
			objects: []syncedObject{{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding",
				Name: gitopsbridge.ClusterSecretPolicyName}}},
		"with addonsOnHub, a pod into Argo CD's namespace": {refused: true, appNamespace: addonsApps, source: chart,
			dest:    argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "kube-system"},
			objects: []syncedObject{{Kind: "Pod", Name: "as-controller", Namespace: argocdNamespace, Namespaced: true}}},
	})
	a.AddonsRepo = nil
	runProjectCases(t, projectsOf(a)[gitopsbridge.AddonApplicationsProject], secrets, map[string]projectCase{
		"without an add-ons repository, anything in default": {refused: true, source: chart, dest: onSpoke},
	})
}

// TestWorkloadApplicationsProject: the workloads' Applications come from the workloads' namespace, reach the
// spokes with Namespaces the only cluster-scoped kind, and never the hub; an evil workloads commit reaches no
// namespace of Kubernetes, Argo CD, an add-on (whose service accounts carry its IAM role) or a tenant, and no kind
// beyond an application's (a SecretStore, a bare Pod), each refused by Argo CD's own project code.
func TestWorkloadApplicationsProject(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	src := argov1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/workloads", Path: "apps/web", TargetRevision: "main"}
	onSpoke := argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "web"}
	in := func(ns, group, kind string) projectCase {
		return projectCase{refused: true, appNamespace: workloadsApps, source: src, dest: onSpoke,
			objects: []syncedObject{{Group: group, Kind: kind, Name: "x", Namespace: ns, Namespaced: true}}}
	}
	namespace := func(name string) projectCase {
		return projectCase{refused: true, appNamespace: workloadsApps, source: src, dest: onSpoke,
			objects: []syncedObject{{Kind: "Namespace", Name: name}}}
	}
	cases := map[string]projectCase{
		"a workload on a spoke": {appNamespace: workloadsApps, source: src, dest: onSpoke,
			objects: []syncedObject{{Group: "apps", Kind: "Deployment", Name: "web", Namespaced: true},
				{Kind: "Service", Name: "web", Namespaced: true}, {Group: "external-secrets.io", Kind: "ExternalSecret", Name: "db", Namespaced: true},
				{Kind: "ConfigMap", Name: "web", Namespaced: true}, {Kind: "Namespace", Name: "web"}}},
		"from the add-ons' namespace": {refused: true, appNamespace: addonsApps, source: src, dest: onSpoke},
		"a ClusterRoleBinding": {refused: true, appNamespace: workloadsApps, source: src, dest: onSpoke,
			objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
		"the hub": {refused: true, appNamespace: workloadsApps, source: src,
			dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: "web"}},
		"the hub by name": {refused: true, appNamespace: workloadsApps, source: src,
			dest: argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "web"}},
		"an Application into kube-system": {refused: true, appNamespace: workloadsApps, source: src,
			dest: argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "kube-system"}},
		"a Deployment in kube-system":                   in("kube-system", "apps", "Deployment"),
		"a RoleBinding in kube-system":                  in("kube-system", "rbac.authorization.k8s.io", "RoleBinding"),
		"a Deployment in kube-public":                   in("kube-public", "apps", "Deployment"),
		"a RoleBinding in its own namespace":            in("web", "rbac.authorization.k8s.io", "RoleBinding"),
		"a SecretStore in its own namespace":            in("web", "external-secrets.io", "SecretStore"),
		"a Deployment in a tenant's namespace":          in("team-a", "apps", "Deployment"),
		"an allow-all NetworkPolicy in a tenant's":      in("team-a", "networking.k8s.io", "NetworkPolicy"),
		"a Deployment in Argo CD's namespace":           in("argocd", "apps", "Deployment"),
		"the Namespace kube-system, adopted and pruned": namespace("kube-system"),
		"a tenant's Namespace, adopted and pruned":      namespace("team-a"),
		"an add-on's Namespace, adopted and pruned":     namespace("karpenter"),
	}
	// A Deployment in an add-on's namespace runs as its service accounts, which carry the add-on's IAM role (Pod
	// Identity binds a namespace and service account).
	for _, addon := range []string{"karpenter", "velero", "external_dns", "external_secrets", "aws_load_balancer_controller", "cert_manager"} {
		a, _ := addons.Lookup(addon)
		cases["a Deployment as "+addon+" in its namespace"] = in(a.Identity.Namespace, "apps", "Deployment")
	}
	runProjectCases(t, hubProjects(t)[gitopsbridge.WorkloadApplicationsProject], secretObjects(t, hub, spoke), cases)
}

// stageSpec is the spec of a stage's Application as StackDelivery writes it, in Argo CD's types.
func stageSpec(t *testing.T, a delivery.StackDeliveryArgs, s delivery.DeliveryStage) argov1alpha1.ApplicationSpec {
	t.Helper()
	var app struct {
		Spec argov1alpha1.ApplicationSpec `json:"spec"`
	}
	raw, err := yaml.Marshal(delivery.Application(a, s))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &app); err != nil {
		t.Fatal(err)
	}
	return app.Spec
}

// TestDeliveryProject: each stage's Application as StackDelivery writes it, syncing its Stack, is permitted;
// an evil manifests commit that adds anything but a Stack, or sends one elsewhere, is refused.
func TestDeliveryProject(t *testing.T) {
	a := deliveryArgs()
	project := delivery.AppProject(a).Object()
	cases := map[string]projectCase{}
	for _, s := range a.Stages {
		spec := stageSpec(t, a, s)
		cases[s.Name+"'s Application and Stack"] = projectCase{source: *spec.Source, dest: spec.Destination,
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

// managedHubSecrets are the cluster secrets of a managed hub "hub" (registered by its EKS cluster ARN, no
// credential, as the managed Argo CD takes its own cluster) and of a spoke.
func managedHubSecrets(t *testing.T) []corev1.Secret {
	t.Helper()
	_, spoke := fleetSecrets(t)
	var hub map[string]any
	if err := yaml.Unmarshal([]byte(gitopsbridge.ClusterSecret{Name: "hub", Namespace: argocdNamespace, ClusterName: "hub",
		Labels: gitopsbridge.Labels("hub", "dev", "1.33", 0, nil, nil), Server: "arn:aws:eks:us-east-1:111122223333:cluster/hub",
		Config: gitopsbridge.InClusterConfig()}.YAML()), &hub); err != nil {
		t.Fatal(err)
	}
	return secretObjects(t, hub, spoke)
}

// TestManagedHubDeliveryProject: on a managed hub, each stage's Application as StackDelivery writes it with hubName
// (the hub by its secret's name), syncing its Stack, is permitted by Argo CD v3.5.7's project checks; the same aimed
// at the in-cluster server, which the managed Argo CD does not take, is refused.
func TestManagedHubDeliveryProject(t *testing.T) {
	a := deliveryArgs()
	a.HubName = "hub"
	cases := map[string]projectCase{}
	for _, s := range a.Stages {
		spec := stageSpec(t, a, s)
		if spec.Destination.Name != "hub" || spec.Destination.Server != "" {
			t.Errorf("%s's Application deploys to %+v, want the hub by name", s.Name, spec.Destination)
		}
		stack := []syncedObject{{Group: "pulumi.com", Kind: "Stack", Name: s.StackName, Namespaced: true}}
		cases[s.Name+"'s Application and Stack, onto the hub by name"] = projectCase{source: *spec.Source,
			dest: spec.Destination, objects: stack}
		cases[s.Name+"'s, onto the in-cluster server"] = projectCase{refused: true, source: *spec.Source,
			dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: s.Namespace}, objects: stack}
	}
	runProjectCases(t, delivery.AppProject(a).Object(), managedHubSecrets(t), cases)
}

// TestManagedHubProjects: on a managed hub (every cluster, the hub too, registered by its EKS cluster ARN), Argo CD
// v3.5.7's project checks admit the registry Application and each bootstrap Application the product writes, which
// name the hub by its secret's name, with what they sync; the same Applications aimed at the in-cluster server,
// which the managed Argo CD does not take, are refused.
func TestManagedHubProjects(t *testing.T) {
	a := hubArgs()
	a.Hub.Mode = gitopsbridge.ModeManaged
	secrets, projects := managedHubSecrets(t), projectsOf(a)
	inCluster := func(d argov1alpha1.ApplicationDestination) argov1alpha1.ApplicationDestination {
		return argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: d.Namespace}
	}
	specOf := func(obj map[string]any) argov1alpha1.ApplicationSpec {
		var spec argov1alpha1.ApplicationSpec
		raw, _ := yaml.Marshal(obj)
		if err := yaml.Unmarshal(raw, &spec); err != nil {
			t.Fatal(err)
		}
		return spec
	}
	registry := specOf(gitopsbridge.RegistryApplication(*a.Git, "dev", gitopsbridge.HubDestination(a, "hub", argocdNamespace)))
	if registry.Destination.Name != "hub" || registry.Destination.Server != "" {
		t.Errorf("the registry Application's destination is %+v, want the hub by name", registry.Destination)
	}
	runProjectCases(t, projects[gitopsbridge.RegistryProject], secrets, map[string]projectCase{
		"the registry's cluster secrets, onto the hub by name": {source: *registry.Source, dest: registry.Destination,
			objects: []syncedObject{{Kind: "Secret", Name: "spoke-a", Namespaced: true}}},
		"the same, onto the in-cluster server": {refused: true, source: *registry.Source, dest: inCluster(registry.Destination)},
	})
	for prefix, r := range map[string]struct {
		project string
		repo    *gitopsbridge.Repo
	}{"addons": {gitopsbridge.AddonsProject, a.AddonsRepo}, "workload": {gitopsbridge.WorkloadsProject, a.WorkloadsRepo}} {
		spec := specOf(gitopsbridge.BootstrapApplicationSet(a, prefix, "hub")["template"].(map[string]any)["spec"].(map[string]any))
		src := argov1alpha1.ApplicationSource{RepoURL: r.repo.URL, Path: r.repo.Path, TargetRevision: r.repo.Revision}
		t.Run(r.project, func(t *testing.T) {
			runProjectCases(t, projects[r.project], secrets, map[string]projectCase{
				"the repository's ApplicationSets, onto the hub by name": {source: src, dest: spec.Destination,
					objects: []syncedObject{{Group: "argoproj.io", Kind: "ApplicationSet", Name: "x", Namespaced: true}}},
				"the same, onto the in-cluster server": {refused: true, source: src, dest: inCluster(spec.Destination)},
			})
		})
	}
}
