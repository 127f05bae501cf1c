package addons

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// TestAccessLogDestinationOf: the destinations VPC Lattice takes, by kind, with the resource the narrowed policy
// names (a bucket without its prefix); anything else is refused.
func TestAccessLogDestinationOf(t *testing.T) {
	for arn, want := range map[string][2]string{
		"arn:aws:s3:::lattice-logs":                                       {"s3", "arn:aws:s3:::lattice-logs"},
		"arn:aws:s3:::lattice-logs/gateways/prod":                         {"s3", "arn:aws:s3:::lattice-logs"},
		"arn:aws-cn:s3:::logs.example":                                    {"s3", "arn:aws-cn:s3:::logs.example"},
		"arn:aws:logs:us-east-1:111122223333:log-group:/lattice/access":   {"logs", "arn:aws:logs:us-east-1:111122223333:log-group:/lattice/access"},
		"arn:aws:logs:us-east-1:111122223333:log-group:/lattice/access:*": {"logs", "arn:aws:logs:us-east-1:111122223333:log-group:/lattice/access"},
		"arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice":  {"firehose", "arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice"},
		"arn:aws:s3:::*": {},
		"arn:aws:s3:::a": {},
		"arn:aws:logs:us-east-1:111122223333:log-group:*":          {},
		"arn:aws:firehose:us-east-1:111122223333:deliverystream/*": {},
		"arn:aws:sqs:us-east-1:111122223333:queue":                 {},
		"lattice-logs": {},
		"arn:aws:logs:us-east-1:111122223333:log-group:/a arn:aws:s3:::b": {},
	} {
		kind, resource, ok := AccessLogDestinationOf(arn)
		if ok != (want[0] != "") || kind != want[0] || resource != want[1] {
			t.Errorf("AccessLogDestinationOf(%q) = %q, %q, %v; want %q, %q", arn, kind, resource, ok, want[0], want[1])
		}
	}
}

// TestGatewayAccessLogs: the narrowed Gateway API controller policy grants upstream's actions but the access log
// ones on every resource, and those on the destinations only: bucket policies on the buckets, tags on the streams,
// the account's log resource policy only with a log group; without destinations, none of them. The version's
// tagging actions and the service-linked roles stay as upstream has them.
func TestGatewayAccessLogs(t *testing.T) {
	logs := []string{"logs:PutResourcePolicy", "logs:DescribeResourcePolicies"}
	for name, tc := range map[string]struct {
		version      string
		destinations []string
		want         []iampolicy.Statement // after the statement on every resource
	}{
		"no destinations": {version: "1.1.7"},
		"a bucket and a stream, v1.0.4": {version: "1.0.4",
			destinations: []string{"arn:aws:s3:::lattice-logs/gw", "arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice"},
			want: []iampolicy.Statement{
				iampolicy.Allow("AccessLogBuckets", []string{"s3:GetBucketPolicy", "s3:PutBucketPolicy"}, []string{"arn:aws:s3:::lattice-logs"}),
				iampolicy.Allow("AccessLogStreams", []string{"firehose:TagDeliveryStream"}, []string{"arn:aws:firehose:us-east-1:111122223333:deliverystream/lattice"}),
			}},
		"a log group": {version: "2.0.1", destinations: []string{"arn:aws:logs:us-east-1:111122223333:log-group:/lattice"},
			want: []iampolicy.Statement{iampolicy.Allow("AccessLogGroups", logs, []string{"*"})}},
	} {
		t.Run(name, func(t *testing.T) {
			a, _ := Lookup("aws_gateway_api_controller")
			p, err := a.Identity.PolicyFor(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			c := PolicyContext{Partition: "aws", Region: "us-east-1", AccountID: "111122223333", ClusterName: "dev"}
			upstream := p.Inline(c)
			c.NarrowAccessLogs, c.AccessLogDestinations = true, tc.destinations
			got := p.Inline(c)
			all := upstream.Statement[0].Action
			var kept []string
			for _, a := range all {
				if !slices.Contains(gatewayAccessLogActions, a) {
					kept = append(kept, a)
				}
			}
			if len(kept) != len(all)-len(gatewayAccessLogActions) {
				t.Fatalf("upstream's statement %v lacks some of %v", all, gatewayAccessLogActions)
			}
			want := append([]iampolicy.Statement{iampolicy.Allow("", kept, []string{"*"})}, tc.want...)
			want = append(want, upstream.Statement[1:]...)
			if diff := cmp.Diff(want, got.Statement); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
		})
	}
}
