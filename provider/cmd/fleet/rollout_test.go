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
		"defaults":             {[]string{"-stack", "dev", "-revision", sha}, ""},
		"a share":              {[]string{"-stack", "dev", "-revision", sha, "-failures", "25%"}, ""},
		"no stack":             {[]string{"-revision", sha}, "-stack is required"},
		"a branch":             {[]string{"-stack", "dev", "-revision", "main"}, "full commit SHA"},
		"a bad threshold":      {[]string{"-stack", "dev", "-revision", sha, "-failures", "some"}, "-failures"},
		"a negative one":       {[]string{"-stack", "dev", "-revision", sha, "-failures", "-1"}, "-failures"},
		"every problem once":   {[]string{"-failures", "x"}, "-stack is required; give one of -revision"},
		"a Kubernetes version": {[]string{"-stack", "dev", "-version", "1.34"}, ""},
		"a patch version":      {[]string{"-stack", "dev", "-version", "1.34.1"}, "-version \"1.34.1\""},
		"both":                 {[]string{"-stack", "dev", "-version", "1.34", "-revision", sha}, "give one of -revision"},
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

// TestWithPolicy: the stack's rollout policy sets what no flag gives; a flag wins; a bad setting is named.
func TestWithPolicy(t *testing.T) {
	const sha = "e6d355197ff3af8e6be09e1dea068dc12727a915"
	cases := map[string]struct {
		args    []string
		policy  rolloutPolicy
		want    [3]string // bake, timeout, failures
		wantErr string
	}{
		"the defaults":        {nil, rolloutPolicy{}, [3]string{"5m0s", "15m0s", "0"}, ""},
		"the policy":          {nil, rolloutPolicy{Bake: "10m", Timeout: "20m", Failures: "25%"}, [3]string{"10m0s", "20m0s", "25%"}, ""},
		"a flag wins":         {[]string{"-bake", "0s", "-failures", "1"}, rolloutPolicy{Bake: "10m", Failures: "25%"}, [3]string{"0s", "15m0s", "1"}, ""},
		"bad settings, named": {nil, rolloutPolicy{Bake: "soon", Failures: "most"}, [3]string{}, PolicyKey + ".bake: \"soon\""},
	}
	for name, tc := range cases {
		o, err := parseRollout(append([]string{"-stack", "dev", "-revision", sha}, tc.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		o, err = withPolicy(o, tc.policy)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "failures") {
				t.Errorf("%s: %v, want an error naming %s and failures", name, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case [3]string{o.bake.String(), o.timeout.String(), o.failures} != tc.want:
			t.Errorf("%s: bake %s, timeout %s, failures %s; want %v", name, o.bake, o.timeout, o.failures, tc.want)
		}
	}
}
