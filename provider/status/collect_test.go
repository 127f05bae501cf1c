package status

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCollectUnreachable: a project that cannot be read yields a report saying so, with no cluster shown healthy;
// no hub kubeconfig means Argo CD is unreachable, not empty.
func TestCollectUnreachable(t *testing.T) {
	r := Collect(context.Background(), Sources{Dir: t.TempDir()})
	if len(r.Clusters) != 0 || len(r.Unreachable) != 1 ||
		!strings.HasPrefix(r.Unreachable[0], "project ") && !strings.HasPrefix(r.Unreachable[0], "stacks of ") {
		t.Errorf("a directory with no project: %+v", r)
	}
	if _, err := hubApplications(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "no hub kubeconfig") {
		t.Errorf("no kubeconfig: %v", err)
	}
	if _, err := hubApplications(context.Background(), "not: [a kubeconfig"); err == nil || !strings.Contains(err.Error(), "hub kubeconfig") {
		t.Errorf("a broken kubeconfig: %v", err)
	}
}

func TestOfClusters(t *testing.T) {
	got := ofClusters([]string{"spoke-a-role", "spoke-vpc", "spoke", "hub-cluster-secret", "fleet-ledger"},
		[]Cluster{{Name: "spoke"}, {Name: "spoke-a"}, {Name: "hub"}})
	want := map[string][]string{"spoke": {"spoke-vpc", "spoke"}, "spoke-a": {"spoke-a-role"}, "hub": {"hub-cluster-secret"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
