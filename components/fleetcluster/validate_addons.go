package fleetcluster

import (
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/util/validation"
)

var (
	// Route 53 hosted zone IDs: "Z" and up to 32 upper-case letters and digits.
	hostedZoneIDPattern = regexp.MustCompile(`^Z[A-Z0-9]{1,32}$`)
	// CloudWatch Logs CreateLogGroup: 1-512 characters of [.\-_/#A-Za-z0-9].
	logGroupNamePattern = regexp.MustCompile(`^[.\-_/#A-Za-z0-9]{1,512}$`)
	// S3 bucket naming rules (general purpose buckets): 3-63 characters of a-z, 0-9, '.' and '-', starting and
	// ending with a letter or digit.
	bucketNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	// Secrets Manager secret names: letters, digits and /_+=.@-.
	secretsPrefixPattern = regexp.MustCompile(`^[A-Za-z0-9/_+=.@-]{1,512}$`)
	kmsKeyARNPattern     = regexp.MustCompile(`^arn:aws(-[a-z]+)*:kms:[a-z0-9-]+:\d{12}:key/[A-Za-z0-9-]+$`)
	privateCAARNPattern  = regexp.MustCompile(`^arn:aws(-[a-z]+)*:acm-pca:[a-z0-9-]+:\d{12}:certificate-authority/[A-Za-z0-9-]+$`)
	// IAM policy ARNs: arn:<partition>:iam::<account or "aws">:policy/<path><name> (IAM identifiers).
	policyARNPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)*:iam::(aws|\d{12}):policy/[\w+=,.@/-]{1,512}$`)
)

// logRetentionDays are the retention periods CloudWatch Logs PutRetentionPolicy accepts.
var logRetentionDays = []int{1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557,
	2922, 3288, 3653}

// externalDNSPolicies are external-dns's --policy values FleetCluster offers.
var externalDNSPolicies = []string{"upsert-only", "sync"}

// validateAddons checks add-on names against the contract and each add-on's settings: settings only for
// enabled add-ons, required settings present, every value in the form AWS accepts.
func validateAddons(ps *problems.List, a FleetClusterArgs) {
	known := KnownAddons()
	for _, name := range slices.Sorted(maps.Keys(a.Addons)) {
		if !slices.Contains(known, name) {
			hint := "known GitOps Bridge add-ons: " + strings.Join(known, ", ")
			if why, ok := addons.NotOffered[name]; ok {
				hint = "not offered: " + why
			}
			ps.Add(problems.Key("addons", name), "unknown add-on; %s", hint)
		}
	}
	validateAddonVersions(ps, a)
	if !slices.Contains(identities, a.Identity) {
		ps.Add("identity", "%q is not an identity mode; expected one of %s", a.Identity, strings.Join(identities, ", "))
	}
	for _, msg := range validation.IsValidLabelValue(a.ClusterName) {
		ps.Add("clusterName", "%q is also the label %s of the Argo CD cluster secret, which the GitOps Bridge "+
			"ApplicationSets select on: %s", a.ClusterName, addons.ClusterNameKey, msg)
	}
	s := a.AddonSettings
	if s == nil {
		s = &AddonSettings{}
	}
	on := func(field, addon string, set bool) bool {
		if set && !a.Addons[addon] {
			ps.Add("addonSettings."+field, "%s is not enabled in addons; remove its settings or enable it", addon)
		}
		return set && a.Addons[addon]
	}
	required := func(field, addon string, set bool, why string) {
		if a.Addons[addon] && !set {
			ps.Add("addonSettings."+field, "is required when %s is enabled: %s", addon, why)
		}
	}
	validatePolicyArns(ps, s.PolicyArns, s.AcceptAccountWide, a.Addons)
	if on("awsForFluentbit", "aws_for_fluentbit", s.AwsForFluentbit != nil) {
		validateFluentBit(ps, s.AwsForFluentbit, a.ClusterName)
	}
	if on("certManager", "cert_manager", s.CertManager != nil) {
		checkZones(ps, "addonSettings.certManager.hostedZoneIds", s.CertManager.HostedZoneIds, false)
	}
	required("externalDns", "external_dns", s.ExternalDns != nil,
		"its ApplicationSet reads external_dns_domain_filters, and its role needs the hosted zones it may change")
	if on("externalDns", "external_dns", s.ExternalDns != nil) {
		validateExternalDNS(ps, s.ExternalDns)
	}
	if on("externalSecrets", "external_secrets", s.ExternalSecrets != nil) {
		es := s.ExternalSecrets
		if es.SecretsPrefix != "" {
			CheckSecretsPrefix(ps, "addonSettings.externalSecrets.secretsPrefix", es.SecretsPrefix)
		}
		checkEach(ps, "addonSettings.externalSecrets.kmsKeyArns", es.KmsKeyArns, kmsKeyARNPattern,
			"arn:<partition>:kms:<region>:<account>:key/<key id>")
	}
	if on("velero", "velero", s.Velero != nil) {
		validateVelero(ps, s.Velero)
	}
	if on("gatewayApiController", "aws_gateway_api_controller", s.GatewayApiController != nil) {
		validateGatewayAPIController(ps, s)
	}
	required("awsPrivatecaIssuer", "aws_privateca_issuer", s.AwsPrivatecaIssuer != nil,
		"the issuer's role is limited to the certificate authorities named there")
	if on("awsPrivatecaIssuer", "aws_privateca_issuer", s.AwsPrivatecaIssuer != nil) {
		f := "addonSettings.awsPrivatecaIssuer.certificateAuthorityArns"
		if len(s.AwsPrivatecaIssuer.CertificateAuthorityArns) == 0 {
			ps.Add(f, "must name at least one certificate authority")
		}
		checkEach(ps, f, s.AwsPrivatecaIssuer.CertificateAuthorityArns, privateCAARNPattern,
			"arn:<partition>:acm-pca:<region>:<account>:certificate-authority/<id>")
	}
}

// validateGatewayAPIController checks the Gateway API controller's access log destinations: each an S3 bucket,
// CloudWatch Logs log group or Firehose stream ARN, none twice; and that the narrowed policy is the one written
// (not replaced by policyArns).
func validateGatewayAPIController(ps *problems.List, s *AddonSettings) {
	const f = "addonSettings.gatewayApiController"
	if _, own := s.PolicyArns["aws_gateway_api_controller"]; own {
		ps.Add(f, "narrows the upstream policy, which addonSettings.policyArns.aws_gateway_api_controller replaces; keep one of them")
	}
	seen := map[string]bool{}
	for i, d := range s.GatewayApiController.AccessLogDestinations {
		field := problems.Index(f+".accessLogDestinations", i)
		if _, _, ok := addons.AccessLogDestinationOf(d); !ok {
			ps.Add(field, "%q is not an access log destination VPC Lattice takes: arn:<partition>:s3:::<bucket>[/<prefix>], "+
				"arn:<partition>:logs:<region>:<account>:log-group:<name> or "+
				"arn:<partition>:firehose:<region>:<account>:deliverystream/<name>", d)
		}
		if seen[d] {
			ps.Add(field, "%q is listed twice", d)
		}
		seen[d] = true
	}
}

func validateFluentBit(ps *problems.List, fb *FluentBitSettings, cluster string) {
	const f = "addonSettings.awsForFluentbit"
	if fb.LogGroupName != "" && !logGroupNamePattern.MatchString(fb.LogGroupName) {
		ps.Add(f+".logGroupName", "%q must be 1-512 letters, digits and ._-/# (CloudWatch Logs)", fb.LogGroupName)
	}
	// The role may write the group and every group below it (<group>/*, where the template's logGroupTemplate
	// puts workload logs), so a group above the control plane's would reach it too.
	if g, cp := fb.LogGroupName, controlPlaneLogGroup(cluster); g != "" && (g == cp || strings.HasPrefix(g, cp+"/") || strings.HasPrefix(cp, g+"/")) {
		ps.Add(f+".logGroupName", "%q is, contains or is below the EKS control-plane log group %s (the role may write "+
			"<group> and <group>/*); Fluent Bit gets a group of its own, such as /aws/eks/%s/aws-fluentbit-logs", g, cp, cluster)
	}
	if g, own := fb.LogGroupName, "/aws/eks/"+cluster+"/"; strings.HasPrefix(g, "/aws/eks/") && !strings.HasPrefix(g, own) {
		ps.Add(f+".logGroupName", "%q is under another EKS cluster's groups (/aws/eks/<cluster>/, where EKS writes "+
			"that cluster's control-plane logs): under /aws/eks/ only this cluster's %s* is Fluent Bit's", g, own)
	}
	if fb.RetentionInDays != 0 && !slices.Contains(logRetentionDays, fb.RetentionInDays) {
		ps.Add(f+".retentionInDays", "%d is not a CloudWatch Logs retention; expected one of %s", fb.RetentionInDays,
			strings.Trim(fmt.Sprint(logRetentionDays), "[]"))
	}
}

func validateExternalDNS(ps *problems.List, dns *ExternalDNSSettings) {
	const f = "addonSettings.externalDns"
	checkZones(ps, f+".hostedZoneIds", dns.HostedZoneIds, true)
	if len(dns.DomainFilters) == 0 {
		ps.Add(f+".domainFilters", "must list at least one domain, such as example.com")
	}
	for i, d := range dns.DomainFilters {
		for _, msg := range validation.IsDNS1123Subdomain(d) {
			ps.Add(problems.Index(f+".domainFilters", i), "%q is not a domain name such as example.com: %s", d, msg)
		}
	}
	if dns.Policy != "" && !slices.Contains(externalDNSPolicies, dns.Policy) {
		ps.Add(f+".policy", "%q is not one of %s", dns.Policy, strings.Join(externalDNSPolicies, ", "))
	}
}

func validateVelero(ps *problems.List, v *VeleroSettings) {
	const f = "addonSettings.velero"
	if n := v.BucketName; n != "" {
		_, ipErr := netip.ParseAddr(n)
		switch {
		case !bucketNamePattern.MatchString(n) || strings.Contains(n, ".."):
			ps.Add(f+".bucketName", "%q is not an S3 bucket name: 3-63 lower-case letters, digits, '.' and '-', "+
				"starting and ending with a letter or digit, no '..' (S3 bucket naming rules)", n)
		case ipErr == nil:
			ps.Add(f+".bucketName", "%q is formatted as an IP address, which S3 refuses as a bucket name", n)
		case strings.HasPrefix(n, "xn--") || strings.HasSuffix(n, "-s3alias") || strings.HasSuffix(n, "--ol-s3"):
			ps.Add(f+".bucketName", "%q uses a prefix or suffix S3 reserves (xn--, -s3alias, --ol-s3)", n)
		}
	}
	if p := v.BucketPrefix; strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		ps.Add(f+".bucketPrefix", "%q must not start or end with '/': Velero joins it to the bucket itself", p)
	}
}

// checkZones reports hosted zone IDs that are not of Route 53's form, and an empty list where one is needed.
func checkZones(ps *problems.List, field string, zones []string, needed bool) {
	if needed && len(zones) == 0 {
		ps.Add(field, "must list at least one Route 53 hosted zone ID, such as Z0123456789ABCDEFGHIJ")
	}
	checkEach(ps, field, zones, hostedZoneIDPattern, "a Route 53 hosted zone ID: Z and up to 32 upper-case letters and digits")
}

// checkEach reports every value of a list field that does not match pattern.
func checkEach(ps *problems.List, field string, values []string, pattern *regexp.Regexp, form string) {
	for i, v := range values {
		if !pattern.MatchString(v) {
			ps.Add(problems.Index(field, i), "%q is not %s", v, form)
		}
	}
}

// validateAddonVersions checks each given version: of an add-on with an AWS identity, and covered by one of its
// upstream policies. Versions of add-ons that are not enabled are checked too (a fleet's defaults name them for
// every cluster), but build nothing.
func validateAddonVersions(ps *problems.List, a FleetClusterArgs) {
	for _, name := range slices.Sorted(maps.Keys(a.AddonVersions)) {
		field := problems.Key("addonVersions", name)
		addon, ok := addons.Lookup(name)
		switch {
		case !ok:
			ps.Add(field, "unknown add-on; known GitOps Bridge add-ons: %s", strings.Join(KnownAddons(), ", "))
		case addon.Identity == nil:
			ps.Add(field, "%s calls no AWS API, so no policy depends on its version; remove the entry", name)
		default:
			if _, err := addon.Identity.PolicyFor(a.AddonVersions[name]); err != nil {
				ps.Add(field, "%v", err)
			}
		}
	}
}

// validatePolicyArns checks the replacements of account-wide upstream policies: of enabled add-ons whose
// upstream policy is account-wide, at least one policy ARN each, each in IAM's ARN form; and that every enabled
// account-wide add-on has its policies or is accepted as it is (accepted: enabled, account-wide, not replaced).
func validatePolicyArns(ps *problems.List, given map[string][]string, accepted []string, enabled map[string]bool) {
	accountWide := AccountWideAddons()
	for _, name := range accountWide {
		if _, own := given[name]; enabled[name] && !own && !slices.Contains(accepted, name) {
			ps.Add(problems.Key("addonSettings.policyArns", name), "is required: %s's upstream policy reaches every "+
				"resource of its service in the account; give policies narrowed to what it should manage, or accept "+
				"the upstream policy by listing %s in addonSettings.acceptAccountWide", name, name)
		}
	}
	for i, name := range accepted {
		field := problems.Index("addonSettings.acceptAccountWide", i)
		_, own := given[name]
		switch {
		case !slices.Contains(accountWide, name):
			ps.Add(field, "%q is not an add-on whose upstream policy is account-wide: %s", name, strings.Join(accountWide, ", "))
		case !enabled[name]:
			ps.Add(field, "%s is not enabled in addons; remove it or enable the add-on", name)
		case own:
			ps.Add(field, "%s has policyArns too; keep one of them", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		field := problems.Key("addonSettings.policyArns", name)
		switch {
		case !slices.Contains(accountWide, name):
			ps.Add(field, "only an add-on whose upstream policy is account-wide takes policies of yours: %s",
				strings.Join(accountWide, ", "))
			continue
		case !enabled[name]:
			ps.Add(field, "%s is not enabled in addons; remove its policies or enable it", name)
		case len(given[name]) == 0:
			ps.Add(field, "must list at least one policy ARN; remove the entry to keep the upstream policy")
		}
		for i, arn := range given[name] {
			if !policyARNPattern.MatchString(arn) {
				ps.Add(problems.Index(field, i), "%q is not an IAM policy ARN; expected arn:<partition>:iam::<account>:policy/<name>", arn)
			}
		}
	}
}

// AccountWideAddons are the add-ons whose upstream policy is account-wide (addons.Identity.AccountWide), in the
// catalogue's order.
func AccountWideAddons() []string {
	var out []string
	for _, a := range addons.All() {
		if a.Identity != nil && a.Identity.AccountWide {
			out = append(out, a.Name)
		}
	}
	return out
}

// CheckSecretsPrefix adds a problem at field when prefix is not a name prefix of Secrets Manager secrets and SSM
// parameters that narrows anything: 1-512 letters, digits and /_+=.@- (Secrets Manager secret names), not made of
// slashes only ("/" reaches every secret and parameter named as a path, which hierarchical SSM parameters all are).
func CheckSecretsPrefix(ps *problems.List, field, prefix string) {
	switch {
	case !secretsPrefixPattern.MatchString(prefix):
		ps.Add(field, "%q must be 1-512 letters, digits and /_+=.@- (Secrets Manager secret names)", prefix)
	case strings.Trim(prefix, "/") == "":
		ps.Add(field, "%q reaches every secret and parameter named as a path: name a folder (\"payments/\")", prefix)
	}
}
