package fleetcluster

import (
	"strings"
	"testing"
)

func TestValidateAddonRules(t *testing.T) {
	on := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	dns := func(mut func(*ExternalDNSSettings)) *AddonSettings {
		s := ExternalDNSSettings{HostedZoneIds: []string{"Z0123456789"}, DomainFilters: []string{"example.com"}}
		mut(&s)
		return &AddonSettings{ExternalDns: &s}
	}
	cases := map[string]struct {
		reason   string
		addons   map[string]bool
		settings *AddonSettings
		cluster  string
		field    string
		want     string
	}{
		"unknown add-on": {reason: "names outside the contract install nothing",
			addons: on("nope"), field: `addons["nope"]`, want: "known GitOps Bridge add-ons"},
		"not offered": {reason: "template add-ons FleetCluster leaves out say why",
			addons: on("fargate_fluentbit"), field: `addons["fargate_fluentbit"]`, want: "Fargate"},
		"cluster name as label": {reason: "aws_cluster_name is a label too: at most 63 characters",
			cluster: strings.Repeat("a", 64), field: "clusterName", want: "aws_cluster_name"},
		"settings of a disabled add-on": {reason: "a setting that does nothing is a mistake",
			settings: &AddonSettings{Velero: &VeleroSettings{BucketName: "acme-backups"}},
			field:    "addonSettings.velero", want: "velero is not enabled"},
		"external-dns needs settings": {reason: "its ApplicationSet reads external_dns_domain_filters with no default",
			addons: on("external_dns"), field: "addonSettings.externalDns", want: "required"},
		"external-dns zone form": {reason: "Route 53 zone IDs start with Z",
			addons: on("external_dns"), settings: dns(func(s *ExternalDNSSettings) { s.HostedZoneIds = []string{"example.com"} }),
			field: "addonSettings.externalDns.hostedZoneIds[0]", want: "hosted zone ID"},
		"external-dns needs a zone": {reason: "its role is scoped to the zones given",
			addons: on("external_dns"), settings: dns(func(s *ExternalDNSSettings) { s.HostedZoneIds = nil }),
			field: "addonSettings.externalDns.hostedZoneIds", want: "at least one"},
		"external-dns domain": {reason: "domain filters are DNS names",
			addons: on("external_dns"), settings: dns(func(s *ExternalDNSSettings) { s.DomainFilters = []string{"Example Com"} }),
			field: "addonSettings.externalDns.domainFilters[0]", want: "domain name"},
		"external-dns policy": {reason: "upsert-only or sync",
			addons: on("external_dns"), settings: dns(func(s *ExternalDNSSettings) { s.Policy = "create-only" }),
			field: "addonSettings.externalDns.policy", want: "upsert-only"},
		"cert-manager zone form": {reason: "Route 53 zone IDs start with Z",
			addons: on("cert_manager"), settings: &AddonSettings{CertManager: &CertManagerSettings{HostedZoneIds: []string{"/hostedzone/Z1"}}},
			field: "addonSettings.certManager.hostedZoneIds[0]", want: "hosted zone ID"},
		"gateway access logs to a queue": {reason: "VPC Lattice delivers access logs to buckets, log groups and streams only",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{AcceptAccountWide: []string{"aws_gateway_api_controller"},
				GatewayApiController: &GatewayAPIControllerSettings{AccessLogDestinations: []string{"arn:aws:s3:::lattice-logs",
					"arn:aws:sqs:us-east-1:111122223333:logs"}}},
			field: "addonSettings.gatewayApiController.accessLogDestinations[1]", want: "not an access log destination"},
		"gateway access logs to every bucket": {reason: "a wildcard would give back what the narrowed policy takes away",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{AcceptAccountWide: []string{"aws_gateway_api_controller"},
				GatewayApiController: &GatewayAPIControllerSettings{AccessLogDestinations: []string{"arn:aws:s3:::*"}}},
			field: "addonSettings.gatewayApiController.accessLogDestinations[0]", want: "arn:<partition>:s3:::<bucket>"},
		"gateway access logs listed twice": {reason: "a duplicate is a mistake",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{AcceptAccountWide: []string{"aws_gateway_api_controller"},
				GatewayApiController: &GatewayAPIControllerSettings{AccessLogDestinations: []string{"arn:aws:s3:::lattice-logs", "arn:aws:s3:::lattice-logs"}}},
			field: "addonSettings.gatewayApiController.accessLogDestinations[1]", want: "listed twice"},
		"gateway narrowed and replaced": {reason: "policyArns replace the policy the settings narrow",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{
				PolicyArns:           map[string][]string{"aws_gateway_api_controller": {"arn:aws:iam::111122223333:policy/lattice"}},
				GatewayApiController: &GatewayAPIControllerSettings{}},
			field: "addonSettings.gatewayApiController", want: "keep one of them"},
		"gateway narrowed, still account-wide": {reason: "vpc-lattice:* stays on every resource, so acceptance is still asked",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{GatewayApiController: &GatewayAPIControllerSettings{}},
			field: `addonSettings.policyArns["aws_gateway_api_controller"]`, want: "is required"},
		"gateway settings without the add-on": {reason: "a setting that does nothing is a mistake",
			settings: &AddonSettings{GatewayApiController: &GatewayAPIControllerSettings{}},
			field:    "addonSettings.gatewayApiController", want: "aws_gateway_api_controller is not enabled"},
		"bucket name charset": {reason: "S3 refuses upper-case bucket names",
			addons: on("velero"), settings: &AddonSettings{Velero: &VeleroSettings{BucketName: "Acme_Backups"}},
			field: "addonSettings.velero.bucketName", want: "S3 bucket naming rules"},
		"bucket name as IP": {reason: "S3 refuses names formatted as IP addresses",
			addons: on("velero"), settings: &AddonSettings{Velero: &VeleroSettings{BucketName: "192.168.5.4"}},
			field: "addonSettings.velero.bucketName", want: "IP address"},
		"bucket prefix slash": {reason: "Velero joins the prefix to the bucket",
			addons: on("velero"), settings: &AddonSettings{Velero: &VeleroSettings{BucketPrefix: "/backups"}},
			field: "addonSettings.velero.bucketPrefix", want: "must not start or end"},
		"fluent bit on the control-plane group": {reason: "the control-plane log group is EKS's",
			addons: on("aws_for_fluentbit"), settings: &AddonSettings{AwsForFluentbit: &FluentBitSettings{LogGroupName: "/aws/eks/dev/cluster"}},
			field: "addonSettings.awsForFluentbit.logGroupName", want: "control-plane"},
		"fluent bit above the control-plane group": {reason: "the role writes <group>/*, which would cover /aws/eks/dev/cluster",
			addons: on("aws_for_fluentbit"), settings: &AddonSettings{AwsForFluentbit: &FluentBitSettings{LogGroupName: "/aws/eks/dev"}},
			field: "addonSettings.awsForFluentbit.logGroupName", want: "control-plane"},
		"fluent bit far above the control-plane group": {reason: "/aws/* covers every EKS cluster's group",
			addons: on("aws_for_fluentbit"), settings: &AddonSettings{AwsForFluentbit: &FluentBitSettings{LogGroupName: "/aws"}},
			field: "addonSettings.awsForFluentbit.logGroupName", want: "control-plane"},
		"fluent bit in another cluster's groups": {reason: "/aws/eks/<other>/* holds another cluster's control-plane logs",
			addons: on("aws_for_fluentbit"), settings: &AddonSettings{AwsForFluentbit: &FluentBitSettings{LogGroupName: "/aws/eks/prod/fluentbit"}},
			field: "addonSettings.awsForFluentbit.logGroupName", want: "another EKS cluster's groups"},
		"secrets prefix of slashes only": {reason: "/ reaches every secret and parameter named as a path",
			addons: on("external_secrets"), settings: &AddonSettings{ExternalSecrets: &ExternalSecretsSettings{SecretsPrefix: "/"}},
			field: "addonSettings.externalSecrets.secretsPrefix", want: "named as a path"},
		"fluent bit retention": {reason: "CloudWatch Logs accepts a fixed set of retentions",
			addons: on("aws_for_fluentbit"), settings: &AddonSettings{AwsForFluentbit: &FluentBitSettings{RetentionInDays: 10}},
			field: "addonSettings.awsForFluentbit.retentionInDays", want: "90"},
		"secrets prefix charset": {reason: "Secrets Manager names",
			addons: on("external_secrets"), settings: &AddonSettings{ExternalSecrets: &ExternalSecretsSettings{SecretsPrefix: "dev secrets"}},
			field: "addonSettings.externalSecrets.secretsPrefix", want: "letters, digits"},
		"kms key arn": {reason: "customer keys are KMS key ARNs",
			addons: on("external_secrets"), settings: &AddonSettings{ExternalSecrets: &ExternalSecretsSettings{KmsKeyArns: []string{"alias/x"}}},
			field: "addonSettings.externalSecrets.kmsKeyArns[0]", want: "arn:<partition>:kms"},
		"own policies of an add-on with a scoped policy": {reason: "only account-wide upstream policies are replaceable",
			addons: on("karpenter"), settings: &AddonSettings{PolicyArns: map[string][]string{"karpenter": {"arn:aws:iam::111122223333:policy/k"}}},
			field: `addonSettings.policyArns["karpenter"]`, want: "ack_s3"},
		"own policies of a disabled add-on": {reason: "a setting that does nothing is a mistake",
			settings: &AddonSettings{PolicyArns: map[string][]string{"ack_s3": {"arn:aws:iam::111122223333:policy/s3-team"}}},
			field:    `addonSettings.policyArns["ack_s3"]`, want: "not enabled"},
		"own policy ARN form": {reason: "IAM policy ARNs",
			addons: on("ack_s3"), settings: &AddonSettings{PolicyArns: map[string][]string{"ack_s3": {"s3-team"}}},
			field: `addonSettings.policyArns["ack_s3"][0]`, want: "arn:<partition>:iam::<account>:policy/<name>"},
		"no own policy": {reason: "an empty list would leave the controller without permissions",
			addons: on("aws_gateway_api_controller"), settings: &AddonSettings{PolicyArns: map[string][]string{"aws_gateway_api_controller": {}}},
			field: `addonSettings.policyArns["aws_gateway_api_controller"]`, want: "at least one"},
		"private CA required": {reason: "the issuer's role is limited to named CAs",
			addons: on("aws_privateca_issuer"), field: "addonSettings.awsPrivatecaIssuer", want: "required"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := validArgs()
			args.Addons, args.AddonSettings, args.ClusterName = tc.addons, tc.settings, tc.cluster
			expectProblem(t, args, tc.field, tc.want, tc.reason)
		})
	}
}

