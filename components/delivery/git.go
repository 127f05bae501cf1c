package delivery

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// deliver writes every stage's Stack manifest (and preview Stack manifest) to the manifests repository: to its
// branch, or with pullRequest to a new branch with one pull request into it; then protects the branch when
// manifests.branchProtection says so. It returns the files by stage.
func (b *builder) deliver() (map[string][]pulumi.Resource, error) {
	a, m, c := b.args, b.args.Manifests, b.comp
	gh, err := b.githubProvider()
	if err != nil {
		return nil, err
	}
	var files []gitopsbridge.GitHubFile
	var stages []string
	manifests := pulumi.StringMap{}
	for _, l := range b.links {
		if !l.deploys() {
			continue
		}
		type object struct {
			part, file string
			stack      DeliveryStage
			preview    bool
		}
		var objects []object
		for _, mb := range l.members() {
			part := l.Name + "-stack"
			if mb.name != "" {
				part += "-" + mb.name
			}
			objects = append(objects, object{part, memberPath(m, l.Name, mb), mb.stage, false})
		}
		if l.Preview {
			objects = append(objects, object{l.Name + "-preview-stack", StackPath(m, l.Name, true), l.DeliveryStage, true})
		}
		for _, o := range objects {
			text, err := Manifest(StackObject(a, o.stack, o.preview))
			if err != nil {
				return nil, err
			}
			files = append(files, gitopsbridge.GitHubFile{Name: childName(b.name, o.part), Path: pulumi.String(o.file),
				Content: pulumi.String(text), Message: pulumi.String(fmt.Sprintf("Deliver stack %s of stage %s", o.stack.Stack, l.Name))})
			stages = append(stages, l.Name)
			manifests[o.file] = pulumi.String(text)
		}
	}
	t := m.Target()
	committed, number, err := gitopsbridge.Commit(b.ctx, b.name, t, files, gitopsbridge.PullRequest{
		Title: pulumi.String(fmt.Sprintf("Deliver the %s stacks by GitOps", a.Project)),
		Body: pulumi.String(fmt.Sprintf("Adds the Pulumi Kubernetes Operator Stacks of Kargo project %s, one folder "+
			"per stage under %s/.\n\nOpened by %s.", a.Project, m.Path, TypeToken)),
	}, b.child(gh)...)
	if err != nil {
		return nil, err
	}
	out, urls := map[string][]pulumi.Resource{}, pulumi.StringMap{}
	for i, f := range committed {
		if len(out[stages[i]]) == 0 {
			urls[stages[i]] = t.FileURL(f) // the stage's stack.yaml comes first
		}
		out[stages[i]] = append(out[stages[i]], f)
	}
	c.Manifests, c.ManifestUrls, c.PullRequestNumber = manifests.ToStringMapOutput(), urls.ToStringMapOutput(), number
	if m.BranchProtection != nil {
		if _, err := m.BranchProtection.Protect(b.ctx, childName(b.name, "branch-protection"), m.Repository, m.Branch,
			b.child(gh)...); err != nil {
			return nil, err
		}
	}
	written := make([]pulumi.Resource, len(committed))
	for i, f := range committed {
		written[i] = f
	}
	for _, l := range b.links {
		if !l.deploys() {
			continue
		}
		branches, err := b.stageBranch(gh, l.Name, written)
		if err != nil {
			return nil, err
		}
		out[l.Name] = append(out[l.Name], branches...)
	}
	return out, nil
}

// stageBranch creates a stage's own branch from the manifests branch once the templates are committed, so that
// without manifests.pullRequest it starts with the stage's template; with it, the templates land only when the
// pull request is merged, and the stage runs nothing before its first promotion. Pulumi creates the branch and
// nothing else: Kargo's promotions move it, which a refresh reads as the branch's new head, not as a change.
// With manifests.branchProtection the stage's branch is protected too, so that Kargo's token cannot push a
// promotion past its pull request.
func (b *builder) stageBranch(gh pulumi.ProviderResource, stage string, committed []pulumi.Resource) ([]pulumi.Resource, error) {
	m := b.args.Manifests
	branch, err := github.NewBranch(b.ctx, childName(b.name, stage+"-branch"), &github.BranchArgs{
		Repository:   pulumi.String(m.Repository),
		Branch:       pulumi.String(StageBranch(m, stage)),
		SourceBranch: pulumi.String(m.Branch),
	}, b.child(gh, committed...)...)
	if err != nil {
		return nil, err
	}
	out := []pulumi.Resource{branch}
	if m.BranchProtection != nil {
		p, err := m.BranchProtection.Protect(b.ctx, childName(b.name, stage+"-branch-protection"), m.Repository,
			StageBranch(m, stage), b.child(gh, branch)...)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// githubProvider is the explicit github provider, or one for manifests.owner.
func (b *builder) githubProvider() (pulumi.ProviderResource, error) {
	if b.explicit.GitHub != nil {
		return b.explicit.GitHub, nil
	}
	return gitopsbridge.NewGitHubProvider(b.ctx, childName(b.name, "github"), b.args.Manifests.Owner, pulumi.Parent(b.comp))
}
