package gitopsbridge

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// GitHubTarget is where Git delivery commits: a repository's branch, or with PullRequest a branch of its own
// (created from Branch) and one pull request into Branch. GitOpsBridge's git and StackDelivery's manifests
// are both one.
type GitHubTarget struct {
	Owner, Repository, Branch string
	PullRequest               bool
	PullRequestBranch         string
}

// RepoURL is the repository's https clone URL, as Argo CD and Kargo name it.
func (t GitHubTarget) RepoURL() string {
	return fmt.Sprintf("https://github.com/%s/%s.git", t.Owner, t.Repository)
}

// FileURL is the GitHub page of a committed file.
func (t GitHubTarget) FileURL(f *github.RepositoryFile) pulumi.StringOutput {
	return pulumi.Sprintf("https://github.com/%s/%s/blob/%s/%s", t.Owner, t.Repository, f.Branch, f.File)
}

// Validate reports an owner, repository or branches GitHub and Git would refuse, at field.owner,
// field.repository, field.branch and field.pullRequestBranch.
func (t GitHubTarget) Validate(ps *problems.List, field string) {
	if !githubOwnerPattern.MatchString(t.Owner) {
		ps.Add(field+".owner", "%q is not a GitHub user or organization name (1-39 letters, digits, single hyphens)",
			t.Owner)
	}
	if !githubRepoPattern.MatchString(t.Repository) || t.Repository == "." || t.Repository == ".." {
		ps.Add(field+".repository", "%q is not a GitHub repository name (1-100 of A-Z a-z 0-9 . _ -, without the owner)",
			t.Repository)
	}
	CheckBranch(ps, field+".branch", t.Branch)
	if t.PullRequest {
		CheckBranch(ps, field+".pullRequestBranch", t.PullRequestBranch)
		if t.PullRequestBranch == t.Branch {
			ps.Add(field+".pullRequestBranch", "%q is the base branch; a pull request needs a branch of its own", t.Branch)
		}
	} else if t.PullRequestBranch != "" {
		ps.Add(field+".pullRequestBranch", "is only used with pullRequest: true")
	}
}

// GitHubFile is one file of a commit: the name of its RepositoryFile resource, its path in the repository, its
// content and its commit message.
type GitHubFile struct {
	Name                   string
	Path, Content, Message pulumi.StringInput
}

// PullRequest is the title and body of the pull request a GitHubTarget with PullRequest opens.
type PullRequest struct {
	Title, Body pulumi.StringInput
}

// Commit writes files to t, each a RepositoryFile: to t.Branch, or with t.PullRequest to the branch
// t.PullRequestBranch (the Branch "<name>-branch", created first) and then one pull request "<name>-pull-request"
// into t.Branch, opened after every file. opts are the options of each resource (parent, github provider). It
// returns the files in order, and the pull request's number (0 without one).
func Commit(ctx *pulumi.Context, name string, t GitHubTarget, files []GitHubFile, pr PullRequest,
	opts ...pulumi.ResourceOption,
) ([]*github.RepositoryFile, pulumi.IntOutput, error) {
	branch := pulumi.String(t.Branch).ToStringOutput()
	var after []pulumi.Resource
	if t.PullRequest {
		br, err := github.NewBranch(ctx, name+"-branch", &github.BranchArgs{
			Repository:   pulumi.String(t.Repository),
			Branch:       pulumi.String(t.PullRequestBranch),
			SourceBranch: pulumi.String(t.Branch),
		}, opts...)
		if err != nil {
			return nil, pulumi.IntOutput{}, err
		}
		branch, after = br.Branch, []pulumi.Resource{br}
	}
	var out []*github.RepositoryFile
	var all []pulumi.Resource
	for _, f := range files {
		file, err := github.NewRepositoryFile(ctx, f.Name, &github.RepositoryFileArgs{
			Repository:        pulumi.String(t.Repository),
			Branch:            branch,
			File:              f.Path,
			Content:           f.Content,
			CommitMessage:     f.Message,
			OverwriteOnCreate: pulumi.Bool(true),
		}, append(opts, pulumi.DependsOn(after))...)
		if err != nil {
			return nil, pulumi.IntOutput{}, err
		}
		out, all = append(out, file), append(all, file)
	}
	if !t.PullRequest {
		return out, pulumi.Int(0).ToIntOutput(), nil
	}
	opened, err := github.NewRepositoryPullRequest(ctx, name+"-pull-request", &github.RepositoryPullRequestArgs{
		Owner:          pulumi.String(t.Owner),
		BaseRepository: pulumi.String(t.Repository),
		BaseRef:        pulumi.String(t.Branch),
		HeadRef:        branch,
		Title:          pr.Title,
		Body:           pr.Body,
	}, append(opts, pulumi.DependsOn(all))...)
	if err != nil {
		return nil, pulumi.IntOutput{}, err
	}
	return out, opened.Number, nil
}
