package gitopsbridge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	secretKind      = "kubernetes:core/v1:Secret"
	applicationKind = "kubernetes:argoproj.io/v1alpha1:Application"
)

// TestGitIsTheSourceOfTruth: with Git delivery Pulumi writes no cluster secret into the hub; the hub's registry
// Applications sync them from the registry repository. Without it the secrets are written directly.
func TestGitIsTheSourceOfTruth(t *testing.T) {
	pr := &GitDelivery{Owner: "acme", Repository: "fleet-registry", Branch: "main", PullRequest: true,
		PullRequestBranch: "gitops-fleet/x"}
	cases := map[string]struct {
		reason     string
		name       string
		args       GitOpsBridgeArgs
		wantSecret bool
		wantApps   map[string]string // Application name -> source path
	}{
		"spoke, direct": {reason: "without git the spoke's secret is written into the hub", name: "spoke1",
			args: spokeArgs(), wantSecret: true},
		"spoke, pull request": {reason: "in pull-request mode only a merged pull request registers the spoke",
			name: "spoke1", args: with(spokeArgs(), pr, nil)},
		"hub, direct": {reason: "without git the hub writes its own secret", name: "hub", args: hubArgs(), wantSecret: true},
		"hub, git": {reason: "with git the hub syncs its environment's folder instead", name: "hub",
			args: with(hubArgs(), pr, nil), wantApps: map[string]string{"cluster-registry-dev": "clusters/dev"}},
		"hub, git, environments": {reason: "one Application per registry environment", name: "hub",
			args:     with(hubArgs(), pr, []string{"dev", "prod"}),
			wantApps: map[string]string{"cluster-registry-dev": "clusters/dev", "cluster-registry-prod": "clusters/prod"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
			cloud, _ := build(t, tc.name, tc.args)
			if got := len(cloud.OfType(secretKind)) > 0; got != tc.wantSecret {
				t.Errorf("%s: cluster secret written into the hub: %v", tc.reason, got)
			}
			apps := map[string]string{}
			for _, a := range cloud.OfType(applicationKind) {
				md := a.Input("metadata").(map[string]any)
				spec := a.Input("spec").(map[string]any)
				src := spec["source"].(map[string]any)
				if src["repoURL"] != "https://github.com/acme/fleet-registry.git" || src["targetRevision"] != "main" ||
					md["namespace"] != "argocd" {
					t.Errorf("%s: registry Application %v reads %v", tc.reason, md["name"], src)
				}
				apps[md["name"].(string)] = src["path"].(string)
			}
			if diff := cmp.Diff(tc.wantApps, apps, cmpEmptyAsNil); diff != "" {
				t.Errorf("%s: registry Applications (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

var cmpEmptyAsNil = cmp.FilterValues(func(a, b map[string]string) bool { return len(a) == 0 && len(b) == 0 },
	cmp.Ignore())

// with is args with Git delivery and the hub's registry environments.
func with(args GitOpsBridgeArgs, g *GitDelivery, envs []string) GitOpsBridgeArgs {
	args.Git = g
	if args.Hub != nil {
		h := *args.Hub
		h.RegistryEnvironments = envs
		args.Hub = &h
	}
	return args
}
