package gitserver

import (
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Handler serves the repositories under root over Git's smart HTTP protocol, read-only: a request for
// https://<host>/<owner>/<repo>[.git]/... is answered from the bare repository root/<host>/<owner>/<repo>.git.
// Pushes are refused (http.receivepack is off unless a repository turns it on): repositories change only through
// Publish, as a merged commit would.
func Handler(root string) (http.Handler, error) {
	backend, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("git http-backend: %w", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		owner, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		repo, tail, _ := strings.Cut(rest, "/")
		repo = strings.TrimSuffix(repo, ".git")
		if owner == "" || repo == "" || strings.Contains(owner+repo, "..") {
			http.NotFound(w, r)
			return
		}
		if _, err := os.Stat(filepath.Join(root, host, owner, repo+".git")); err != nil {
			http.Error(w, "Repository not found.", http.StatusNotFound)
			return
		}
		h := &cgi.Handler{
			Path: backend,
			Args: []string{"http-backend"},
			Dir:  root,
			Env: []string{
				"GIT_PROJECT_ROOT=" + filepath.Join(root, host),
				"GIT_HTTP_EXPORT_ALL=1",
				"PATH_INFO=/" + owner + "/" + repo + ".git/" + tail,
			},
		}
		h.ServeHTTP(w, r)
	}), nil
}

// Dir is the bare repository of repoURL (https://<host>[:port]/<owner>/<repo>[.git]) under root: the port is not
// part of it, as Handler serves a host on any port.
func Dir(root, repoURL string) (string, error) {
	u, err := url.Parse(repoURL)
	if err != nil {
		return "", err
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Hostname() == "" || len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return "", fmt.Errorf("%q is not a repository URL https://<host>/<owner>/<repo>", repoURL)
	}
	return filepath.Join(root, u.Hostname(), parts[0], strings.TrimSuffix(parts[1], ".git")+".git"), nil
}

// Publish commits the files of folder src as the whole content of branch main of the repository at repoURL under
// root (created on first use), as one commit with message, and returns the commit's SHA. Each call replaces the
// branch's tree with src's, on top of the previous commit: what a merged pull request leaves. src's tree as the branch
// holds it already is no new commit: the SHA is the branch's head.
func Publish(root, repoURL, src, message string) (string, error) {
	return PublishBranch(root, repoURL, "main", src, message)
}

// Branch creates branch to of the repository at repoURL under root at the head of branch from, as GitHub's
// "create a branch" does, and returns that commit's SHA. It fails when to exists or from does not.
func Branch(root, repoURL, from, to string) (string, error) {
	bare, err := Dir(root, repoURL)
	if err != nil {
		return "", err
	}
	out, err := exec.Command("git", "--git-dir="+bare, "rev-parse", "--verify", "refs/heads/"+from).Output()
	if err != nil {
		return "", fmt.Errorf("branch %s of %s: %w", from, repoURL, err)
	}
	sha := strings.TrimSpace(string(out))
	// update-ref with an all-zero old value creates the ref only if it does not exist.
	if err := run("", "--git-dir="+bare, "update-ref", "refs/heads/"+to, sha, strings.Repeat("0", 40)); err != nil {
		return "", err
	}
	return sha, nil
}

// PublishBranch is Publish to branch (created on first use, its first commit a root).
func PublishBranch(root, repoURL, branch, src, message string) (string, error) {
	bare, err := Dir(root, repoURL)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(bare); err != nil {
		if err := run("", "init", "--quiet", "--bare", "--initial-branch=main", bare); err != nil {
			return "", err
		}
	}
	work, err := os.MkdirTemp("", "gitserver-publish-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	gitDir := filepath.Join(work, ".git")
	git := func(args ...string) error {
		return run(src, append([]string{"--git-dir=" + gitDir, "--work-tree=" + src}, args...)...)
	}
	if err := run("", "clone", "--quiet", "--bare", bare, gitDir); err != nil {
		return "", err
	}
	if err := run("", "--git-dir="+gitDir, "config", "core.bare", "false"); err != nil {
		return "", err
	}
	for _, s := range [][]string{{"symbolic-ref", "HEAD", "refs/heads/" + branch}, {"add", "--all", "--force", "."}} {
		if err := git(s...); err != nil {
			return "", err
		}
	}
	// The same tree as the branch's head is no new commit: publishing what is there already changes nothing.
	if git("rev-parse", "--verify", "--quiet", "HEAD") != nil || git("diff", "--cached", "--quiet", "HEAD") != nil {
		for _, s := range [][]string{
			// --allow-empty: a branch's first commit may hold nothing (a registry no cluster is merged into yet).
			{"-c", "user.name=Fleet Tests", "-c", "user.email=tests@fleet.invalid", "commit", "--quiet", "--allow-empty", "-m", message},
			{"push", "--quiet", bare, "HEAD:refs/heads/" + branch},
		} {
			if err := git(s...); err != nil {
				return "", err
			}
		}
	}
	out, err := exec.Command("git", "--git-dir="+gitDir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func run(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
