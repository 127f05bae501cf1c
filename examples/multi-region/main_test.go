package main

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// The example builds three clusters, each through a provider of its own region.
func TestProgramBuildsOneClusterPerRegion(t *testing.T) {
	cloud := mocks.New()
	if err := cloud.Run(program); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range cloud.OfType("eks:index:Cluster") {
		got[r.Region] = true
	}
	for _, region := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		if !got[region] {
			t.Errorf("no cluster in %s (clusters in %v)", region, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("clusters in %d regions, want 3", len(got))
	}
}
