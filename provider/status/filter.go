package status

import (
	"fmt"
	"slices"
	"strings"
)

// Filter keeps the clusters a reader asks for (fleet status -failing, -wave, -cluster): every condition given must
// hold; an empty Filter keeps every cluster.
type Filter struct {
	// Failing keeps the clusters with a failed add-on (Addon.State), whose EKS status is neither ACTIVE nor
	// UPDATING, or that Argo CD fails to reach (Connection Failed).
	Failing bool
	// Waves keep the clusters in one of these waves (a cluster whose stack says no wave is in none).
	Waves []int
	// Clusters keep the clusters of these names.
	Clusters []string
}

// Failing tells whether c has a failed add-on, an EKS status other than ACTIVE or UPDATING, or a failed connection
// from Argo CD.
func (c Cluster) Failing() bool {
	if c.Connection == ConnectionFailed {
		return true
	}
	if c.EKS != nil && c.EKS.Status != "" && c.EKS.Status != "ACTIVE" && c.EKS.Status != "UPDATING" {
		return true
	}
	return slices.ContainsFunc(c.Addons, func(a Addon) bool { return a.State() == "failed" })
}

// Keeps tells whether f keeps c.
func (f Filter) Keeps(c Cluster) bool {
	switch {
	case f.Failing && !c.Failing():
		return false
	case len(f.Waves) > 0 && (c.Wave == nil || !slices.Contains(f.Waves, *c.Wave)):
		return false
	case len(f.Clusters) > 0 && !slices.Contains(f.Clusters, c.Name):
		return false
	}
	return true
}

// Filtered is r with only the clusters f keeps (its stacks and what could not be read kept whole).
func (r Report) Filtered(f Filter) Report {
	out := r
	out.Clusters = slices.DeleteFunc(slices.Clone(r.Clusters), func(c Cluster) bool { return !f.Keeps(c) })
	return out
}

// states are the add-on states in the order the table counts them.
var states = []string{"ok", "stack", "progressing", "unknown", "failed"}

// AddonsText is c's add-ons as the table shows them, readable at any size: a count per state ("7 ok, 1
// progressing"), then the failed ones named ("failed: metrics_server"); each coloured by its state when colour is
// set; "none" without add-ons.
func (c Cluster) AddonsText(colour bool) string {
	count := map[string]int{}
	var failed []string
	for _, a := range c.Addons {
		count[a.State()]++
		if a.State() == "failed" {
			failed = append(failed, a.Name)
		}
	}
	var parts []string
	for _, s := range states {
		switch {
		case s == "failed" && len(failed) > 0:
			parts = append(parts, paint(colour, s, "failed: "+strings.Join(failed, ",")))
		case count[s] > 0 && s != "failed":
			parts = append(parts, paint(colour, s, fmt.Sprintf("%d %s", count[s], s)))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// paint is s in the colour of state on a terminal (colour set), s as it is otherwise.
func paint(colour bool, state, s string) string {
	if colour {
		return colours[state] + s + "\x1b[0m"
	}
	return s
}
