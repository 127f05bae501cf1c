package delivery

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const (
	// kargoAPIVersion is the API version of Kargo's Project, ProjectConfig, Warehouse and Stage.
	kargoAPIVersion = "kargo.akuity.io/v1alpha1"
	// WarehouseName is the project's Warehouse on the program repository.
	WarehouseName = "program"
	// ClaimsAnnotation maps OIDC claims to a ServiceAccount in a Kargo project.
	ClaimsAnnotation = "rbac.kargo.akuity.io/claims"
	// CredentialTypeLabel marks a Secret as a Kargo credential of a kind ("git").
	CredentialTypeLabel = "kargo.akuity.io/cred-type"
	// programVar and manifestsVar are the promotion template's variables of the two repositories.
	programVar   = "programRepo"
	manifestsVar = "manifestsRepo"
)

// gitUsername is the user name of Kargo's git credentials: GitHub takes any with a token as the password.
const gitUsername = "kargo"

// GitCredential is a Kargo git credential Secret (label kargo.akuity.io/cred-type: git) for one repository URL,
// with the token it holds.
type GitCredential struct {
	Name, RepoURL string
	Token         pulumi.StringInput
}

// GitCredentials are Kargo's git credentials, one per repository and purpose, so that no token does more than
// its path needs: "git-manifests" (kargo.gitToken, which may push) for the manifests repository promotions write,
// and "git-program" (kargo.programGitToken, read-only) for a program repository of its own that the Warehouse
// reads. Kargo matches a credential to a repository by its exact URL. A credential whose token is not given is
// left out.
func GitCredentials(a StackDeliveryArgs) []GitCredential {
	var out []GitCredential
	if a.Kargo.GitToken != nil {
		out = append(out, GitCredential{Name: "git-manifests", RepoURL: a.Manifests.Target().RepoURL(), Token: a.Kargo.GitToken})
	}
	if a.Kargo.ProgramGitToken != nil && !sameRepo(a.Program.RepoUrl, a.Manifests.Target().RepoURL()) {
		out = append(out, GitCredential{Name: "git-program", RepoURL: a.Program.RepoUrl, Token: a.Kargo.ProgramGitToken})
	}
	return out
}

// Project is the Kargo Project (cluster-scoped; Kargo creates its namespace of the same name).
func Project(a StackDeliveryArgs) map[string]any {
	return kargoObject("Project", map[string]any{"name": a.Project}, nil)
}

// ProjectConfig is the Project's configuration (named like the Project, in its namespace): one promotion policy
// per stage, selected by its exact name (stageSelector; Kargo 1.11 deprecates stage), with autoPromotionEnabled
// as stages[].autoPromotion says.
func ProjectConfig(a StackDeliveryArgs) map[string]any {
	var policies []any
	for _, s := range a.Stages {
		policies = append(policies, map[string]any{"stageSelector": map[string]any{"name": s.Name},
			"autoPromotionEnabled": *s.AutoPromotion})
	}
	return kargoObject("ProjectConfig", map[string]any{"name": a.Project, "namespace": a.Project},
		map[string]any{"promotionPolicies": policies})
}

// Warehouse watches the program repository's branch for new commits under includePaths, newest first. When
// the manifests live in the same repository, their path is excluded: a promotion's own commit makes no Freight.
func Warehouse(a StackDeliveryArgs) map[string]any {
	git := map[string]any{
		"repoURL":                 a.Program.RepoUrl,
		"branch":                  a.Program.Branch,
		"commitSelectionStrategy": "NewestFromBranch",
		"discoveryLimit":          20,
	}
	if len(a.Program.IncludePaths) > 0 {
		git["includePaths"] = a.Program.IncludePaths
	}
	if sameRepo(a.Program.RepoUrl, a.Manifests.Target().RepoURL()) {
		git["excludePaths"] = []string{a.Manifests.Path}
	}
	return kargoObject("Warehouse", map[string]any{"name": WarehouseName, "namespace": a.Project}, map[string]any{
		"interval":              a.Program.Interval,
		"freightCreationPolicy": "Automatic",
		"subscriptions":         []any{map[string]any{"git": git}},
	})
}

