package github

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Version is the pulumi-github version the plugin reports.
const Version = "6.14.1"

// Service is the emulated GitHub.
func Service() emulator.Service {
	return emulator.Service{
		Package: "github",
		Version: Version,
		Scope:   func(config property.Map) string { return emulator.Str(config, "owner") },
		Kinds: map[string]emulator.Kind{
			"github:index/repositoryFile:RepositoryFile":               file,
			"github:index/branch:Branch":                               branch,
			"github:index/repositoryPullRequest:RepositoryPullRequest": pullRequest,
		},
		Invokes: map[string]emulator.InvokeFunc{},
	}
}

func sha() string { return emulator.RandomHex(20) }

var file = emulator.Kind{
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "repository") + "/" + emulator.Str(c.Inputs, "file")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		return map[string]any{"commitSha": sha(), "sha": sha(), "ref": "refs/heads/" + emulator.Str(c.Inputs, "branch")}
	},
	Replaces: []string{"repository", "file"},
}

var branch = emulator.Kind{
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "repository") + ":" + emulator.Str(c.Inputs, "branch")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		return map[string]any{"sha": sha(), "sourceSha": sha(), "ref": "refs/heads/" + emulator.Str(c.Inputs, "branch"), "etag": sha()}
	},
	Replaces: []string{"repository", "branch", "sourceBranch"},
}

var pullRequest = emulator.Kind{
	ID: func(c emulator.Call) string {
		repo := emulator.Str(c.Inputs, "baseRepository")
		n, err := c.Store.Next(fmt.Sprintf("pull/%s/%s", c.Scope, repo))
		if err != nil {
			n = 0
		}
		return fmt.Sprintf("%s:%d", repo, n)
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		_, number, _ := strings.Cut(id, ":")
		n, _ := strconv.Atoi(number)
		return map[string]any{"number": n, "state": "open", "headSha": sha(), "baseSha": sha(), "updatedAt": "2026-01-01T00:00:00Z"}
	},
	Replaces: []string{"baseRepository", "baseRef", "headRef"},
}
