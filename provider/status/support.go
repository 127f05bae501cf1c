package status

import (
	"fmt"
	"math"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// SupportWarningDays is how many days before the end of its Kubernetes version's standard support a cluster is
// flagged: past that date EKS bills the control plane at the extended support price, six times the standard one
// (EKS User Guide, "Understand the Kubernetes version lifecycle on EKS"), unless the cluster is upgraded first.
const SupportWarningDays = 90

// Price tiers of an EKS control plane: standard while its version is in standard support, extended after.
const (
	PriceStandard = "standard"
	PriceExtended = "extended"
)

// Support is where a cluster's Kubernetes version stands in EKS's support calendar (DescribeClusterVersions).
type Support struct {
	// Status is EKS's versionStatus: STANDARD_SUPPORT, EXTENDED_SUPPORT or UNSUPPORTED.
	Status string `json:"status"`
	// EndOfStandardSupport and EndOfExtendedSupport are the version's dates, YYYY-MM-DD in UTC.
	EndOfStandardSupport string `json:"endOfStandardSupport"`
	EndOfExtendedSupport string `json:"endOfExtendedSupport"`
	// DaysToEndOfStandardSupport counts whole days from now to the end of standard support; negative once past it.
	DaysToEndOfStandardSupport int `json:"daysToEndOfStandardSupport"`
	// PriceTier is the control plane's price: PriceStandard, or PriceExtended (six times it) once standard support
	// has ended.
	PriceTier string `json:"priceTier"`
	// Flagged is true within SupportWarningDays of the end of standard support, and after it.
	Flagged bool `json:"flagged"`
}

// SupportOf reads one version's calendar entry at now; nil when EKS gave no end of standard support.
func SupportOf(v types.ClusterVersionInformation, now time.Time) *Support {
	if v.EndOfStandardSupportDate == nil {
		return nil
	}
	end := aws.ToTime(v.EndOfStandardSupportDate).UTC()
	s := &Support{Status: string(v.VersionStatus), EndOfStandardSupport: end.Format(time.DateOnly),
		DaysToEndOfStandardSupport: int(math.Floor(end.Sub(now).Hours() / 24)), PriceTier: PriceStandard}
	if s.Status == "" {
		s.Status = string(v.Status) // the field EKS deprecated for versionStatus
	}
	if v.EndOfExtendedSupportDate != nil {
		s.EndOfExtendedSupport = aws.ToTime(v.EndOfExtendedSupportDate).UTC().Format(time.DateOnly)
	}
	if !now.Before(end) {
		s.PriceTier = PriceExtended
	}
	s.Flagged = s.DaysToEndOfStandardSupport <= SupportWarningDays
	return s
}

// String is "standard support to 2026-12-02 (4 days)", or "extended support (6x price) to 2027-07-29" once past it.
func (s *Support) String() string {
	if s == nil {
		return ""
	}
	if s.PriceTier == PriceExtended {
		return fmt.Sprintf("extended support (6x price) to %s", s.EndOfExtendedSupport)
	}
	return fmt.Sprintf("standard support to %s (%d days)", s.EndOfStandardSupport, s.DaysToEndOfStandardSupport)
}
