package delivery

import "github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"

const (
	// AuthorizedStageAnnotation lets a Kargo Stage's argocd-update step act on an Application; its value is
	// "<project>:<stage>" (Kargo's AnnotationKeyAuthorizedStage).
	AuthorizedStageAnnotation = "kargo.akuity.io/authorized-stage"
	// ResourcesFinalizer makes Argo CD delete an Application's resources before the Application itself.
	ResourcesFinalizer = "resources-finalizer.argocd.argoproj.io"
	// HealthCheckKey is the argocd-cm key of a resource health check in Lua for group pulumi.com, kind Stack
	// (Argo CD's resource.customizations.health.<group>_<kind>).
	HealthCheckKey = "resource.customizations.health.pulumi.com_Stack"
)

// HealthCheck is the Lua health check of pulumi.com/v1 Stacks for argocd-cm, after PKO's documented mapping of
// the Stack's conditions (docs/argocd-health-checks.md, PKO 2.7 or later): Stalled=True is Degraded,
// Reconciling=True is Progressing, Ready=True is Healthy; a Stack without conditions is Progressing. Argo CD's
// health, and Kargo's verification of a promotion with it, wait for Ready.
const HealthCheck = `hs = { status = "Progressing", message = "Waiting for the Pulumi Kubernetes Operator to reconcile the Stack" }
if obj.status == nil or obj.status.conditions == nil then
  return hs
end
local found = {}
for _, c in ipairs(obj.status.conditions) do
  if c.status == "True" then
    found[c.type] = c.message or ""
  end
end
if found["Stalled"] ~= nil then
  hs.status = "Degraded"
  hs.message = found["Stalled"]
elseif found["Reconciling"] ~= nil then
  hs.status = "Progressing"
  hs.message = found["Reconciling"]
elseif found["Ready"] ~= nil then
  hs.status = "Healthy"
  hs.message = found["Ready"]
end
return hs
`

// ApplicationName is the Argo CD Application of a stage: "<project>-<stage>".
func ApplicationName(project, stage string) string { return project + "-" + stage }

// Target is where the manifests are committed.
func (m ManifestsRepository) Target() gitopsbridge.GitHubTarget {
	return gitopsbridge.GitHubTarget{Owner: m.Owner, Repository: m.Repository, Branch: m.Branch,
		PullRequest: m.PullRequest, PullRequestBranch: m.PullRequestBranch}
}

// Application is the Argo CD Application of a stage, in the delivery's Argo CD project: it syncs <path>/<stage>/
// of the manifests repository at the stage's own branch (what Kargo's promotions render) into the stage's
// namespace on the hub (hubDestination), automated with selfHeal and without prune (a Stack is deleted only on
// purpose). The annotation kargo.akuity.io/authorized-stage lets the stage's argocd-update step sync it. Argo CD's
// resources finalizer deletes the Stack object with the Application, so removing a stage stops PKO from running
// its stack (the stack's resources stay unless destroyOnFinalize).
func Application(a StackDeliveryArgs, s DeliveryStage) map[string]any {
	stage := s.Name
	return map[string]any{
		"apiVersion": gitopsbridge.ArgoAPIVersion,
		"kind":       "Application",
		"metadata": map[string]any{
			"name":        ApplicationName(a.Project, stage),
			"namespace":   a.ArgocdNamespace,
			"annotations": map[string]any{AuthorizedStageAnnotation: a.Project + ":" + stage},
			"finalizers":  []any{ResourcesFinalizer},
		},
		"spec": map[string]any{
			"project": AppProjectName(a.Project),
			"source": map[string]any{
				"repoURL":        a.Manifests.Target().RepoURL(),
				"targetRevision": StageBranch(a.Manifests, s.Name),
				"path":           StageDir(a.Manifests, s.Name),
			},
			"destination": hubDestination(a, s.Namespace).Object(),
			"syncPolicy":  map[string]any{"automated": map[string]any{"prune": false, "selfHeal": true}},
		},
	}
}
