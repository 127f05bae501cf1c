package delivery

import (
	"fmt"
	"slices"
)

// WarehouseSource stands for the Warehouse among a stage's sources (stageSources): a stage name is a DNS-1123
// label, so it cannot be one.
const WarehouseSource = "Warehouse"

// link is a stage with where it takes Freight from: the Warehouse (direct) and the upstream stages.
type link struct {
	DeliveryStage
	direct    bool
	upstreams []string
}

// sourcesOf is where stages[i] takes Freight from: its direct and from when either is given, else the stage before
// it (the first stage: the Warehouse).
func sourcesOf(stages []DeliveryStage, i int) (direct bool, upstreams []string) {
	s := stages[i]
	switch {
	case s.Direct || len(s.From) > 0:
		return s.Direct, s.From
	case i == 0:
		return true, nil
	default:
		return false, []string{stages[i-1].Name}
	}
}

// graph orders the stages so that each comes after every stage it takes Freight from (in list order otherwise).
// It returns every problem of the graph instead: a from naming no stage, the stage itself or one stage twice; no
// stage taking Freight from the Warehouse; a cycle. Names are unique (checked before).
func graph(stages []DeliveryStage) ([]link, []string) {
	byName := map[string]bool{}
	for _, s := range stages {
		byName[s.Name] = true
	}
	var problems []string
	links := make([]link, len(stages))
	fromWarehouse := false
	for i, s := range stages {
		direct, ups := sourcesOf(stages, i)
		fromWarehouse = fromWarehouse || direct
		for j, up := range ups {
			switch {
			case up == s.Name:
				problems = append(problems, fmt.Sprintf("stage %q takes Freight from itself", s.Name))
			case !byName[up]:
				problems = append(problems, fmt.Sprintf("stage %q takes Freight from %q, which is not a stage", s.Name, up))
			case slices.Contains(ups[:j], up):
				problems = append(problems, fmt.Sprintf("stage %q names %q twice in from", s.Name, up))
			}
		}
		links[i] = link{DeliveryStage: s, direct: direct, upstreams: ups}
	}
	if !fromWarehouse {
		problems = append(problems, "no stage takes Freight from the Warehouse: give the first stage no from, or a "+
			"stage direct: true")
	}
	if len(problems) > 0 {
		return nil, problems
	}
	var out []link
	placed := map[string]bool{}
	for len(out) < len(links) {
		progress := false
		for _, l := range links {
			if placed[l.Name] || slices.ContainsFunc(l.upstreams, func(u string) bool { return !placed[u] }) {
				continue
			}
			out, placed[l.Name], progress = append(out, l), true, true
		}
		if !progress {
			var cycle []string
			for _, l := range links {
				if !placed[l.Name] {
					cycle = append(cycle, l.Name)
				}
			}
			return nil, []string{fmt.Sprintf("stages %q take Freight from each other in a cycle", cycle)}
		}
	}
	return out, nil
}
