package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

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
