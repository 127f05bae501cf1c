package fleetcluster

import (
	"strings"
	"testing"
)

func TestSettingsScopePolicies(t *testing.T) {
	ca := "arn:aws:acm-pca:us-east-1:111122223333:certificate-authority/abc"
	cases := map[string]struct {
		reason   string
		addon    string
		settings *AddonSettings
		want     []string // in the add-on's inline policy
	}{
		"external-dns zones": {reason: "record changes only in the zones given", addon: "external_dns",
			settings: &AddonSettings{ExternalDns: &ExternalDNSSettings{HostedZoneIds: []string{"Z1ABC"}, DomainFilters: []string{"a.example.com"}}},
			want:     []string{`"arn:aws:route53:::hostedzone/Z1ABC"`}},
		"cert-manager zones": {reason: "TXT records only in the zones given", addon: "cert_manager",
			settings: &AddonSettings{CertManager: &CertManagerSettings{HostedZoneIds: []string{"Z2DEF"}}},
			want:     []string{`"arn:aws:route53:::hostedzone/Z2DEF"`, `"TXT"`}},
		"external-secrets default prefix": {reason: "secrets under <cluster>/ by default", addon: "external_secrets",
			want: []string{`secret:dev/*"`, `parameter/dev/*"`}},
		"external-secrets prefix": {reason: "a prefix given replaces the default", addon: "external_secrets",
			settings: &AddonSettings{ExternalSecrets: &ExternalSecretsSettings{SecretsPrefix: "platform/"}},
			want:     []string{`secret:platform/*"`}},
		"private CA": {reason: "only the CAs given", addon: "aws_privateca_issuer",
			settings: &AddonSettings{AwsPrivatecaIssuer: &PrivateCAIssuerSettings{CertificateAuthorityArns: []string{ca}}},
			want:     []string{`"` + ca + `"`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{tc.addon: true},
				AddonSettings: tc.settings})
			policy, _ := cloud.MustGet(t, "aws:iam/rolePolicy:RolePolicy", "dev-irsa-"+irsaRolePurpose(tc.addon)).Input("policy").(string)
			for _, w := range tc.want {
				if !strings.Contains(policy, w) {
					t.Errorf("%s: the policy lacks %s:\n%s", tc.reason, w, policy)
				}
			}
		})
	}
}
