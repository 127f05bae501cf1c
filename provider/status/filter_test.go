package status

import (
	"slices"
	"testing"
)

// TestFilter: -failing keeps the clusters with a failed add-on, a failing EKS status or a failed Argo CD
// connection; -wave and -cluster keep
// theirs; conditions together must all hold; the stacks and what could not be read stay whole.
func TestFilter(t *testing.T) {
	r := fixture(t)
	r.Unreachable = []string{"stack prod: no such stack"}
	degraded := r.Clusters[0]
	degraded.Name, degraded.Addons = "hub-b", nil
	degraded.EKS = &EKS{Status: "FAILED"}
	// spoke-lost: every add-on ok as Argo CD last saw them, but its controller no longer reaches it.
	lost := r.Clusters[2]
	lost.Name, lost.Decommissioned, lost.Connection = "spoke-lost", false, ConnectionFailed
	r.Clusters = append(r.Clusters, degraded, lost)
	for _, tc := range []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"none", Filter{}, []string{"hub", "spoke-use2", "spoke-usw2", "hub-b", "spoke-lost"}},
		{"failing", Filter{Failing: true}, []string{"spoke-use2", "hub-b", "spoke-lost"}},
		{"wave 0 and 1", Filter{Waves: []int{0, 1}}, []string{"hub", "spoke-use2", "hub-b"}},
		{"a stack without waves is in none", Filter{Waves: []int{3}}, nil},
		{"by name", Filter{Clusters: []string{"spoke-usw2", "nope"}}, []string{"spoke-usw2"}},
		{"failing in wave 0", Filter{Failing: true, Waves: []int{0}}, []string{"hub-b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := r.Filtered(tc.filter)
			var names []string
			for _, c := range got.Clusters {
				names = append(names, c.Name)
			}
			if !slices.Equal(names, tc.want) || len(got.Stacks) != len(r.Stacks) || len(got.Unreachable) != 1 {
				t.Errorf("kept %v (stacks %d, unreachable %d), want %v", names, len(got.Stacks), len(got.Unreachable), tc.want)
			}
		})
	}
	if len(r.Clusters) != 5 {
		t.Error("Filtered changed the report it filtered")
	}
}

// TestAddonsText: a count per state in a fixed order, the failed named, "none" without add-ons.
func TestAddonsText(t *testing.T) {
	ok := Addon{Name: "a", Sync: "Synced", Health: "Healthy"}
	failed := Addon{Name: "b", Sync: "OutOfSync", Health: "Degraded"}
	unknown := Addon{Name: "c", Sync: Unknown, Health: Unknown}
	for _, tc := range []struct {
		addons []Addon
		want   string
	}{
		{nil, "none"},
		{[]Addon{ok, ok, unknown}, "2 ok, 1 unknown"},
		{[]Addon{failed, ok, {Name: "d", Sync: "OutOfSync", Health: "Degraded"}}, "1 ok, failed: b,d"},
	} {
		if got := (Cluster{Addons: tc.addons}).AddonsText(false); got != tc.want {
			t.Errorf("AddonsText(%v) = %q, want %q", tc.addons, got, tc.want)
		}
	}
}
