package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseRollout(t *testing.T) {
	const sha = "e6d355197ff3af8e6be09e1dea068dc12727a915"
	cases := map[string]struct {
		args []string
		want string // a word of the error; "" none
	}{
		"defaults":           {[]string{"-stack", "dev", "-revision", sha}, ""},
		"a share":            {[]string{"-stack", "dev", "-revision", sha, "-failures", "25%"}, ""},
		"no stack":           {[]string{"-revision", sha}, "-stack is required"},
		"a branch":           {[]string{"-stack", "dev", "-revision", "main"}, "full commit SHA"},
		"a bad threshold":    {[]string{"-stack", "dev", "-revision", sha, "-failures", "some"}, "-failures"},
		"a negative one":     {[]string{"-stack", "dev", "-revision", sha, "-failures", "-1"}, "-failures"},
		"every problem once": {[]string{"-failures", "x"}, "-stack is required; -revision"},
	}
	for name, tc := range cases {
		o, err := parseRollout(tc.args, io.Discard)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", name, err, tc.want)
		case tc.want == "" && (o.bake != 5*time.Minute || o.timeout != 15*time.Minute):
			t.Errorf("%s: bake %s, timeout %s: want the defaults 5m and 15m", name, o.bake, o.timeout)
		}
	}
}
