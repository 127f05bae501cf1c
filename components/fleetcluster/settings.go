package fleetcluster

import (
	"encoding/json"
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// Default add-on settings (terraform-aws-eks-blueprints-addons defaults where it has one).
const (
	defaultLogRetentionDays  = 90
	defaultExternalDNSPolicy = "upsert-only"
)

// defaultLogGroupName is Fluent Bit's log group when none is given.
func defaultLogGroupName(cluster string) string {
	return fmt.Sprintf("/aws/eks/%s/aws-fluentbit-logs", cluster)
}

// controlPlaneLogGroup is the group EKS writes control-plane logs to; no add-on may write or shorten it.
func controlPlaneLogGroup(cluster string) string { return fmt.Sprintf("/aws/eks/%s/cluster", cluster) }

// withAddonDefaults fills the defaults of the settings of enabled add-ons. s may be nil.
func withAddonDefaults(s *AddonSettings, cluster string, enabled map[string]bool) AddonSettings {
	var out AddonSettings
	if s != nil {
		out = *s
	}
	if enabled["aws_for_fluentbit"] {
		fb := FluentBitSettings{}
		if out.AwsForFluentbit != nil {
			fb = *out.AwsForFluentbit
		}
		if fb.LogGroupName == "" {
			fb.LogGroupName = defaultLogGroupName(cluster)
		}
		if fb.RetentionInDays == 0 {
			fb.RetentionInDays = defaultLogRetentionDays
		}
		out.AwsForFluentbit = &fb
	}
	if enabled["external_secrets"] {
		es := ExternalSecretsSettings{}
		if out.ExternalSecrets != nil {
			es = *out.ExternalSecrets
		}
		if es.SecretsPrefix == "" {
			es.SecretsPrefix = cluster + "/"
		}
		out.ExternalSecrets = &es
	}
	if enabled["velero"] {
		v := VeleroSettings{}
		if out.Velero != nil {
			v = *out.Velero
		}
		if v.BucketPrefix == "" {
			v.BucketPrefix = cluster
		}
		out.Velero = &v
	}
	if out.ExternalDns != nil && out.ExternalDns.Policy == "" {
		dns := *out.ExternalDns
		dns.Policy = defaultExternalDNSPolicy
		out.ExternalDns = &dns
	}
	return out
}

// scope adds what the add-on's settings scope its policy by to c: hosted zones (external-dns, cert-manager),
// the secrets prefix and keys (external-secrets), the certificate authorities (aws-privateca-issuer), the access
// log destinations (the Gateway API controller, whose policy they narrow).
func (s AddonSettings) scope(addon string, c *addons.PolicyContext) {
	switch {
	case addon == "external_dns" && s.ExternalDns != nil:
		c.HostedZoneIDs = s.ExternalDns.HostedZoneIds
	case addon == "cert_manager" && s.CertManager != nil:
		c.HostedZoneIDs = s.CertManager.HostedZoneIds
	case addon == "external_secrets" && s.ExternalSecrets != nil:
		c.SecretsPrefix, c.KMSKeyArns = s.ExternalSecrets.SecretsPrefix, s.ExternalSecrets.KmsKeyArns
	case addon == "aws_privateca_issuer" && s.AwsPrivatecaIssuer != nil:
		c.CertificateAuthorityArns = s.AwsPrivatecaIssuer.CertificateAuthorityArns
	case addon == "aws_gateway_api_controller" && s.GatewayApiController != nil:
		c.NarrowAccessLogs, c.AccessLogDestinations = true, s.GatewayApiController.AccessLogDestinations
	}
}

// metadata are the add-on's addons.Addon.SettingKeys with their values: external-dns's domain filters, as the
// YAML flow list its ApplicationSet splices into the values, and its record policy.
func (s AddonSettings) metadata(addon string) map[string]string {
	if addon != "external_dns" || s.ExternalDns == nil {
		return nil
	}
	filters, _ := json.Marshal(s.ExternalDns.DomainFilters)
	return map[string]string{
		addons.ExternalDNSDomainFiltersKey: string(filters),
		addons.ExternalDNSPolicyKey:        s.ExternalDns.Policy,
	}
}
