package delivery

import (
	"slices"
	"testing"
)

// TestChain: stages run from the first along from, whatever their order in the list.
func TestChain(t *testing.T) {
	cases := map[string]struct {
		stages []DeliveryStage
		want   []string // name<-upstream
	}{
		"in list order": {stages: []DeliveryStage{{Name: "dev"}, {Name: "qa"}, {Name: "prod"}},
			want: []string{"dev<-", "qa<-dev", "prod<-qa"}},
		"from reorders": {stages: []DeliveryStage{{Name: "dev"}, {Name: "prod", From: "qa"}, {Name: "qa", From: "dev"}},
			want: []string{"dev<-", "qa<-dev", "prod<-qa"}},
		"one stage": {stages: []DeliveryStage{{Name: "prod"}}, want: []string{"prod<-"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			links, err := chain(tc.stages)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range links {
				got = append(got, l.Name+"<-"+l.upstream)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("chain = %v, want %v", got, tc.want)
			}
		})
	}
}
