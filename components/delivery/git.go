package delivery

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// deliver writes every stage's Stack manifest (and preview Stack manifest) to the manifests repository: to its
// branch, or with pullRequest to a new branch with one pull request into it. It returns the files by stage.
func (b *builder) deliver() (map[string][]pulumi.Resource, error) {
	a, m, c := b.args, b.args.Manifests, b.comp
	gh, err := b.githubProvider()
	if err != nil {
		return nil, err
	}
	branch := pulumi.String(m.Branch).ToStringOutput()
	var after []pulumi.Resource
	if m.PullRequest {
		br, err := github.NewBranch(b.ctx, childName(b.name, "branch"), &github.BranchArgs{
			Repository:   pulumi.String(m.Repository),
			Branch:       pulumi.String(m.PullRequestBranch),
			SourceBranch: pulumi.String(m.Branch),
		}, b.child(gh)...)
		if err != nil {
			return nil, err
		}
		branch, after = br.Branch, []pulumi.Resource{br}
	}
	out := map[string][]pulumi.Resource{}
	manifests, urls := pulumi.StringMap{}, pulumi.StringMap{}
	var all []pulumi.Resource
	for _, l := range b.links {
		for _, preview := range []bool{false, true} {
			if preview && !l.Preview {
				continue
			}
			text, err := Manifest(StackObject(a, l.DeliveryStage, preview))
			if err != nil {
				return nil, err
			}
			file := StackPath(m, l.Name, preview)
			part := l.Name + "-stack"
			if preview {
				part = l.Name + "-preview-stack"
			}
			f, err := github.NewRepositoryFile(b.ctx, childName(b.name, part), &github.RepositoryFileArgs{
				Repository:        pulumi.String(m.Repository),
				Branch:            branch,
				File:              pulumi.String(file),
				Content:           pulumi.String(text),
				CommitMessage:     pulumi.String(fmt.Sprintf("Deliver stack %s of stage %s", l.Stack, l.Name)),
				OverwriteOnCreate: pulumi.Bool(true),
			}, b.child(gh, after...)...)
			if err != nil {
				return nil, err
			}
			manifests[file] = pulumi.String(text)
			if !preview {
				urls[l.Name] = pulumi.Sprintf("https://github.com/%s/%s/blob/%s/%s", m.Owner, m.Repository, f.Branch, f.File)
			}
			out[l.Name] = append(out[l.Name], f)
			all = append(all, f)
		}
	}
	c.Manifests, c.ManifestUrls = manifests.ToStringMapOutput(), urls.ToStringMapOutput()
	c.PullRequestNumber = pulumi.Int(0).ToIntOutput()
	if !m.PullRequest {
		return out, nil
	}
	pr, err := github.NewRepositoryPullRequest(b.ctx, childName(b.name, "pull-request"), &github.RepositoryPullRequestArgs{
		Owner:          pulumi.String(m.Owner),
		BaseRepository: pulumi.String(m.Repository),
		BaseRef:        pulumi.String(m.Branch),
		HeadRef:        branch,
		Title:          pulumi.String(fmt.Sprintf("Deliver the %s stacks by GitOps", a.Project)),
		Body: pulumi.String(fmt.Sprintf("Adds the Pulumi Kubernetes Operator Stacks of Kargo project %s, one folder "+
			"per stage under %s/.\n\nOpened by %s.", a.Project, m.Path, TypeToken)),
	}, b.child(gh, all...)...)
	if err != nil {
		return nil, err
	}
	c.PullRequestNumber = pr.Number
	return out, nil
}

// githubProvider is the explicit github provider, or one for manifests.owner.
func (b *builder) githubProvider() (pulumi.ProviderResource, error) {
	if b.explicit.GitHub != nil {
		return b.explicit.GitHub, nil
	}
	return gitopsbridge.NewGitHubProvider(b.ctx, childName(b.name, "github"), b.args.Manifests.Owner, pulumi.Parent(b.comp))
}
