package addons

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blang/semver"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// AnyVersion is the range of a policy that holds for every version of its add-on: AWS managed policies, which
// AWS keeps in step with the add-on.
const AnyVersion = ">=0.0.0"

// Policy is an add-on's IAM policy as its upstream project publishes it for a range of the add-on's versions.
type Policy struct {
	// Versions is the range of the add-on's application versions (not chart versions) the upstream document is
	// published for, in github.com/blang/semver range syntax: ">=0.34.0 <0.35.0".
	Versions string
	// ManagedPolicies are AWS managed policy names, attached as arn:<partition>:iam::aws:policy/<name>.
	ManagedPolicies []string
	// Inline builds the inline policy, nil when managed policies are the published recommendation.
	Inline func(PolicyContext) iampolicy.Document
	// Source is the upstream document, at the version it was taken from.
	Source string
}

// Covers tells whether the policy's range holds version; version must parse (ParseVersion).
func (p Policy) Covers(version semver.Version) bool {
	r, err := semver.ParseRange(p.Versions)
	if err != nil {
		// The ranges are constants of the catalogue; TestRowsAreComplete parses every one.
		panic(fmt.Sprintf("policy range %q: %v", p.Versions, err))
	}
	return r(version)
}

// versionPattern splits an add-on version into up to three numbers and the rest: the image tags of some
// add-ons carry a fourth part or a build (aws-for-fluent-bit 2.31.12.20231011, CloudWatch agent
// 1.300032.2b361).
var versionPattern = regexp.MustCompile(`^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+][0-9A-Za-z.+-]+|\.\d+|[a-z][0-9a-z]*)?$`)

// ParseVersion reads an add-on version as its chart or image tag spells it: "0.34.1", "v0.34.1", "1.14"
// (missing parts are zero), "1.2.3-rc.1" (a pre-release, before 1.2.3), or with a fourth part or build suffix,
// "2.31.12.20231011" or "1.300032.2b361", which ranges ignore (the same as 2.31.12 and 1.300032.2).
func ParseVersion(v string) (semver.Version, error) {
	m := versionPattern.FindStringSubmatch(v)
	if m == nil {
		return semver.Version{}, fmt.Errorf("want a version such as 1.2.3 or v1.2.3, optionally with -pre-release or +build")
	}
	core := m[1] + "." + or(m[2], "0") + "." + or(m[3], "0")
	if rest := m[4]; strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "+") {
		return semver.Parse(core + rest)
	}
	return semver.Parse(core)
}

// PolicyFor returns the policy published for the add-on's version. A version that does not parse, or that no
// policy covers, is an error naming the supported ranges. An empty version (the EBS CSI driver's, an EKS
// managed add-on at the version EKS picks) takes the one policy that covers every version.
func (id Identity) PolicyFor(version string) (Policy, error) {
	if version == "" && len(id.Policies) == 1 && id.Policies[0].Versions == AnyVersion {
		return id.Policies[0], nil
	}
	v, err := ParseVersion(version)
	if err != nil {
		return Policy{}, fmt.Errorf("version %q is not a semantic version (for example 1.2.3 or v1.2.3): %v", version, err)
	}
	for _, p := range id.Policies {
		if p.Covers(v) {
			return p, nil
		}
	}
	return Policy{}, fmt.Errorf("no upstream policy is published for version %s; supported: %s", version, id.Ranges())
}

// Ranges lists the version ranges of the identity's policies, "a; b".
func (id Identity) Ranges() string {
	ranges := make([]string, len(id.Policies))
	for i, p := range id.Policies {
		ranges[i] = p.Versions
	}
	return strings.Join(ranges, "; ")
}

// PodIdentitySupport says from which version an add-on takes EKS Pod Identity credentials: the version from
// which its AWS SDK has the container credential provider Pod Identity serves (AWS SDK for Go v1.47.11, Go v2
// config v1.18.0 and the other minimums of the EKS User Guide, pod-id-minimum-sdk.html), and the source.
type PodIdentitySupport struct {
	// Since is the first application version that supports it; "" when no version does.
	Since string
	// Source is where that is read: the add-on's go.mod at that tag, or its documentation or release notes.
	Source string
}

// Supports tells whether version takes Pod Identity credentials.
func (s PodIdentitySupport) Supports(version string) bool {
	if s.Since == "" {
		return false
	}
	v, err := ParseVersion(version)
	since, err2 := ParseVersion(s.Since)
	return err == nil && err2 == nil && v.GTE(since)
}
