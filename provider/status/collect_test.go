package status

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCollectUnreachable: a project that cannot be read yields a report saying so, with no cluster shown healthy;
// no way to the hub means Argo CD is unreachable, not empty.
func TestCollectUnreachable(t *testing.T) {
	r := Collect(context.Background(), Sources{Dir: t.TempDir()})
	if len(r.Clusters) != 0 || len(r.Unreachable) != 1 ||
		!strings.HasPrefix(r.Unreachable[0], "project ") && !strings.HasPrefix(r.Unreachable[0], "stacks of ") {
		t.Errorf("a directory with no project: %+v", r)
	}
	if h := readHub(context.Background(), nil, Cluster{Name: "hub"}, nil, "argocd"); h.err == nil || !strings.Contains(h.err.Error(), "not read") {
		t.Errorf("no way to the hub: %v", h.err)
	}
	if h := readHub(context.Background(), KubeconfigHub("not: [a kubeconfig"), Cluster{}, nil, "argocd"); h.err == nil || !strings.Contains(h.err.Error(), "hub kubeconfig") {
		t.Errorf("a broken kubeconfig: %v", h.err)
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
