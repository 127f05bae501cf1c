package delivery

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// StackPolicyName is the hub's ValidatingAdmissionPolicy (and binding) for a delivery's Stacks:
// "<project>-stacks".
func StackPolicyName(project string) string { return project + "-stacks" }

// StackGuard is the admission guard for the pulumi.com Stacks of the stages' namespaces, whoever writes them
// (Argo CD syncing the manifests repository, Kargo, a person): in each stage's namespace a Stack runs only that
// stage's program (projectRepo, repoDir, stack and backend as delivered), from a pinned commit or the stage's
// branch, as the stage's deploy ServiceAccount (its preview ServiceAccount for a preview Stack), with envRefs of
// type Secret or Literal only, no Program or Flux source, and a workspace that cannot change its ServiceAccount,
// mount host paths, share the host's network or process namespaces, run privileged or add capabilities; and then,
// deny by default, each Stack is one the delivery writes (by namespace and name) with exactly the spec it wrote
// (pinValidations). What a manifests commit can still choose is the commit, which is the promotion itself, and the
// workspace pod's resources and metadata.
func StackGuard(a StackDeliveryArgs) admission.Policy {
	var entries, stacks, namespaces []string
	for _, s := range a.Stages {
		if !s.ownsWorkspace() { // a preview stage's Stack is in its target's namespace, under its entry
			continue
		}
		fields := [][2]string{
			{"serviceAccount", s.ServiceAccountName}, {"previewServiceAccount", s.PreviewServiceAccountName},
			{"branch", s.Branch}, {"previewBranch", a.Program.Branch},
		}
		var kv, names []string
		for _, f := range fields {
			kv = append(kv, admission.String(f[0])+": "+admission.String(f[1]))
		}
		for _, m := range s.members() {
			names = append(names, admission.String(m.stage.Stack))
		}
		entries = append(entries, admission.String(s.Namespace)+": {"+strings.Join(kv, ", ")+"}")
		// A CEL map's values share one type: the stage's stacks (a list) are a map of their own.
		stacks = append(stacks, admission.String(s.Namespace)+": ["+strings.Join(names, ", ")+"]")
		namespaces = append(namespaces, s.Namespace)
	}
	slices.Sort(entries)
	slices.Sort(stacks)
	pod := "object.spec.?workspaceTemplate.?spec.?podTemplate.?spec"
	containers := fmt.Sprintf("%s.?containers.orValue([]) + %s.?initContainers.orValue([])", pod, pod)
	pinVars, pinVals := pinValidations(a)
	return admission.Policy{
		Name:  StackPolicyName(a.Project),
		Group: "pulumi.com", Version: "*", Resource: "stacks",
		Namespaces: namespaces,
		DeleteUnguarded: "Argo CD's resources finalizer deletes a removed stage's Stack; one deleted otherwise is " +
			"synced back (self-heal), its resources kept (destroyOnFinalize pinned)",
		Variables: append([]admission.Variable{
			{Name: "stage", Expression: "{" + strings.Join(entries, ", ") + "}[request.namespace]"},
			{Name: "preview", Expression: "object.spec.?preview.orValue(false)"},
			{Name: "stacks", Expression: "{" + strings.Join(stacks, ", ") + "}[request.namespace]"},
		}, pinVars...),
		Validations: append([]admission.Validation{
			{
				Expression: fmt.Sprintf("object.spec.projectRepo == %s && object.spec.?repoDir.orValue('') == %s && object.spec.?backend.orValue('') == %s",
					admission.String(a.Program.RepoUrl), admission.String(a.Program.RepoDir), admission.String(a.Backend)),
				Message: "a stage's Stack runs only the delivered program: projectRepo " + a.Program.RepoUrl +
					", its repoDir and backend",
			},
			{
				Expression: "object.spec.stack in variables.stacks",
				Message:    "a stage's Stack deploys only the stage's own stack (one of its stacks)",
			},
			{
				Expression: "!has(object.spec.programRef) && !has(object.spec.fluxSource)",
				Message:    "a stage's Stack takes its program from the program repository only (no programRef or fluxSource)",
			},
			{
				Expression: "!has(object.spec.branch) || object.spec.branch == '' || object.spec.branch == (variables.preview ? variables.stage.previewBranch : variables.stage.branch)",
				Message:    "a stage's Stack pins a commit, or follows only the branch the stage is configured with",
			},
			{
				Expression: "object.spec.serviceAccountName == (variables.preview ? variables.stage.previewServiceAccount : variables.stage.serviceAccount)",
				Message:    "a stage's Stack runs as the stage's own ServiceAccount (a preview Stack as its preview ServiceAccount)",
			},
			{
				Expression: "object.spec.?workspaceTemplate.?spec.?serviceAccountName.orValue(object.spec.serviceAccountName) == object.spec.serviceAccountName && !" + pod + ".?serviceAccountName.hasValue()",
				Message:    "workspaceTemplate cannot change the workspace's ServiceAccount",
			},
			{
				Expression: "!has(object.spec.envRefs) || object.spec.envRefs.all(k, object.spec.envRefs[k].type in ['Secret', 'Literal'])",
				Message:    "envRefs are of type Secret or Literal only (Env and FS read the operator's own environment and files)",
			},
			{
				Expression: pod + ".?volumes.orValue([]).all(v, !has(v.hostPath))",
				Message:    "workspaceTemplate cannot mount host paths",
			},
			{
				Expression: "!" + pod + ".?hostNetwork.orValue(false) && !" + pod + ".?hostPID.orValue(false) && !" + pod + ".?hostIPC.orValue(false)",
				Message:    "workspaceTemplate cannot share the host's network, process or IPC namespaces",
			},
			{
				Expression: "(" + containers + ").all(c, !c.?securityContext.?privileged.orValue(false) && c.?securityContext.?capabilities.?add.orValue([]).size() == 0)",
				Message:    "workspaceTemplate cannot run a container privileged or add capabilities",
			},
		}, pinVals...),
	}
}
