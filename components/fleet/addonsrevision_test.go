package fleet_test

import (
	"testing"

	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// TestAddonsRepoRevisionPerCluster: a cluster's own addonsRepoRevision is its cluster secret's addons_repo_revision
// (the revision the GitOps Bridge ApplicationSets read its add-ons' values at) and its clusters output's; the others
// keep the fleet's.
func TestAddonsRepoRevisionPerCluster(t *testing.T) {
	const fleetRev, pinned = "e6d355197ff3af8e6be09e1dea068dc12727a915", "0123456789abcdef0123456789abcdef01234567"
	args := DevFleet()
	args.Repositories.Addons.Revision = fleetRev
	args.Clusters[1].AddonsRepoRevision = pinned
	cloud, f := build(t, args)
	summaries := mocks.Await[map[string]ClusterSummary](t, f.Clusters)
	for cluster, want := range map[string]string{"hub": fleetRev, "spoke-a": pinned, "spoke-b": fleetRev} {
		md, _ := cloud.MustGet(t, "kubernetes:core/v1:Secret", cluster+"-cluster-secret").Input("metadata").(map[string]any)
		annotations, _ := md["annotations"].(map[string]any)
		if got := annotations["addons_repo_revision"]; got != want || summaries[cluster].AddonsRepoRevision != want {
			t.Errorf("%s: addons_repo_revision %v, clusters output %q: want %s on both", cluster, got,
				summaries[cluster].AddonsRepoRevision, want)
		}
	}
}
