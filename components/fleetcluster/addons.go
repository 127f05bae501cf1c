package fleetcluster

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// KnownAddons lists every add-on name FleetClusterArgs.Addons accepts, sorted: the rows of the GitOps Bridge
// add-on contract (components/addons).
func KnownAddons() []string { return addons.Names() }

// enabledAddons are the contract rows of the enabled add-ons, sorted by name for a stable resource order.
func enabledAddons(enabled map[string]bool) []addons.Addon {
	var out []addons.Addon
	for _, name := range slices.Sorted(maps.Keys(enabled)) {
		if a, ok := addons.Lookup(name); ok && enabled[name] {
			out = append(out, a)
		}
	}
	return out
}

// addonsWithImplied is the add-on map with the add-ons enabled ones imply (the EBS CSI driver implies the
// template's aws_ebs_csi_resources storage classes), the map that becomes the enable_<addon> labels.
func addonsWithImplied(enabled map[string]bool) map[string]bool {
	out := maps.Clone(enabled)
	if out == nil {
		out = map[string]bool{}
	}
	for _, a := range enabledAddons(enabled) {
		for _, implied := range a.Implies {
			out[implied] = true
		}
	}
	return out
}

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
