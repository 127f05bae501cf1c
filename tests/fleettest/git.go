package fleettest

import (
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// Git is the run's Git: the repositories the network serves (github.com's hosts, answered offline) and the emulated
// GitHub's repositories, whose files Pulumi commits.
type Git struct{ env *Env }

// Git is the run's Git.
func (e *Env) Git() *Git { return &Git{e} }

// Publish commits the folder src (relative to the repository root, or absolute) as the content of branch main of
// repoURL (https://github.com/<owner>/<repo>) and returns the commit's SHA.
func (g *Git) Publish(repoURL, src, message string) string {
	sha, err := g.env.run.off.PublishGit(repoURL, src, message)
	if err != nil {
		g.env.t.Fatal(err)
	}
	return sha
}

// AddonsRepository publishes the offline add-ons repository (tests/fixtures/addons-repo, laid out as the GitOps Bridge
// control-plane template) and returns its URL and commit, for the stack's gitops-fleet:repositories.addons.
func (g *Git) AddonsRepository() (url, revision string) {
	return offline.AddonsRepo, g.Publish(offline.AddonsRepo, offline.AddonsFixture, "the offline add-ons repository")
}

// PublishGitHub serves branch of owner/repo as the emulated GitHub holds it, with commit's files (path -> content, an
// empty content deleting the file) written over Pulumi's, and returns the commit's SHA (offline.Env.PublishGitHub).
func (g *Git) PublishGitHub(owner, repo, branch, message string, commit map[string]string) string {
	sha, err := g.env.run.off.PublishGitHub(owner, repo, branch, message, commit)
	if err != nil {
		g.env.t.Fatal(err)
	}
	return sha
}

// GitHubFiles are the files Pulumi committed to branch of owner/repo in the emulated GitHub, path -> content.
func (g *Git) GitHubFiles(owner, repo, branch string) map[string]string {
	files, err := g.env.run.off.GitHubFiles(owner, repo, branch)
	if err != nil {
		g.env.t.Fatal(err)
	}
	return files
}

// BranchGitHub creates branch to at the head of from in owner/repo and returns its commit's SHA.
func (g *Git) BranchGitHub(owner, repo, from, to string) string {
	sha, err := g.env.run.off.BranchGitHub(owner, repo, from, to)
	if err != nil {
		g.env.t.Fatal(err)
	}
	return sha
}
