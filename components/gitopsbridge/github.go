package gitopsbridge

import (
	"fmt"

	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// deliver commits the manifest to GitHub: straight to git.branch, or with git.pullRequest on a new branch
// with a pull request into git.branch.
func (b *builder) deliver(manifest pulumi.StringOutput) error {
	g, f := *b.args.Git, b.cluster
	gh, err := b.githubProvider()
	if err != nil {
		return err
	}
	path := pulumi.String(g.Path).ToStringOutput()
	if g.Path == "" {
		path = pulumi.Sprintf("clusters/%s/%s.yaml", f.Environment, f.ClusterName)
	}
	message := pulumi.String(g.CommitMessage).ToStringOutput()
	if g.CommitMessage == "" {
		message = pulumi.Sprintf("Register cluster %s (%s)", f.ClusterName, f.Environment)
	}
	t := g.Target()
	files, number, err := Commit(b.ctx, b.name, t,
		[]GitHubFile{{Name: childName(b.name, "manifest"), Path: path, Content: manifest, Message: message}},
		PullRequest{Title: message, Body: pulumi.Sprintf("Adds the Argo CD cluster secret of %s to %s.\n\nOpened by %s.",
			f.ClusterName, fmt.Sprintf("%s/%s", g.Owner, g.Repository), TypeToken)},
		b.child(gh)...)
	if err != nil {
		return err
	}
	b.comp.GitFileUrl, b.comp.PullRequestNumber = t.FileURL(files[0]), number
	if g.BranchProtection != nil && b.args.Hub != nil {
		// The registry branch is the fleet's: the hub's GitOpsBridge protects it once for every cluster.
		_, err = g.BranchProtection.Protect(b.ctx, childName(b.name, "branch-protection"), g.Repository, g.Branch, b.child(gh)...)
	}
	return err
}

// Target is where the delivery commits.
func (g GitDelivery) Target() GitHubTarget {
	return GitHubTarget{Owner: g.Owner, Repository: g.Repository, Branch: g.Branch, PullRequest: g.PullRequest,
		PullRequestBranch: g.PullRequestBranch}
}

// githubProvider is the explicit github provider, or one for git.owner (NewGitHubProvider).
func (b *builder) githubProvider() (pulumi.ProviderResource, error) {
	if b.explicit.GitHub != nil {
		return b.explicit.GitHub, nil
	}
	return NewGitHubProvider(b.ctx, childName(b.name, "github"), b.args.Git.Owner, pulumi.Parent(b.comp))
}

// NewGitHubProvider is the github provider Git delivery commits through: for owner, with the stack's
// github:token (kept secret) as its token, or else GITHUB_TOKEN. Fleet shares one among its clusters.
func NewGitHubProvider(ctx *pulumi.Context, name, owner string, opts ...pulumi.ResourceOption) (*github.Provider, error) {
	args := &github.ProviderArgs{Owner: pulumi.String(owner)}
	if token := config.Get(ctx, "github:token"); token != "" {
		args.Token = pulumi.ToSecret(pulumi.String(token)).(pulumi.StringOutput)
	}
	return github.NewProvider(ctx, name, args, opts...)
}
