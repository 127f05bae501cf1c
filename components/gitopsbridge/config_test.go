package gitopsbridge

import (
	"strings"
	"testing"
)

func TestClusterConfig(t *testing.T) {
	cases := map[string]struct {
		reason string
		got    string
		want   string
	}{
		"spoke": {
			reason: "a spoke is reached by assuming its role, TLS verified against its CA",
			got:    SpokeConfig("spoke1", "arn:aws:iam::123456789012:role/gitops-fleet/spoke/spoke1-usw2-gitops-spoke", "Q0E="),
			want: `{"awsAuthConfig":{"clusterName":"spoke1","roleARN":"arn:aws:iam::123456789012:role/gitops-fleet/spoke/spoke1-usw2-gitops-spoke"},` +
				`"tlsClientConfig":{"insecure":false,"caData":"Q0E="}}`,
		},
		"in cluster": {
			reason: "the hub uses Argo CD's own service account",
			got:    InClusterConfig(),
			want:   `{"tlsClientConfig":{"insecure":false}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", tc.reason, tc.got, tc.want)
			}
			for _, secret := range []string{"bearerToken", "password", "keyData", "certData"} {
				if strings.Contains(tc.got, secret) {
					t.Errorf("config carries a credential field %s", secret)
				}
			}
		})
	}
}