// sameRepo compares two https Git URLs without a trailing slash or .git, case-insensitively (GitHub's names are).
func sameRepo(x, y string) bool {
	norm := func(u string) string {
		return strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git"))
	}
	return norm(x) == norm(y)
}

// KargoStage is the Kargo Stage of l: it requests the Warehouse's Freight directly and/or from its upstream
// stages (with availabilityStrategy when given), and an update stage promotes it by rendering the stage's branch
// (PromotionSteps). A gate has no promotion template: promoting into it is the approval, and its Freight is
// then available to the stages after it.
func KargoStage(a StackDeliveryArgs, l link) map[string]any {
	sources := map[string]any{}
	if l.direct {
		sources["direct"] = true
	}
	if len(l.upstreams) > 0 {
		ups := make([]any, len(l.upstreams))
		for i, u := range l.upstreams {
			ups[i] = u
		}
		sources["stages"] = ups
	}
	if l.AvailabilityStrategy != "" {
		sources["availabilityStrategy"] = l.AvailabilityStrategy
	}
	spec := map[string]any{
		"requestedFreight": []any{map[string]any{
			"origin":  map[string]any{"kind": "Warehouse", "name": WarehouseName},
			"sources": sources,
		}},
	}
	if l.deploys() && l.Verification != nil {
		spec["verification"] = StageVerification(a, l.DeliveryStage)
	}
	if l.deploys() {
		spec["promotionTemplate"] = map[string]any{"spec": map[string]any{
			"vars": []any{
				map[string]any{"name": programVar, "value": a.Program.RepoUrl},
				map[string]any{"name": manifestsVar, "value": a.Manifests.Target().RepoURL()},
			},
			"steps": PromotionSteps(a, l.DeliveryStage),
		}}
	}
	return kargoObject("Stage", map[string]any{"name": l.Name, "namespace": a.Project}, spec)
}

// kargoObject is a Kargo object of kind with metadata, and spec unless nil (a Project has none).
func kargoObject(kind string, metadata, spec map[string]any) map[string]any {
	obj := map[string]any{"apiVersion": kargoAPIVersion, "kind": kind, "metadata": metadata}
	if spec != nil {
		obj["spec"] = spec
	}
	return obj
}

