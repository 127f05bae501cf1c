package fleet

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

func TestRevisionWarnings(t *testing.T) {
	const sha = "e6d355197ff3af8e6be09e1dea068dc12727a915"
	for name, tc := range map[string]struct {
		revision string
		envs     []string
		own      map[string]string // environment -> its cluster's addonsRepoRevision
		want     string            // "" no warning
	}{
		"a pinned commit in prod":          {revision: sha, envs: []string{"prod"}},
		"a branch in dev only":             {revision: "main", envs: []string{"dev", "dev-eu"}},
		"a branch with prod":               {revision: "main", envs: []string{"dev", "prod"}, want: `"main" is not a commit, yet the fleet has clusters in prod`},
		"no revision (HEAD) in qa":         {envs: []string{"qa"}, want: `"HEAD" is not a commit`},
		"a short commit in prod-eu":        {revision: sha[:7], envs: []string{"prod-eu"}, want: "clusters in prod-eu"},
		"a branch, prod pinned on its own": {revision: "main", envs: []string{"dev", "prod"}, own: map[string]string{"prod": sha}},
		"a commit, prod on a branch of its own": {revision: sha, envs: []string{"prod"}, own: map[string]string{"prod": "main"},
			want: `clusters[0].addonsRepoRevision: "main" is not a commit, yet c-prod is in prod`},
	} {
		t.Run(name, func(t *testing.T) {
			a := FleetArgs{Repositories: Repositories{Addons: &gitopsbridge.Repo{URL: "https://github.com/acme/addons", Revision: tc.revision}}}
			for _, e := range tc.envs {
				a.Clusters = append(a.Clusters, ClusterSpec{Name: "c-" + e, Environment: e, AddonsRepoRevision: tc.own[e]})
			}
			got := revisionWarnings(a)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("warnings %v, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("warnings %v, want one with %q", got, tc.want)
			}
		})
	}
}
