package delivery

import (
	"slices"
	"strings"
	"testing"
)

// TestGraph: stages run after every stage they take Freight from, whatever their order in the list; a stage
// without from follows the one before it (the first: the Warehouse).
func TestGraph(t *testing.T) {
	cases := map[string]struct {
		stages []DeliveryStage
		want   []string // name<-sources, "*" for the Warehouse
	}{
		"in list order": {stages: []DeliveryStage{{Name: "dev"}, {Name: "qa"}, {Name: "prod"}},
			want: []string{"dev<-*", "qa<-dev", "prod<-qa"}},
		"from reorders": {stages: []DeliveryStage{{Name: "dev"}, {Name: "prod", From: []string{"qa"}},
			{Name: "qa", From: []string{"dev"}}},
			want: []string{"dev<-*", "qa<-dev", "prod<-qa"}},
		"one stage": {stages: []DeliveryStage{{Name: "prod"}}, want: []string{"prod<-*"}},
		"fan-out from the Warehouse and fan-in": {stages: []DeliveryStage{{Name: "dev"}, {Name: "dev2", Direct: true},
			{Name: "gate-qa", From: []string{"dev", "dev2"}}, {Name: "gate-sec", From: []string{"dev", "dev2"}},
			{Name: "qa", From: []string{"gate-qa", "gate-sec"}, AvailabilityStrategy: "All"}},
			want: []string{"dev<-*", "dev2<-*", "gate-qa<-dev,dev2", "gate-sec<-dev,dev2", "qa<-gate-qa,gate-sec"}},
		"a fan-in listed first": {stages: []DeliveryStage{{Name: "qa", From: []string{"a", "b"}},
			{Name: "a", Direct: true}, {Name: "b", Direct: true}},
			want: []string{"a<-*", "b<-*", "qa<-a,b"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			links, problems := graph(tc.stages)
			if problems != nil {
				t.Fatal(problems)
			}
			var got []string
			for _, l := range links {
				src := slices.Clone(l.upstreams)
				if l.direct {
					src = append([]string{"*"}, src...)
				}
				got = append(got, l.Name+"<-"+strings.Join(src, ","))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("graph = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestGraphProblems(t *testing.T) {
	cases := map[string]struct {
		stages []DeliveryStage
		want   []string
	}{
		"a cycle": {stages: []DeliveryStage{{Name: "dev"}, {Name: "qa", From: []string{"prod"}}, {Name: "prod", From: []string{"qa"}}},
			want: []string{`stages ["qa" "prod"] take Freight from each other in a cycle`}},
		"unknown, self and twice": {stages: []DeliveryStage{{Name: "dev"}, {Name: "qa", From: []string{"qa", "uat", "dev", "dev"}}},
			want: []string{`"qa" takes Freight from itself`, `"uat", which is not a stage`, `names "dev" twice`}},
		"nothing from the Warehouse": {stages: []DeliveryStage{{Name: "dev", From: []string{"qa"}}, {Name: "qa", From: []string{"dev"}}},
			want: []string{"no stage takes Freight from the Warehouse"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, problems := graph(tc.stages)
			all := strings.Join(problems, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems lack %q:\n%s", w, all)
				}
			}
		})
	}
}
