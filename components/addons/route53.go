package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// externalDNSDocs is where external-dns publishes its policy.
const externalDNSDocs = "kubernetes-sigs/external-dns docs/tutorials/aws.md"

// externalDNSPolicies are external-dns's, scoped to the given zones: v0.14.0's document (the same from v0.13.6
// to v0.16.1: record reads and zone tags, ListTagsForResource, on every zone) and v0.22.0's (the same from
// v0.20.0: reads and tags, ListTagsForResources, on the zones only). v0.17 to v0.19 are not offered.
var externalDNSPolicies = []Policy{
	{Versions: ">=0.13.6 <0.17.0", Inline: externalDNSV0Policy, Source: externalDNSDocs + " at v0.14.0, scoped to the given zones"},
	{Versions: ">=0.20.0 <0.23.0", Inline: externalDNSPolicy, Source: externalDNSDocs + " at v0.22.0, scoped to the given zones"},
}

// externalDNSV0Policy follows external-dns v0.14's AWS tutorial: record changes in the given hosted zones, and
// listing of zones, records and zone tags, which that document grants on every zone.
func externalDNSV0Policy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("ChangeRecordsInZones", []string{"route53:ChangeResourceRecordSets"}, c.hostedZones()),
		iampolicy.Allow("ListZonesAndRecords", []string{"route53:ListHostedZones", "route53:ListResourceRecordSets",
			"route53:ListTagsForResource"}, []string{"*"}),
	)
}

// externalDNSPolicy follows external-dns's AWS tutorial: record changes and reads in the given hosted zones
// only (it lists records and their zones' tags with ListTagsForResources), and zone listing, which IAM cannot
// scope.
func externalDNSPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("ChangeRecordsInZones", []string{"route53:ChangeResourceRecordSets",
			"route53:ListResourceRecordSets", "route53:ListTagsForResources"}, c.hostedZones()),
		iampolicy.Allow("ListZones", []string{"route53:ListHostedZones"}, []string{"*"}),
	)
}

// certManagerDocs is where cert-manager publishes its Route 53 policy (the website is versioned by folder,
// content/v1.X-docs/configuration/acme/dns01/route53.md).
const certManagerDocs = "cert-manager/website configuration/acme/dns01/route53.md"

// certManagerPolicies are cert-manager's: the v1.0 to v1.16 documents (website d39870e) and the v1.17 to v1.20
// ones (be51ef9), which add the TXT-only condition. FleetCluster adds that condition for the earlier versions
// too: cert-manager has only ever written TXT _acme-challenge records.
var certManagerPolicies = []Policy{
	{Versions: ">=1.0.0 <1.17.0", Inline: certManagerPolicy, Source: certManagerDocs + " at d39870e (v1.14 docs), with the TXT-only condition"},
	{Versions: ">=1.17.0 <1.21.0", Inline: certManagerPolicy, Source: certManagerDocs + " at be51ef9 (v1.17 docs)"},
}

// certManagerPolicy follows cert-manager's Route53 DNS01 documentation: it reads change status, finds zones
// by name, and may change only TXT records (the _acme-challenge records) in the given hosted zones. Without
// zones it can issue no DNS01 certificates and gets no record access.
func certManagerPolicy(c PolicyContext) iampolicy.Document {
	statements := []iampolicy.Statement{
		iampolicy.Allow("GetChange", []string{"route53:GetChange"}, []string{c.arn("route53", "", "", "change/*")}),
	}
	if zones := c.hostedZones(); len(zones) > 0 {
		statements = append(statements,
			iampolicy.Allow("ChangeTXTRecordsInZones", []string{"route53:ChangeResourceRecordSets",
				"route53:ListResourceRecordSets"}, zones).
				When("ForAllValues:StringEquals", "route53:ChangeResourceRecordSetsRecordTypes", []string{"TXT"}))
	}
	statements = append(statements,
		iampolicy.Allow("FindZones", []string{"route53:ListHostedZonesByName"}, []string{"*"}))
	return iampolicy.New(statements...)
}
