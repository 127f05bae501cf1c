package gitopsbridge

import (
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

const (
	fileType   = "github:index/repositoryFile:RepositoryFile"
	branchType = "github:index/branch:Branch"
	prType     = "github:index/repositoryPullRequest:RepositoryPullRequest"
)

func TestGitDelivery(t *testing.T) {
	cases := map[string]struct {
		reason   string
		git      GitDelivery
		want     map[string]any
		wantPR   bool
		wantURL  string
		fileFrom string // the branch the file is written to
	}{
		"default branch": {
			reason: "the manifest lands on main at clusters/<environment>/<cluster>.yaml",
			git:    GitDelivery{Owner: "acme", Repository: "fleet"},
			want: map[string]any{"repository": "fleet", "branch": "main", "file": "clusters/dev/spoke1.yaml",
				"commitMessage": "Register cluster spoke1 (dev)", "overwriteOnCreate": true},
			wantURL: "https://github.com/acme/fleet/blob/main/clusters/dev/spoke1.yaml",
		},
		"pull request": {
			reason: "pull-request mode writes to its own branch and opens a pull request into main",
			git: GitDelivery{Owner: "acme", Repository: "fleet", Path: "fleet/spoke1.yaml", PullRequest: true,
				CommitMessage: "Add spoke1"},
			want: map[string]any{"repository": "fleet", "branch": "gitops-fleet/spoke1", "file": "fleet/spoke1.yaml",
				"commitMessage": "Add spoke1", "overwriteOnCreate": true},
			wantPR:  true,
			wantURL: "https://github.com/acme/fleet/blob/gitops-fleet/spoke1/fleet/spoke1.yaml",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
			args := spokeArgs()
			args.Git = &tc.git
			cloud, gb := build(t, "spoke1", args)
			file := cloud.MustGet(t, fileType, "spoke1-manifest")
			got := file.InputsLike(tc.want)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
			if file.Input("content") != mocks.Await[string](t, gb.Manifest) {
				t.Error("the committed content is not the manifest output")
			}
			if u := mocks.Await[string](t, gb.GitFileUrl); u != tc.wantURL {
				t.Errorf("gitFileUrl = %q, want %q", u, tc.wantURL)
			}
			gh := cloud.MustGet(t, "pulumi:providers:github", "spoke1-github")
			if gh.Input("owner") != "acme" || !gh.Inputs["token"].ContainsSecrets() || gh.Input("token") != "ghp_canary" {
				t.Errorf("the github provider should be acme's with the configured token as a secret: %v", gh.Inputs)
			}
			if !strings.Contains(file.Provider, "::spoke1-github::") {
				t.Errorf("the file does not go through the github provider: %s", file.Provider)
			}
			prs := cloud.OfType(prType)
			if !tc.wantPR {
				if len(prs) != 0 || len(cloud.OfType(branchType)) != 0 || mocks.Await[int](t, gb.PullRequestNumber) != 0 {
					t.Error("direct mode opened a branch or pull request")
				}
				return
			}
			branch := cloud.MustGet(t, branchType, "spoke1-branch")
			if branch.Input("branch") != "gitops-fleet/spoke1" || branch.Input("sourceBranch") != "main" {
				t.Errorf("branch = %v from %v", branch.Input("branch"), branch.Input("sourceBranch"))
			}
			if !slices.Contains(file.Dependencies, mocks.URN(TypeToken, branchType, "spoke1-branch")) {
				t.Error("the file is written before its branch exists")
			}
			pr := cloud.MustGet(t, prType, "spoke1-pull-request")
			wantPR := map[string]any{"owner": "acme", "baseRepository": "fleet", "baseRef": "main",
				"headRef": "gitops-fleet/spoke1", "title": "Add spoke1"}
			gotPR := pr.InputsLike(wantPR)
			if diff := cmp.Diff(wantPR, gotPR); diff != "" {
				t.Errorf("pull request (-want +got):\n%s", diff)
			}
			if n := mocks.Await[int](t, gb.PullRequestNumber); n == 0 || float64(n) != pr.State["number"].NumberValue() {
				t.Errorf("pullRequestNumber = %d, want the pull request's number %v", n, pr.State["number"])
			}
		})
	}
}

// TestHandover: moving a cluster from direct to Git delivery, the switching run still writes its secret, now
// retained on delete, besides committing it; the runs before and after write none with Git.
func TestHandover(t *testing.T) {
	cases := map[string]struct {
		reason   string
		git      bool
		handover bool
		secret   bool // a cluster secret is written into the hub
		retained bool
	}{
		"direct":        {reason: "direct delivery writes the secret, deleted with the cluster", secret: true},
		"switching run": {reason: "kept one more run, retained, while the registry takes it over", git: true, handover: true, secret: true, retained: true},
		"git":           {reason: "Git is the source of truth: Pulumi writes none", git: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
			args := spokeArgs()
			if tc.git {
				args.Git = &GitDelivery{Owner: "acme", Repository: "fleet"}
			}
			args.Handover = tc.handover
			cloud, _ := build(t, "spoke1", args)
			s, ok := cloud.Named(secretType, "spoke1-cluster-secret")
			if ok != tc.secret || (ok && s.RetainOnDelete != tc.retained) {
				t.Errorf("%s: secret written %v (retained %v), want %v (retained %v)", tc.reason, ok, s.RetainOnDelete, tc.secret, tc.retained)
			}
			if _, committed := cloud.Named(fileType, "spoke1-manifest"); committed != tc.git {
				t.Errorf("%s: manifest committed %v, want %v", tc.reason, committed, tc.git)
			}
		})
	}
}
