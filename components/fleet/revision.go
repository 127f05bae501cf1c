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
func revisionWarnings(a FleetArgs) []string {
	r := a.Repositories.Addons
	if r == nil || gitopsbridge.IsCommit(r.Revision) {
		return nil
	}
	var envs []string
	for _, c := range a.Clusters {
		if !strings.HasPrefix(c.Environment, "dev") && !slices.Contains(envs, c.Environment) {
			envs = append(envs, c.Environment)
		}
	}
	if len(envs) == 0 {
		return nil
	}
	revision := r.Revision
	if revision == "" {
		revision = "HEAD"
	}
	return []string{fmt.Sprintf("repositories.addons.revision: %q is not a commit, yet the fleet has clusters in %s: "+
		"every commit to %s reaches them at once; pin a full commit SHA and move it as a promotion", revision,
		strings.Join(envs, ", "), r.URL)}
}
