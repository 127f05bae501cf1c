package offline

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/gitops-fleet/pulumi-fleet/tests/gitserver"
)

// GitHost is the Git host an Env with control planes serves (tests/gitserver), from the bare repositories under
// GitRoot: what Argo CD's repo server clones when Argo CD runs on the hub. Nothing else answers for it, so a
// repository the test did not publish (Env.PublishGit) is not found.
const GitHost = "github.com"

// GitRoot is where an Env in dir keeps the repositories it serves at GitHost.
func GitRoot(dir string) string { return filepath.Join(dir, "git") }

// gitHost hands the requests for GitHost to git and every other request to next.
func gitHost(git, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == GitHost {
			git.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// PublishGit commits the folder src (relative to the repository root, or absolute) as the content of branch main of
// repoURL (https://github.com/<owner>/<repo>), which the Env's network then serves, and returns the commit's SHA.
func (e *Env) PublishGit(repoURL, src, message string) (string, error) {
	if !filepath.IsAbs(src) {
		src = filepath.Join(e.Root, src)
	}
	return gitserver.Publish(GitRoot(e.Dir), repoURL, src, message)
}

// PublishGitHub serves, at GitHost, branch of the repository owner/repo as the emulated GitHub holds it: the files
// Pulumi committed there (github:index/repositoryFile:RepositoryFile) become the whole content of that branch of
// https://github.com/<owner>/<repo>, as one commit, whose SHA it returns. It is what GitHub does by itself, which
// the emulator does not: a test calls it after each up whose commits Argo CD should read (a pull request's branch
// published this way is the pull request merged). With commit, it is someone else's commit on top of that: its files
// (path -> content) are written over Pulumi's, an empty content deleting the file.
func (e *Env) PublishGitHub(owner, repo, branch, message string, commit map[string]string) (string, error) {
	files, err := e.GitHubFiles(owner, repo, branch)
	if err != nil {
		return "", err
	}
	for file, content := range commit {
		if content == "" {
			delete(files, file)
		} else {
			files[file] = content
		}
	}
	src, err := os.MkdirTemp("", "github-"+repo+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	for file, content := range files {
		if !filepath.IsLocal(file) {
			return "", fmt.Errorf("%q is not a path in the repository", file)
		}
		if err := os.MkdirAll(filepath.Join(src, filepath.Dir(file)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(src, file), []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	return gitserver.PublishBranch(GitRoot(e.Dir), "https://"+GitHost+"/"+owner+"/"+repo, branch, src, message)
}

// GitHubFiles are the files Pulumi committed to branch of the repository owner/repo of the emulated GitHub
// (github:index/repositoryFile:RepositoryFile), path -> content.
func (e *Env) GitHubFiles(owner, repo, branch string) (map[string]string, error) {
	records, err := e.Store.List()
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, r := range records {
		if r.Type != "github:index/repositoryFile:RepositoryFile" || r.Scope != owner {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			return nil, err
		}
		if file, _ := state["file"].(string); state["repository"] == repo && state["branch"] == branch {
			files[file], _ = state["content"].(string)
		}
	}
	return files, nil
}

// BranchGitHub creates branch to at the head of branch from in the repository owner/repo that GitHost serves, as the
// emulated GitHub's github:index/branch:Branch says GitHub did, and returns its commit's SHA.
func (e *Env) BranchGitHub(owner, repo, from, to string) (string, error) {
	return gitserver.Branch(GitRoot(e.Dir), "https://"+GitHost+"/"+owner+"/"+repo, from, to)
}

// The repositories the offline runs serve for Argo CD (PublishGit): `make demo`'s dev fleet, the e2e tests and the
// benchmarks' fleets on real servers.
const (
	// AddonsRepo is where the offline add-ons repository (AddonsFixture) is served: the layout of the GitOps
	// Bridge control-plane template with small local charts, since the template's commit and its charts' registries
	// are not reachable offline.
	AddonsRepo    = "https://" + GitHost + "/gitops-fleet/offline-addons"
	AddonsFixture = "tests/fixtures/addons-repo"
	// PaymentsRepo is the dev fleet's payments workloads repository, served from PaymentsFixture.
	PaymentsRepo    = "https://" + GitHost + "/acme/payments-deploy"
	PaymentsFixture = "tests/fixtures/payments-deploy"
)
