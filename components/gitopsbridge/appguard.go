package gitopsbridge

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// Names of the hub's ValidatingAdmissionPolicies (and bindings) for Argo CD's Applications and projects.
const (
	ApplicationPolicyName = "gitops-fleet-applications"
	ProjectPolicyName     = "gitops-fleet-projects"
)

// ApplicationGuard is what the hub's admission guard for Argo CD's Applications and AppProjects knows of the fleet.
// Argo CD itself fences an Application outside its namespace into the projects whose sourceNamespaces name it; the
// guard makes the API server refuse what Argo CD would only refuse to sync, with a message at the writer's end.
type ApplicationGuard struct {
	// Namespace is Argo CD's.
	Namespace string
	// Deployer is the Kubernetes username of the identity that runs the hub's stack (DeployerUsername); "" exempts
	// no one.
	Deployer string
	// Projects maps each repository's ApplicationsNamespace to the one project its Applications name.
	Projects map[string]string
	// Fenced are the projects the hub writes (HubProjects, default included): only the deployer changes or
	// deletes them.
	Fenced []string
}

// ApplicationGuard is the guard of the hub's Applications and projects (every repository's ApplicationsNamespace
// to its Applications project; the hub's projects fenced).
func (a GitOpsBridgeArgs) ApplicationGuard(deployer string) ApplicationGuard {
	g := ApplicationGuard{Namespace: a.Namespace, Deployer: deployer, Projects: map[string]string{}}
	for _, p := range givenPaths(a) {
		g.Projects[ApplicationsNamespace(a.Namespace, p.part)] = p.apps
	}
	for _, p := range HubProjects(a, "") {
		g.Fenced = append(g.Fenced, p.Name)
	}
	return g
}

// Policies are the two policies (Kubernetes' ValidatingAdmissionPolicy, evaluated by the API server):
//   - gitops-fleet-applications, on the Applications of Argo CD's namespace and of every ApplicationsNamespace,
//     for every writer: an Application in an ApplicationsNamespace names that namespace's project; no other names
//     AddonApplicationsProject (default, which an empty project is to Argo CD), which Argo CD would otherwise admit from its own namespace whatever the
//     sourceNamespaces say. An add-ons commit cannot put an Application into the registry's or the workloads'
//     project, nor an Application of anyone's into default.
//   - gitops-fleet-projects, on the AppProjects of Argo CD's namespace: only the deployer (and MastersGroup, and
//     SystemDeleters deleting the namespace) changes the spec of one of Fenced or deletes it. Argo CD's server
//     still creates default when it starts and finds none (creations are not guarded).
//
// Nothing guards the guards themselves: the API server never applies a policy to ValidatingAdmissionPolicies,
// MutatingAdmissionPolicies or their bindings (k8s.io/apiserver's policy plugin excludes them, and webhooks skip
// them too), so whoever RBAC lets write admissionregistration.k8s.io can lift them (on the hub, Argo CD's
// application controller, whose chart cluster role allows everything).
func (g ApplicationGuard) Policies() []admission.Policy {
	namespaces := slices.Sorted(maps.Keys(g.Projects))
	projects := literal(g.Projects)
	fenced := literal(g.Fenced)
	var pairs []string
	for _, ns := range namespaces {
		pairs = append(pairs, ns+" → "+g.Projects[ns])
	}
	apps := admission.Policy{
		Name:  ApplicationPolicyName,
		Group: "argoproj.io", Version: "v1alpha1", Resource: "applications",
		Namespaces: append([]string{g.Namespace}, namespaces...),
		DeleteUnguarded: "the ApplicationSet controller deletes the Applications a commit drops; a deleted " +
			"Application takes only what its project allowed (cluster secrets are guarded at their deletion)",
		Variables: []admission.Variable{
			// Argo CD reads an empty project as default (ApplicationSpec.GetProject).
			{Name: "project", Expression: "object.spec.?project.orValue('') == '' ? " + admission.String(AddonApplicationsProject) + " : object.spec.project"},
			{Name: "fenced", Expression: projects},
		},
		Validations: []admission.Validation{
			{
				Expression: "!(request.namespace in variables.fenced) || variables.project == variables.fenced[request.namespace]",
				Message: "an Application of a repository's namespace names that repository's project (" +
					strings.Join(pairs, ", ") + "): its ApplicationSets reach that project only",
				MessageExpression: "'an Application in ' + request.namespace + ' must name project ' + " +
					"variables.fenced[request.namespace] + ', not ' + variables.project",
			},
			{
				Expression: "request.namespace in variables.fenced || variables.project != " + admission.String(AddonApplicationsProject),
				Message: fmt.Sprintf("project %s is the add-ons' Applications project: only Applications of %s name it",
					AddonApplicationsProject, ApplicationsNamespace(g.Namespace, "addons")),
			},
		},
	}
	projectsPolicy := admission.Policy{
		Name:  ProjectPolicyName,
		Group: "argoproj.io", Version: "v1alpha1", Resource: "appprojects",
		Namespaces: []string{g.Namespace},
		Operations: []string{"UPDATE", "DELETE"},
		Variables: append(g.ProjectExemptions().Variables(),
			admission.Variable{Name: "fenced", Expression: "oldObject.metadata.name in " + fenced}),
		Validations: []admission.Validation{{
			Expression: "variables.exempt || !variables.fenced || (request.operation == 'UPDATE' && object.spec == oldObject.spec)",
			Message: "the hub's projects (" + strings.Join(g.Fenced, ", ") + ") are the stack's: only the deployer " +
				"changes what they permit or deletes them",
		}},
	}
	return []admission.Policy{apps, projectsPolicy}
}

// ProjectExemptions are the project guard's: the deployer, MastersGroup and SystemDeleters at a deletion. The
// Application guard exempts no one.
func (g ApplicationGuard) ProjectExemptions() admission.Exemptions {
	return admission.Exemptions{Deployer: g.Deployer, Masters: true, SystemDeleters: true}
}
