package workflows

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// releaseFile is the project's own release workflow.
const releaseFile = "../../.github/workflows/release.yml"

// TestReleaseActionlintFindsNothing: actionlint finds nothing in the release workflow (its syntax, expressions,
// job dependencies, action inputs and shell scripts through shellcheck when installed).
func TestReleaseActionlintFindsNothing(t *testing.T) {
	path, err := filepath.Abs(releaseFile)
	if err != nil {
		t.Fatal(err)
	}
	lint(t, []string{path})
}

// TestReleaseOrder: a v* tag releases; the tests run first, then the plugin, then its attestation and the SDKs,
// each registry's job after the SDKs are built. Only the plugin and Go SDK jobs may write to the repository, the
// workflow's default is read-only, and the registries with OIDC trusted publishing (npm, PyPI, NuGet) and the
// attestation get an id token and no stored secret, and install or build nothing; Maven Central's secrets come from
// the "release" environment, behind which every job runs that writes or holds a credential. Every action is pinned
// by commit.
func TestReleaseOrder(t *testing.T) {
	w := parseFile(t, releaseFile)
	if got := events(w); !slices.Equal(got, []string{"push"}) {
		t.Fatalf("events %v", got)
	}
	push := w.On[0].(*actionlint.WebhookEvent)
	if push.Tags.IsEmpty() || len(push.Tags.Values) != 1 || !strings.HasPrefix(push.Tags.Values[0].Value, "v") ||
		!push.Branches.IsEmpty() {
		t.Errorf("release on tags %v, branches %v", push.Tags, push.Branches)
	}
	if w.Permissions == nil || w.Permissions.Scopes["contents"] == nil || w.Permissions.Scopes["contents"].Value.Value != "read" {
		t.Error("the workflow's default permissions are not contents: read")
	}
	needs := map[string]string{"plugin": "test", "attest": "plugin", "sdks": "plugin", "npm": "sdks", "pypi": "sdks",
		"nuget": "sdks", "maven": "sdks", "go-sdk": "sdks"}
	for job, need := range needs {
		j := w.Jobs[job]
		if j == nil {
			t.Errorf("no job %s", job)
			continue
		}
		var got []string
		for _, n := range j.Needs {
			got = append(got, n.Value)
		}
		if !slices.Equal(got, []string{need}) {
			t.Errorf("job %s needs %v, want [%s]", job, got, need)
		}
	}
	if !slices.ContainsFunc(w.Jobs["test"].Steps, func(s *actionlint.Step) bool { return runs(s, "bash .ci/run") }) {
		t.Error("the test job does not run .ci/run (the README's test command)")
	}
	if !slices.ContainsFunc(w.Jobs["plugin"].Steps, func(s *actionlint.Step) bool { return runs(s, "goreleaser release --clean") }) {
		t.Error("the plugin job does not run goreleaser release")
	}
	for name, job := range w.Jobs {
		write := job.Permissions != nil && job.Permissions.Scopes["contents"] != nil &&
			job.Permissions.Scopes["contents"].Value.Value == "write"
		if write != (name == "plugin" || name == "go-sdk") {
			t.Errorf("job %s: contents write %v", name, write)
		}
		oidc := job.Permissions != nil && job.Permissions.Scopes["id-token"] != nil &&
			job.Permissions.Scopes["id-token"].Value.Value == "write"
		if oidc != (name == "npm" || name == "pypi" || name == "nuget" || name == "attest") {
			t.Errorf("job %s: id-token write %v", name, oidc)
		}
		// Whatever writes the repository, holds an OIDC token or a registry's secret runs behind the release
		// environment (its reviewers and its branch rules).
		if (write || oidc || name == "maven") && (job.Environment == nil || job.Environment.Name.Value != "release") {
			t.Errorf("job %s writes, holds an OIDC token or a secret outside the release environment", name)
		}
		for _, s := range job.Steps {
			// A job that holds an OIDC token installs and builds nothing: it publishes or attests what an earlier
			// job built (a package's install script or a build tool would run with the token).
			if r, ok := s.Exec.(*actionlint.ExecRun); ok && oidc && r.Run != nil {
				for _, install := range []string{"npm install", "npm ci", "npx", "pip install", "python -m build", "go build",
					"go run", "go install", "dotnet pack", "dotnet restore", "dotnet build", "apt-get", "curl", "make "} {
					if strings.Contains(r.Run.Value, install) {
						t.Errorf("job %s holds an OIDC token and runs %q", name, install)
					}
				}
			}
			// Every action is pinned by commit: a tag or a branch can be moved under the release.
			if a, ok := s.Exec.(*actionlint.ExecAction); ok && a.Uses != nil {
				if _, ref, _ := strings.Cut(a.Uses.Value, "@"); !commitPattern.MatchString(ref) {
					t.Errorf("job %s uses %s: not pinned by a commit", name, a.Uses.Value)
				}
			}
		}
		for _, s := range job.Steps {
			for _, secret := range secretsOf(s) {
				if secret != "GITHUB_TOKEN" && !(name == "maven" && job.Environment != nil && job.Environment.Name.Value == "release") {
					t.Errorf("job %s uses secrets.%s outside the release environment's Maven job", name, secret)
				}
			}
		}
	}
}

// commitPattern is a full Git commit SHA.
var commitPattern = regexp.MustCompile(`^[0-9a-f]{40}$`)

// runs tells whether a step's script contains cmd.
func runs(s *actionlint.Step, cmd string) bool {
	r, ok := s.Exec.(*actionlint.ExecRun)
	return ok && r.Run != nil && strings.Contains(r.Run.Value, cmd)
}

// secretsOf are the secrets a step's script, inputs and environment name.
func secretsOf(s *actionlint.Step) []string {
	var texts []string
	switch e := s.Exec.(type) {
	case *actionlint.ExecRun:
		if e.Run != nil {
			texts = append(texts, e.Run.Value)
		}
	case *actionlint.ExecAction:
		for _, in := range e.Inputs {
			if in.Value != nil {
				texts = append(texts, in.Value.Value)
			}
		}
	}
	if s.Env != nil {
		for _, v := range s.Env.Vars {
			if v.Value != nil {
				texts = append(texts, v.Value.Value)
			}
		}
	}
	var out []string
	for _, text := range texts {
		for _, part := range strings.Split(text, "secrets.")[1:] {
			name := strings.FieldsFunc(part, func(r rune) bool { return r == ' ' || r == '}' })[0]
			out = append(out, name)
		}
	}
	return out
}
