package delivery

import (
	"fmt"
	"slices"
)

// link is a stage and the stage it promotes Freight from ("" for the first, which takes it from the Warehouse).
type link struct {
	DeliveryStage
	upstream string
}

// upstreamOf is the stage stages[i] takes Freight from: its from, else the stage before it; "" for the first.
func upstreamOf(stages []DeliveryStage, i int) string {
	switch {
	case stages[i].From != "":
		return stages[i].From
	case i == 0:
		return ""
	default:
		return stages[i-1].Name
	}
}

// chain orders the stages from the one that takes Freight from the Warehouse to the last, each after its
// upstream. It returns an error unless the stages form one chain: exactly one first stage, every from naming
// another stage, no stage followed by two, no cycle.
func chain(stages []DeliveryStage) ([]link, error) {
	byName, next := map[string]int{}, map[string]string{}
	for i, s := range stages {
		byName[s.Name] = i
	}
	first := ""
	for i, s := range stages {
		up := upstreamOf(stages, i)
		switch _, ok := byName[up]; {
		case up == "":
			first = s.Name
		case up == s.Name:
			return nil, fmt.Errorf("stage %q takes Freight from itself", s.Name)
		case !ok:
			return nil, fmt.Errorf("stage %q takes Freight from %q, which is not a stage", s.Name, up)
		case next[up] != "":
			return nil, fmt.Errorf("stages %q and %q both follow %q: the stages must form one chain", next[up], s.Name, up)
		default:
			next[up] = s.Name
		}
	}
	if first == "" {
		return nil, fmt.Errorf("no stage takes Freight from the Warehouse: the first stage must have no from")
	}
	var out []link
	for name, up := first, ""; name != ""; name, up = next[name], name {
		out = append(out, link{DeliveryStage: stages[byName[name]], upstream: up})
	}
	if len(out) != len(stages) {
		var lost []string
		for _, s := range stages {
			if !slices.ContainsFunc(out, func(l link) bool { return l.Name == s.Name }) {
				lost = append(lost, s.Name)
			}
		}
		return nil, fmt.Errorf("stages %q form a cycle, apart from the chain that starts at %q", lost, first)
	}
	return out, nil
}
