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
		absent   []string // not in it
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
		"Gateway API controller, upstream's": {reason: "accepted as it is, access logs anywhere", addon: "aws_gateway_api_controller",
			settings: &AddonSettings{AcceptAccountWide: []string{"aws_gateway_api_controller"}},
			want:     []string{`"s3:PutBucketPolicy"`, `"logs:PutResourcePolicy"`}, absent: []string{`"AccessLogBuckets"`}},
		"Gateway API controller, narrowed": {reason: "bucket policies and stream tags of the destinations only", addon: "aws_gateway_api_controller",
			settings: &AddonSettings{AcceptAccountWide: []string{"aws_gateway_api_controller"},
				GatewayApiController: &GatewayAPIControllerSettings{AccessLogDestinations: []string{"arn:aws:s3:::lattice-logs/gateways",
					"arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice"}}},
			want: []string{`{"Sid":"AccessLogBuckets","Effect":"Allow","Action":["s3:GetBucketPolicy","s3:PutBucketPolicy"],"Resource":["arn:aws:s3:::lattice-logs"]}`,
				`"Resource":["arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice"]`, `"vpc-lattice:*"`},
			absent: []string{`"logs:PutResourcePolicy"`, `"AccessLogGroups"`}},
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
			for _, w := range tc.absent {
				if strings.Contains(policy, w) {
					t.Errorf("%s: the policy has %s:\n%s", tc.reason, w, policy)
				}
			}
		})
	}
}