func TestValidateAddonVersionsAndIdentity(t *testing.T) {
	cases := map[string]struct {
		reason   string
		versions map[string]string
		identity string
		field    string
		want     string
	}{
		"unknown add-on": {reason: "a version of nothing", versions: map[string]string{"nope": "1.0.0"},
			field: `addonVersions["nope"]`, want: "known GitOps Bridge add-ons"},
		"no identity": {reason: "no policy depends on metrics-server's version", versions: map[string]string{"metrics_server": "0.7.0"},
			field: `addonVersions["metrics_server"]`, want: "calls no AWS API"},
		"not a version": {reason: "versions are semantic versions", versions: map[string]string{"karpenter": "latest"},
			field: `addonVersions["karpenter"]`, want: "not a semantic version"},
		"outside every range": {reason: "Karpenter v1.0 published a policy FleetCluster does not carry",
			versions: map[string]string{"karpenter": "1.0.6"},
			field:    `addonVersions["karpenter"]`, want: "supported: >=0.34.0 <0.35.0; >=0.35.0 <1.0.0; >=1.1.0 <1.3.0; >=1.3.0 <1.7.0"},
		"identity mode": {reason: "podIdentity or irsa", identity: "oidc", field: "identity", want: "podIdentity, irsa"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := validArgs()
			args.AddonVersions, args.Identity = tc.versions, tc.identity
			expectProblem(t, args, tc.field, tc.want, tc.reason)
		})
	}
}

