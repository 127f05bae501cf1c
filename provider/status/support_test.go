package status

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/google/go-cmp/cmp"
)

// TestSupportOf: a version's place in EKS's calendar, counted from now: far from the end of standard support,
// within SupportWarningDays of it, past it (extended support, six times the price), and with no date from EKS.
func TestSupportOf(t *testing.T) {
	at := func(s string) *time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return aws.Time(d)
	}
	v134 := types.ClusterVersionInformation{ClusterVersion: aws.String("1.34"), EndOfStandardSupportDate: at("2026-12-02"),
		EndOfExtendedSupportDate: at("2027-12-02"), VersionStatus: types.VersionStatusStandardSupport}
	extended := v134
	extended.VersionStatus = types.VersionStatusExtendedSupport
	deprecated := v134
	deprecated.VersionStatus, deprecated.Status = "", types.ClusterVersionStatusStandardSupport
	for name, tc := range map[string]struct {
		info types.ClusterVersionInformation
		now  string
		want *Support
		text string
	}{
		"far from its end": {info: v134, now: "2026-06-01", want: &Support{Status: "STANDARD_SUPPORT", EndOfStandardSupport: "2026-12-02",
			EndOfExtendedSupport: "2027-12-02", DaysToEndOfStandardSupport: 184, PriceTier: PriceStandard},
			text: "standard support to 2026-12-02 (184 days)"},
		"within 90 days": {info: v134, now: "2026-11-28", want: &Support{Status: "STANDARD_SUPPORT", EndOfStandardSupport: "2026-12-02",
			EndOfExtendedSupport: "2027-12-02", DaysToEndOfStandardSupport: 4, PriceTier: PriceStandard, Flagged: true},
			text: "standard support to 2026-12-02 (4 days)"},
		"past it": {info: extended, now: "2026-12-02", want: &Support{Status: "EXTENDED_SUPPORT", EndOfStandardSupport: "2026-12-02",
			EndOfExtendedSupport: "2027-12-02", DaysToEndOfStandardSupport: 0, PriceTier: PriceExtended, Flagged: true},
			text: "extended support (6x price) to 2027-12-02"},
		"the deprecated status field": {info: deprecated, now: "2026-06-01", want: &Support{Status: "standard-support",
			EndOfStandardSupport: "2026-12-02", EndOfExtendedSupport: "2027-12-02", DaysToEndOfStandardSupport: 184, PriceTier: PriceStandard},
			text: "standard support to 2026-12-02 (184 days)"},
		"no date": {info: types.ClusterVersionInformation{ClusterVersion: aws.String("1.36")}, now: "2026-06-01"},
	} {
		t.Run(name, func(t *testing.T) {
			got := SupportOf(tc.info, *at(tc.now))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if s := got.String(); s != tc.text {
				t.Errorf("shown as %q, want %q", s, tc.text)
			}
		})
	}
}
