package fleet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// revisionWarnings are the warnings of a fleet (with defaults) whose add-ons repository is followed at a branch or
// tag (repositories.addons.revision not a full commit) while it has clusters outside a dev environment (one whose
// name does not start with "dev"): every commit to the repository then reaches those clusters at once, with no
// reviewed pin between them. Pin a commit there, and move it as a promotion (the examples pin the template's).
//
// A cluster with its own addonsRepoRevision follows that one instead: a branch or tag there warns at its field.
func revisionWarnings(a FleetArgs) []string {
	r := a.Repositories.Addons
	if r == nil {
		return nil
	}
	var envs, out []string
	for i, c := range a.Clusters {
		switch {
		case strings.HasPrefix(c.Environment, "dev"):
		case c.AddonsRepoRevision != "" && !gitopsbridge.IsCommit(c.AddonsRepoRevision):
			out = append(out, fmt.Sprintf("clusters[%d].addonsRepoRevision: %q is not a commit, yet %s is in %s: every "+
				"commit to %s reaches it; pin a full commit SHA", i, c.AddonsRepoRevision, c.Name, c.Environment, r.URL))
		case c.AddonsRepoRevision == "" && !gitopsbridge.IsCommit(r.Revision) && !slices.Contains(envs, c.Environment):
			envs = append(envs, c.Environment)
		}
	}
	if len(envs) == 0 {
		return out
	}
	revision := r.Revision
	if revision == "" {
		revision = "HEAD"
	}
	return append([]string{fmt.Sprintf("repositories.addons.revision: %q is not a commit, yet the fleet has clusters in %s: "+
		"every commit to %s reaches them at once; pin a full commit SHA and move it as a promotion", revision,
		strings.Join(envs, ", "), r.URL)}, out...)
}
