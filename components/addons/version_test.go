package addons

import (
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	cases := map[string]struct {
		in, want string // want "" for an error
	}{
		"plain":                 {"0.34.1", "0.34.1"},
		"tag":                   {"v0.34.1", "0.34.1"},
		"minor only":            {"1.14", "1.14.0"},
		"pre-release":           {"v1.2.3-rc.1", "1.2.3-rc.1"},
		"fourth part":           {"2.31.12.20231011", "2.31.12"},
		"build suffix":          {"1.300032.2b361", "1.300032.2"},
		"a word":                {"latest", ""},
		"trailing text":         {"1.2.3 beta", ""},
		"empty":                 {"", ""},
		"leading zero (semver)": {"01.2.3", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			v, err := ParseVersion(tc.in)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("%q parsed as %s, want an error", tc.in, v)
			case tc.want != "" && (err != nil || v.String() != tc.want):
				t.Errorf("%q = %s, %v; want %s", tc.in, v, err, tc.want)
			}
		})
	}
}

func TestPolicyFor(t *testing.T) {
	a, _ := Lookup("karpenter")
	cases := map[string]struct {
		version, want string // want the policy's source tag, "" for an error
	}{
		"the template's":      {"0.34.1", "v0.34.1"},
		"v0.35 to v0.37":      {"v0.36.2", "v0.37.8"},
		"v1":                  {"1.14.0", "v1.14.0"},
		"v1.0, not published": {"1.0.6", ""},
		"v0.33, too old":      {"0.33.0", ""},
		"v2, not yet":         {"2.0.0", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := a.Identity.PolicyFor(tc.version)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("%s picked %s, want an error naming the ranges", tc.version, p.Source)
			case tc.want == "" && err != nil:
				if want := a.Identity.Ranges(); !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name the supported ranges %s", err, want)
				}
			case err != nil || !strings.Contains(p.Source, " at "+tc.want):
				t.Errorf("%s picked %q, %v; want the document at %s", tc.version, p.Source, err, tc.want)
			}
		})
	}
}
