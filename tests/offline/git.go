package offline

import (
	"net"
	"net/http"
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
