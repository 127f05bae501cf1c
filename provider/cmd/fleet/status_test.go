package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    options
		problem string
	}{
		{nil, options{dir: ".", eks: true}, ""},
		{[]string{"-C", "fleet", "-stack", "hub", "-stack", "shard-eu", "-drift", "-eks=false", "-html", "s.html", "-watch", "30s"},
			options{dir: "fleet", stacks: stackList{"hub", "shard-eu"}, drift: true, html: "s.html", watch: 30 * time.Second}, ""},
		{[]string{"-json", "-html", "s.html"}, options{}, "-json and -html: choose one"},
		{[]string{"-watch", "1s", "extra"}, options{}, `unexpected arguments ["extra"]; -watch 1s: at least 5s`},
	} {
		var out strings.Builder
		got, err := parse(tc.args, &out)
		if tc.problem != "" {
			if err == nil || err.Error() != tc.problem || !strings.Contains(out.String(), tc.problem) {
				t.Errorf("%q: error %v, printed %q; want %q", tc.args, err, out.String(), tc.problem)
			}
			continue
		}
		if err != nil || got.dir != tc.want.dir || got.stacks.String() != tc.want.stacks.String() || got.drift != tc.want.drift ||
			got.eks != tc.want.eks || got.html != tc.want.html || got.watch != tc.want.watch || got.json != tc.want.json {
			t.Errorf("%q: %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	if _, err := parse([]string{"-h"}, io.Discard); err == nil {
		t.Error("-h: want flag.ErrHelp")
	}
}
