package delivery

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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

// GitCredential is a Kargo git credential Secret (label kargo.akuity.io/cred-type: git) for one repository URL.
type GitCredential struct {
	Name, RepoURL string
}

// GitCredentials are the repositories Kargo needs kargo.gitToken for: the manifests repository it pushes
// promotions to ("git-manifests"), and the program repository its Warehouse reads ("git-program") when that is
// another one. Kargo matches a credential to a repository by its exact URL.
func GitCredentials(a StackDeliveryArgs) []GitCredential {
	out := []GitCredential{{Name: "git-manifests", RepoURL: a.Manifests.Target().RepoURL()}}
	if !sameRepo(a.Program.RepoUrl, a.Manifests.Target().RepoURL()) {
		out = append(out, GitCredential{Name: "git-program", RepoURL: a.Program.RepoUrl})
	}
	return out
}

// Project is the Kargo Project (cluster-scoped; Kargo creates its namespace of the same name).
func Project(a StackDeliveryArgs) map[string]any {
	return kargoObject("Project", map[string]any{"name": a.Project}, nil)
}

// ProjectConfig is the Project's configuration (named like the Project, in its namespace): one promotion policy
// per stage, with autoPromotionEnabled as stages[].autoPromotion says.
func ProjectConfig(a StackDeliveryArgs) map[string]any {
	var policies []any
	for _, s := range a.Stages {
		policies = append(policies, map[string]any{"stage": s.Name, "autoPromotionEnabled": *s.AutoPromotion})
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

// KargoStage is the Kargo Stage of l: it requests the Warehouse's Freight directly (the first stage) or from its
// upstream stage, and promotes it by writing the Freight's commit into the stage's Stack manifest.
func KargoStage(a StackDeliveryArgs, l link) map[string]any {
	sources := map[string]any{"direct": true}
	if l.upstream != "" {
		sources = map[string]any{"stages": []any{l.upstream}}
	}
	return kargoObject("Stage", map[string]any{"name": l.Name, "namespace": a.Project}, map[string]any{
		"requestedFreight": []any{map[string]any{
			"origin":  map[string]any{"kind": "Warehouse", "name": WarehouseName},
			"sources": sources,
		}},
		"promotionTemplate": map[string]any{"spec": map[string]any{
			"vars": []any{
				map[string]any{"name": programVar, "value": a.Program.RepoUrl},
				map[string]any{"name": manifestsVar, "value": a.Manifests.Target().RepoURL()},
			},
			"steps": PromotionSteps(a, l.DeliveryStage),
		}},
	})
}

// kargoObject is a Kargo object of kind with metadata, and spec unless nil (a Project has none).
func kargoObject(kind string, metadata, spec map[string]any) map[string]any {
	obj := map[string]any{"apiVersion": kargoAPIVersion, "kind": kind, "metadata": metadata}
	if spec != nil {
		obj["spec"] = spec
	}
	return obj
}

// PromotionSteps are a stage's promotion: git-clone of the manifests branch, yaml-update of spec.commit in the
// stage's stack.yaml to the Freight's commit, git-commit, then git-push to the branch, or with pullRequest
// git-push to a generated branch, git-open-pr and git-wait-for-pr; last argocd-update of the stage's
// Application to the commit that landed.
func PromotionSteps(a StackDeliveryArgs, s DeliveryStage) []any {
	commit := fmt.Sprintf("${{ commitFrom(vars.%s).ID }}", programVar)
	steps := []any{
		step("git-clone", "clone", map[string]any{
			"repoURL":  "${{ vars." + manifestsVar + " }}",
			"checkout": []any{map[string]any{"branch": a.Manifests.Branch, "path": "./out"}},
		}),
		step("yaml-update", "update", map[string]any{
			"path":    "./out/" + StackPath(a.Manifests, s.Name, false),
			"updates": []any{map[string]any{"key": "spec.commit", "value": commit}},
		}),
		step("git-commit", "commit", map[string]any{
			"path":    "./out",
			"message": fmt.Sprintf("Promote %s to %s", s.Name, commit),
		}),
	}
	landed := "${{ outputs.commit.commit }}"
	if s.PullRequest {
		steps = append(steps,
			step("git-push", "push", map[string]any{"path": "./out", "generateTargetBranch": true}),
			step("git-open-pr", "open-pr", map[string]any{
				"repoURL":      "${{ vars." + manifestsVar + " }}",
				"sourceBranch": "${{ outputs.push.branch }}",
				"targetBranch": a.Manifests.Branch,
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

// PromoterRules are the rules of a stage's approvers' Role: promote on that one Stage (Kargo's custom verb)
// and the writes of the Promotion a promotion creates (Kargo's access-control docs).
func PromoterRules(stage string) []PolicyRule {
	return []PolicyRule{
		{APIGroups: []string{"kargo.akuity.io"}, Resources: []string{"promotions"}, Verbs: []string{"create", "patch", "update"}},
		{APIGroups: []string{"kargo.akuity.io"}, Resources: []string{"stages"}, Verbs: []string{"promote"},
			ResourceNames: []string{stage}},
	}
}

// Claims is the rbac.kargo.akuity.io/claims annotation of the approvers' ServiceAccount: a JSON object of claim
// name -> values ("groups", "email", "sub"), keys sorted.
func Claims(ap Approvers) (string, error) {
	claims := map[string][]string{}
	for claim, values := range map[string][]string{"groups": ap.Groups, "email": ap.Emails, "sub": ap.Subjects} {
		if len(values) > 0 {
			claims[claim] = slices.Clone(values)
		}
	}
	b, err := json.Marshal(claims)
	return string(b), err
}
