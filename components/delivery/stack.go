package delivery

import (
	"maps"

	"sigs.k8s.io/yaml"
)

const (
	// StackAPIVersion and StackKind are PKO's Stack.
	StackAPIVersion = "pulumi.com/v1"
	StackKind       = "Stack"
)

// StackObject is the pulumi.com/v1 Stack of a stage (PKO v2's StackSpec), in the stage's namespace: the stage's
// pinned commit (or branch), the workspace's ServiceAccount, envRefs and the resync settings. With preview it is
// the stage's preview Stack instead: "<stackName>-preview", following the program branch with preview: true, as
// the stage's preview ServiceAccount.
func StackObject(a StackDeliveryArgs, s DeliveryStage, preview bool) map[string]any {
	spec := map[string]any{
		"stack":                       s.Stack,
		"projectRepo":                 a.Program.RepoUrl,
		"serviceAccountName":          s.ServiceAccountName,
		"refresh":                     *s.Refresh,
		"resyncFrequencySeconds":      s.ResyncFrequencySeconds,
		"continueResyncOnCommitMatch": *s.ContinueResyncOnCommitMatch,
		"destroyOnFinalize":           s.DestroyOnFinalize,
	}
	name := s.StackName
	switch {
	case preview:
		name += previewSuffix
		spec["branch"] = a.Program.Branch
		spec["preview"] = true
		spec["destroyOnFinalize"] = false
		spec["serviceAccountName"] = s.PreviewServiceAccountName
	case s.Commit != "":
		spec["commit"] = s.Commit
	default:
		spec["branch"] = s.Branch
	}
	if s.Kind == KindPreview { // a preview stage's Stack: pulumi preview of the promoted commit, never an update
		spec["preview"] = true
		spec["destroyOnFinalize"] = false
	}
	if a.Program.RepoDir != "" {
		spec["repoDir"] = a.Program.RepoDir
	}
	if a.Backend != "" {
		spec["backend"] = a.Backend
	}
	if len(s.Config) > 0 {
		spec["config"] = s.Config
	}
	if s.ProgramGitToken != nil {
		spec["gitAuth"] = map[string]any{"accessToken": map[string]any{
			"type": "Secret", "secret": map[string]any{"name": ProgramTokenSecret, "key": accessTokenKey},
		}}
	}
	if len(s.WorkspaceTemplate) > 0 {
		spec["workspaceTemplate"] = s.WorkspaceTemplate
	}
	if refs := envRefs(a, s, preview || s.Kind == KindPreview); len(refs) > 0 {
		spec["envRefs"] = refs
	}
	return map[string]any{
		"apiVersion": StackAPIVersion,
		"kind":       StackKind,
		"metadata":   map[string]any{"name": name, "namespace": s.Namespace},
		"spec":       spec,
	}
}

// envRefs are the Stack's spec.envRefs: PULUMI_ACCESS_TOKEN from the access token Secret when the stage has a
// pulumiAccessToken (its own or the top-level one), then the top-level envRefs, then the stage's. A preview Stack's
// (previewing) are PULUMI_ACCESS_TOKEN from the preview access token Secret when the stage has a
// previewAccessToken, the Literal envRefs, then the top-level previewEnvRefs, then the stage's: never the stage's
// token or its Secret envRefs.
func envRefs(a StackDeliveryArgs, s DeliveryStage, previewing bool) map[string]any {
	all := map[string]EnvRef{}
	if !previewing {
		if s.PulumiAccessToken != nil {
			all[accessTokenEnv] = EnvRef{Type: "Secret", Secret: &EnvSecret{Name: AccessTokenSecret, Key: accessTokenKey}}
		}
		maps.Copy(all, a.EnvRefs)
		maps.Copy(all, s.EnvRefs)
	} else {
		if s.PreviewAccessToken != nil {
			all[accessTokenEnv] = EnvRef{Type: "Secret", Secret: &EnvSecret{Name: PreviewAccessTokenSecret, Key: accessTokenKey}}
		}
		for _, refs := range []map[string]EnvRef{a.EnvRefs, s.EnvRefs} {
			for k, r := range refs {
				if r.Type == "Literal" {
					all[k] = r
				}
			}
		}
		maps.Copy(all, a.PreviewEnvRefs)
		maps.Copy(all, s.PreviewEnvRefs)
	}
	out := map[string]any{}
	for k, r := range all {
		ref := map[string]any{"type": r.Type}
		if r.Secret != nil {
			ref["secret"] = map[string]any{"name": r.Secret.Name, "key": r.Secret.Key}
		}
		if r.Literal != nil {
			ref["literal"] = map[string]any{"value": r.Literal.Value}
		}
		out[k] = ref
	}
	return out
}

// Manifest is an object as YAML with sorted keys: the text committed to the manifests repository.
func Manifest(object map[string]any) (string, error) {
	b, err := yaml.Marshal(object)
	return string(b), err
}

// StageBranch is a stage's own branch of the manifests repository: "<stageBranchPrefix><stage>".
func StageBranch(m ManifestsRepository, stage string) string { return m.StageBranchPrefix + stage }

// StageDir is the folder of a stage's Stacks, the same on the manifests branch (the templates) and on the stage's
// branch (rendered): <path>/<stage>.
func StageDir(m ManifestsRepository, stage string) string { return m.Path + "/" + stage }

// StackPath is the file of a stage's Stack in StageDir: stack.yaml, or preview-stack.yaml for its preview Stack.
// A promotion renders stack.yaml on the stage's branch with the promoted commit.
func StackPath(m ManifestsRepository, stage string, preview bool) string {
	if preview {
		return m.Path + "/" + stage + "/preview-stack.yaml"
	}
	return m.Path + "/" + stage + "/stack.yaml"
}
