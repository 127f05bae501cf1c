package aws

import (
	"slices"
	"testing"
)

// TestAccessNames are the names EKS and aws-iam-authenticator give identities, which the offline EKS's access
// follows.
func TestAccessNames(t *testing.T) {
	cases := map[string]struct {
		reason    string
		got, want string
	}{
		"role username": {reason: "EKS's default username of a role's entry is its assumed-role ARN with the session",
			got:  defaultUsername("arn:aws:iam::111122223333:role/fleet/spoke/gitops"),
			want: "arn:aws:sts::111122223333:assumed-role/gitops/{{SessionName}}"},
		"user username": {reason: "and of a user's, the user's ARN",
			got: defaultUsername("arn:aws:iam::111122223333:user/alice"), want: "arn:aws:iam::111122223333:user/alice"},
		"role path": {reason: "the authenticator compares a role without its path (an assumed role's ARN has none)",
			got: withoutPath("arn:aws:iam::111122223333:role/fleet/spoke/gitops"), want: "arn:aws:iam::111122223333:role/gitops"},
		"no path": {reason: "a role without a path is itself",
			got: withoutPath("arn:aws:iam::111122223333:role/gitops"), want: "arn:aws:iam::111122223333:role/gitops"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, tc.got, tc.want)
			}
		})
	}
}

// TestBackendModes are the authenticator's backends for each EKS authentication mode: access entries before aws-auth.
func TestBackendModes(t *testing.T) {
	for mode, want := range map[string][]string{
		"CONFIG_MAP": {"EKSConfigMap"}, "API": {"DynamicFile"}, "API_AND_CONFIG_MAP": {"DynamicFile", "EKSConfigMap"},
		"": {"EKSConfigMap"},
	} {
		if got := BackendModes(mode); !slices.Equal(got, want) {
			t.Errorf("BackendModes(%q) = %v, want %v", mode, got, want)
		}
	}
}