func TestValidateAcceptsEveryAddon(t *testing.T) {
	args := validArgs()
	args.Addons = map[string]bool{}
	for _, n := range KnownAddons() {
		args.Addons[n] = true
	}
	args.AddonSettings = &AddonSettings{
		ExternalDns:        &ExternalDNSSettings{HostedZoneIds: []string{"Z1"}, DomainFilters: []string{"example.com"}, Policy: "sync"},
		CertManager:        &CertManagerSettings{HostedZoneIds: []string{"Z1"}},
		AwsPrivatecaIssuer: &PrivateCAIssuerSettings{CertificateAuthorityArns: []string{"arn:aws:acm-pca:us-west-2:111122223333:certificate-authority/abc"}},
		Velero:             &VeleroSettings{BucketName: "acme-backups.eu"},
		AwsForFluentbit:    &FluentBitSettings{RetentionInDays: 30},
		AcceptAccountWide:  AccountWideAddons(),
	}
	if err := Validate(withDefaults(args, "dev", "test"), args); err != nil {
		t.Errorf("every add-on of the catalogue with valid settings: %v", err)
	}
}

// TestAccountWideAddonsNeedAChoice: an account-wide add-on enabled without policies of the user's is refused
// unless its upstream policy is accepted by name; acceptAccountWide names only enabled account-wide add-ons
// without policies.
func TestAccountWideAddonsNeedAChoice(t *testing.T) {
	own := "arn:aws:iam::111122223333:policy/platform/s3-team-buckets"
	for name, tc := range map[string]struct {
		settings    AddonSettings
		field, want string
	}{
		"neither": {field: `addonSettings.policyArns["ack_s3"]`, want: "accept the upstream policy by listing ack_s3"},
		"an add-on that is not account-wide": {settings: AddonSettings{AcceptAccountWide: []string{"ack_s3", "karpenter"}},
			field: "addonSettings.acceptAccountWide[1]", want: `"karpenter" is not an add-on whose upstream policy is account-wide`},
		"one not enabled": {settings: AddonSettings{AcceptAccountWide: []string{"ack_s3", "ack_rds"}},
			field: "addonSettings.acceptAccountWide[1]", want: "ack_rds is not enabled"},
		"both": {settings: AddonSettings{AcceptAccountWide: []string{"ack_s3"}, PolicyArns: map[string][]string{"ack_s3": {own}}},
			field: "addonSettings.acceptAccountWide[0]", want: "ack_s3 has policyArns too"},
	} {
		t.Run(name, func(t *testing.T) {
			args := validArgs()
			args.Addons = map[string]bool{"ack_s3": true}
			s := tc.settings
			args.AddonSettings = &s
			expectProblem(t, args, tc.field, tc.want, name)
		})
	}
	for _, s := range []AddonSettings{{AcceptAccountWide: []string{"ack_s3"}}, {PolicyArns: map[string][]string{"ack_s3": {own}}}} {
		args := validArgs()
		args.Addons = map[string]bool{"ack_s3": true}
		args.AddonSettings = &s
		if err := Validate(withDefaults(args, "dev", "test"), args); err != nil {
			t.Errorf("ack_s3 with %+v: %v", s, err)
		}
	}
}