// PromotionSteps are a stage's promotion, which renders the stage's branch from its template: git-clone of the
// manifests branch (./src, the templates Pulumi writes) and of the stage's branch (./out); git-clear of ./out;
// copy of the stage's folder from ./src into ./out; yaml-update of spec.commit to the Freight's commit and of
// spec.branch to "" in the stage's stack.yaml, or in each stack-<name>.yaml of a stage with stacks (PKO refuses a
// Stack with both); git-commit; then git-push to
// the stage's branch, or with pullRequest git-push to a generated branch, git-open-pr into the stage's branch
// and git-wait-for-pr; last argocd-update of the stage's Application to the commit that landed. Only the stage's
// branch is written: a promotion leaves Pulumi's templates, and the other stages' branches, as they are.
func PromotionSteps(a StackDeliveryArgs, s DeliveryStage) []any {
	commit := fmt.Sprintf("${{ commitFrom(vars.%s).ID }}", programVar)
	m, branch, dir := a.Manifests, StageBranch(a.Manifests, s.Name), StageDir(a.Manifests, s.Name)
	steps := []any{
		step("git-clone", "clone", map[string]any{
			"repoURL": "${{ vars." + manifestsVar + " }}",
			"checkout": []any{
				map[string]any{"branch": m.Branch, "path": "./src"},
				map[string]any{"branch": branch, "create": true, "path": "./out"},
			},
		}),
		step("git-clear", "clear", map[string]any{"path": "./out"}),
		step("copy", "render", map[string]any{"inPath": "./src/" + dir + "/", "outPath": "./out/" + dir + "/"}),
	}
	for _, mb := range s.members() {
		as := "update"
		if mb.name != "" {
			as += "-" + mb.name
		}
		steps = append(steps, step("yaml-update", as, map[string]any{
			"path": "./out/" + memberPath(m, s.Name, mb),
			"updates": []any{
				map[string]any{"key": "spec.commit", "value": commit},
				map[string]any{"key": "spec.branch", "value": ""},
			},
		}))
	}
	steps = append(steps, step("git-commit", "commit", map[string]any{
		"path":    "./out",
		"message": fmt.Sprintf("Promote %s to %s", s.Name, commit),
	}))
	landed := "${{ outputs.commit.commit }}"
	if s.PullRequest {
		steps = append(steps,
			step("git-push", "push", map[string]any{"path": "./out", "generateTargetBranch": true}),
			step("git-open-pr", "open-pr", map[string]any{
				"repoURL":      "${{ vars." + manifestsVar + " }}",
				"sourceBranch": "${{ outputs.push.branch }}",
				"targetBranch": branch,
				"title":        fmt.Sprintf("Promote %s to %s", s.Name, commit),
			}),
			step("git-wait-for-pr", "wait-for-pr", map[string]any{
				"repoURL":  "${{ vars." + manifestsVar + " }}",
				"prNumber": "${{ outputs['open-pr'].pr.id }}",
			}))
		landed = "${{ outputs['wait-for-pr'].commit }}"
	} else {
		steps = append(steps, step("git-push", "push", map[string]any{"path": "./out"}))
	}
	return append(steps, step("argocd-update", "sync", map[string]any{
		"apps": []any{map[string]any{
			"name":      ApplicationName(a.Project, s.Name),
			"namespace": a.ArgocdNamespace,
			"sources": []any{map[string]any{
				"repoURL":         "${{ vars." + manifestsVar + " }}",
				"desiredRevision": landed,
			}},
		}},
	}))
}

func step(uses, as string, config map[string]any) map[string]any {
	return map[string]any{"uses": uses, "as": as, "config": config}
}

// PromoterName is the Role, RoleBinding and ServiceAccount of a stage's approvers: "<stage>-promoter".
func PromoterName(stage string) string { return stage + "-promoter" }

// PolicyRule is one rule of an RBAC Role.
type PolicyRule struct {
	APIGroups, Resources, Verbs, ResourceNames []string
}

// PromoterRules are the rules of a stage's approvers' Role. Kargo v1.11.2's API server promotes as the caller:
// it gets the Stage and the Freight (pkg/server/promote_to_stage_v1alpha1.go), checks promote on the Stage
// (Kargo's custom verb, also checked by its Promotion webhook) and creates the Promotion. So: get, list and
// watch on Stages, Freight and Promotions; promote on that one Stage; create on Promotions.
func PromoterRules(stage string) []PolicyRule {
	return []PolicyRule{
		{APIGroups: []string{"kargo.akuity.io"}, Resources: []string{"freights", "promotions", "stages"},
			Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{"kargo.akuity.io"}, Resources: []string{"promotions"}, Verbs: []string{"create"}},
		{APIGroups: []string{"kargo.akuity.io"}, Resources: []string{"stages"}, Verbs: []string{"promote"},
			ResourceNames: []string{stage}},
	}
}

// Claims is the rbac.kargo.akuity.io/claims annotation of the approvers' ServiceAccount: a JSON object of claim
// name -> values ("groups", "email", "sub"), keys sorted.
func Claims(ap Approvers) (string, error) {
	b, err := json.Marshal(claimsOf(ap))
	return string(b), err
}

// claimsOf are the approvers as OIDC claim name -> values ("groups", "email", "sub"), the given ones only.
func claimsOf(ap Approvers) map[string]any {
	claims := map[string]any{}
	for claim, values := range map[string][]string{"groups": ap.Groups, "email": ap.Emails, "sub": ap.Subjects} {
		if len(values) > 0 {
			list := make([]any, len(values))
			for i, v := range values {
				list[i] = v
			}
			claims[claim] = list
		}
	}
	return claims
}
