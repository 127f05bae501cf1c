package capabilities

import (
	"slices"
	"strings"
	"time"
)

// calendar is EKS's Kubernetes release calendar: each minor version's EKS release, end of standard support and end
// of extended support, at the beginning of the day in UTC (EKS User Guide, "Understand the Kubernetes version
// lifecycle on EKS", Amazon EKS Kubernetes release calendar, as of awsdocs/amazon-eks-user-guide 0138560).
var calendar = []struct {
	version                  string
	release, standard, extra string
}{
	{"1.29", "2024-01-23", "2025-03-23", "2026-03-23"},
	{"1.30", "2024-05-23", "2025-07-23", "2026-07-23"},
	{"1.31", "2024-09-26", "2025-11-26", "2026-11-26"},
	{"1.32", "2025-01-23", "2026-03-23", "2027-03-23"},
	{"1.33", "2025-05-29", "2026-07-29", "2027-07-29"},
	{"1.34", "2025-10-02", "2026-12-02", "2027-12-02"},
}

// SupportDates are version's end of standard and of extended support in the offline EKS's calendar; ok is false for
// a version it does not list.
func SupportDates(version string) (standard, extended time.Time, ok bool) {
	for _, v := range calendar {
		if v.version == version {
			return day(v.standard), day(v.extra), true
		}
	}
	return time.Time{}, time.Time{}, false
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err) // the calendar above: a test of this package fails first
	}
	return t
}

// describeClusterVersions answers DescribeClusterVersions for the versions the query names (all released ones when
// none), each with its dates (epoch seconds, as restJson1 carries timestamps) and its support status now.
func (c call) describeClusterVersions() {
	asked := c.r.URL.Query()["clusterVersions"]
	now := time.Now()
	out := []map[string]any{}
	for _, v := range calendar {
		if len(asked) > 0 && !slices.Contains(asked, v.version) || now.Before(day(v.release)) {
			continue
		}
		status := "STANDARD_SUPPORT"
		switch {
		case !now.Before(day(v.extra)):
			status = "UNSUPPORTED"
		case !now.Before(day(v.standard)):
			status = "EXTENDED_SUPPORT"
		}
		out = append(out, map[string]any{"clusterVersion": v.version, "clusterType": "eks",
			"releaseDate": day(v.release).Unix(), "endOfStandardSupportDate": day(v.standard).Unix(),
			"endOfExtendedSupportDate": day(v.extra).Unix(), "versionStatus": status,
			"status": strings.ReplaceAll(strings.ToLower(status), "_", "-")})
	}
	c.reply(map[string]any{"clusterVersions": out})
}
