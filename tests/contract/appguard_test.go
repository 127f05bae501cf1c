package contract

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

var (
	applicationKind     = schema.GroupVersionKind{Group: "argoproj.io", Version: "v1alpha1", Kind: "Application"}
	applicationResource = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}
	projectKind         = schema.GroupVersionKind{Group: "argoproj.io", Version: "v1alpha1", Kind: "AppProject"}
	projectResource     = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "appprojects"}
	appSetController    = "system:serviceaccount:argocd:" + gitopsbridge.ApplicationSetServiceAccount
)

// applicationGuard is the hub's guard for hubArgs, the deployer an assumed role.
func applicationGuard() gitopsbridge.ApplicationGuard {
	return hubArgs().ApplicationGuard(gitopsbridge.DeployerUsername(deployerRole + "ci-run-1"))
}

// application is an Application in namespace ns naming project.
func application(ns, project string) map[string]any {
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "addon-spoke-a-aws-load-balancer-controller", "namespace": ns},
		"spec": map[string]any{"project": project, "destination": map[string]any{"name": "spoke-a", "namespace": "kube-system"},
			"source": map[string]any{"repoURL": "https://aws.github.io/eks-charts", "chart": "aws-load-balancer-controller", "targetRevision": "1.7.1"}}}
}

// TestApplicationGuard: Kubernetes' admission code runs the hub's Application guard over the Applications the
// ApplicationSet controller writes for each repository's ApplicationSets (admitted) and over what an evil add-ons or
// workloads commit would make it write, or anyone would write in Argo CD's namespace (refused, with the message).
func TestApplicationGuard(t *testing.T) {
	p := applicationGuard().Policies()[0]
	if p.Name != gitopsbridge.ApplicationPolicyName {
		t.Fatalf("first policy %s", p.Name)
	}
	for name, tc := range map[string]struct {
		ns, project, want string
	}{
		"an add-on Application in default":                  {ns: addonsApps, project: gitopsbridge.AddonApplicationsProject},
		"a workload Application in fleet-workloads-apps":    {ns: workloadsApps, project: gitopsbridge.WorkloadApplicationsProject},
		"the bootstrap Application in Argo CD's namespace":  {ns: argocdNamespace, project: gitopsbridge.AddonsProject},
		"an add-ons commit's Application in fleet-registry": {ns: addonsApps, project: gitopsbridge.RegistryProject, want: "an Application in argocd-addons must name project default, not fleet-registry"},
		"an add-ons commit's Application in the workloads' project": {ns: addonsApps, project: gitopsbridge.WorkloadApplicationsProject,
			want: "must name project default, not fleet-workloads-apps"},
		"a workloads commit's Application in default": {ns: workloadsApps, project: gitopsbridge.AddonApplicationsProject,
			want: "an Application in argocd-workloads must name project fleet-workloads-apps, not default"},
		"an Application in default in Argo CD's namespace": {ns: argocdNamespace, project: gitopsbridge.AddonApplicationsProject,
			want: "project default is the add-ons' Applications project: only Applications of argocd-addons name it"},
		"an Application with an empty project (default) in Argo CD's namespace": {ns: argocdNamespace, project: "",
			want: "project default is the add-ons' Applications project: only Applications of argocd-addons name it"},
		"an add-on Application with an empty project (default)": {ns: addonsApps, project: ""},
		"a workloads commit's Application with an empty project (default)": {ns: workloadsApps, project: "",
			want: "an Application in argocd-workloads must name project fleet-workloads-apps, not default"},
	} {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, p, application(tc.ns, tc.project), nil, tc.ns, appSetController, applicationKind, applicationResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
}

// TestProjectGuard: only the deployer changes what the hub's projects permit or deletes them; Argo CD's server, a
// sync or a stage cannot open default or a fleet project, and a project that is not the hub's is not guarded.
func TestProjectGuard(t *testing.T) {
	p := applicationGuard().Policies()[1]
	projects := hubProjects(t)
	fenced := projects[gitopsbridge.AddonApplicationsProject]
	opened := edited(t, fenced, func(o map[string]any) {
		field(o, "spec")["destinations"] = []any{map[string]any{"server": "*", "namespace": "*"}}
	})
	labelled := edited(t, fenced, func(o map[string]any) { field(o, "metadata")["labels"] = map[string]any{"team": "platform"} })
	tenantProject := edited(t, fenced, func(o map[string]any) { field(o, "metadata")["name"] = "tenant-payments" })
	tenantOpened := edited(t, opened, func(o map[string]any) { field(o, "metadata")["name"] = "tenant-payments" })
	for name, tc := range map[string]struct {
		obj, old map[string]any
		user     string
		want     string
	}{
		"default opened by the deployer":            {obj: opened, old: fenced, user: deployerRole + "ci-run-2"},
		"default opened through Argo CD's server":   {obj: opened, old: fenced, user: argocdServer, want: "only the deployer changes what they permit"},
		"default opened by a sync":                  {obj: opened, old: fenced, user: controller, want: "only the deployer changes what they permit"},
		"default opened by a stage":                 {obj: opened, old: fenced, user: stage, want: "only the deployer changes what they permit"},
		"default labelled by Argo CD's server":      {obj: labelled, old: fenced, user: argocdServer},
		"fleet-registry deleted by a sync":          {old: projects[gitopsbridge.RegistryProject], user: controller, want: "or deletes them"},
		"fleet-registry deleted with its namespace": {old: projects[gitopsbridge.RegistryProject], user: namespaces},
		"a tenant's project, not the hub's":         {obj: tenantOpened, old: tenantProject, user: argocdServer},
	} {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, p, tc.obj, tc.old, argocdNamespace, tc.user, projectKind, projectResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
}
