package rollout

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// EKS tells what EKS says of clusters: each one's status, Kubernetes version and upgrade insights that do not pass.
type EKS interface {
	Describe(ctx context.Context, clusters []Cluster) (map[string]status.EKS, error)
}

// StatusEKS is EKS through the AWS SDK, asked as fleet status asks it (status.WithEKS: DescribeCluster, then
// ListInsights of category UPGRADE_READINESS); Client gives a region's API.
type StatusEKS struct {
	Client func(region string) (status.EKSAPI, error)
}

// Describe asks EKS of each cluster; one it could not be asked of is an error naming it.
func (e StatusEKS) Describe(ctx context.Context, clusters []Cluster) (map[string]status.EKS, error) {
	in := make([]status.Cluster, len(clusters))
	for i, c := range clusters {
		in[i] = status.Cluster{Name: c.Name, Region: c.Region}
	}
	described, unreachable := status.WithEKS(ctx, in, false, e.Client)
	if len(unreachable) > 0 {
		return nil, errors.New(strings.Join(unreachable, "; "))
	}
	out := map[string]status.EKS{}
	for _, c := range described {
		out[c.Name] = *c.EKS
	}
	return out, nil
}

// minorPattern is a Kubernetes minor version as FleetCluster's version takes it ("1.34").
var minorPattern = regexp.MustCompile(`^1\.(\d{2})$`)

// checkTarget refuses, all at once and before anything changes, a rollout whose revision is not of its field's form:
// for an add-ons revision a full commit SHA; for a Kubernetes version a minor one above or equal to every cluster's
// (EKS upgrades a control plane one minor at a time and never down), with EKS to ask.
func checkTarget(o Options, clusters []Cluster) error {
	switch o.Field {
	case AddonsRepoRevision:
		if !gitopsbridge.IsCommit(o.Revision) {
			return fmt.Errorf("revision %q: want a full commit SHA of the add-ons repository", o.Revision)
		}
		return nil
	case KubernetesVersion:
	default:
		return fmt.Errorf("field %q: want %s or %s", o.Field, AddonsRepoRevision, KubernetesVersion)
	}
	target, ok := minor(o.Revision)
	if !ok {
		return fmt.Errorf("version %q: want a Kubernetes minor version such as 1.34", o.Revision)
	}
	var problems []string
	if o.EKS == nil {
		problems = append(problems, "a Kubernetes rollout needs EKS to ask (Options.EKS)")
	}
	for _, c := range clusters {
		if now, ok := minor(c.Version); ok && (target < now || target > now+1) {
			problems = append(problems, fmt.Sprintf("cluster %s runs %s: EKS upgrades one minor at a time and never "+
				"down (1.%d next)", c.Name, c.Version, now+1))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("version %s: %s", o.Revision, strings.Join(problems, "; "))
	}
	return nil
}

// IsMinorVersion tells whether version is a Kubernetes minor version as a cluster's entry takes it ("1.34").
func IsMinorVersion(version string) bool {
	_, ok := minor(version)
	return ok
}

// minor is the minor number of a version "1.NN".
func minor(version string) (int, bool) {
	m := minorPattern.FindStringSubmatch(version)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	return n, true
}

// blocked are those of clusters with an upgrade insight in ERROR, EKS's name and reason for each as the message:
// EKS's upgrade readiness says the next version would break something there.
func blocked(ctx context.Context, eks EKS, clusters []Cluster) ([]failure, error) {
	if len(clusters) == 0 {
		return nil, nil
	}
	described, err := eks.Describe(ctx, clusters)
	if err != nil {
		return nil, err
	}
	var out []failure
	for _, c := range clusters {
		var errs []string
		for _, in := range described[c.Name].Insights {
			if in.Status == "ERROR" {
				errs = append(errs, fmt.Sprintf("%q (%s)", in.Name, in.Reason))
			}
		}
		if len(errs) > 0 {
			out = append(out, failure{c.Name, Health{State: Failing,
				Message: "upgrade insight in ERROR: " + strings.Join(errs, ", ")}})
		}
	}
	return out, nil
}

// upgraded waits until EKS says each of clusters is ACTIVE at o.Revision (the `up` upgraded its control plane, then
// its add-ons and node groups, in that order), bakes, and returns those that failed: FAILED, or not there when
// o.Timeout ran out.
func upgraded(ctx context.Context, o Options, clusters []Cluster) ([]failure, error) {
	if len(clusters) == 0 {
		return nil, nil
	}
	return poll(ctx, o, func() (failed, pending []failure, err error) {
		described, err := o.EKS.Describe(ctx, clusters)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range clusters {
			switch e := described[c.Name]; {
			case e.Status == "FAILED":
				failed = append(failed, failure{c.Name, Health{State: Failing, Message: "EKS reports the cluster FAILED at " + e.Version}})
			case e.Status != "ACTIVE" || e.Version != o.Revision:
				pending = append(pending, failure{c.Name, Health{State: Pending, Message: fmt.Sprintf(
					"not ACTIVE at %s after %s (EKS: %s %s)", o.Revision, o.Timeout, e.Status, e.Version)}})
			}
		}
		return failed, pending, nil
	})
}

// notRolledBack says what a failed Kubernetes wave leaves where it is: the new version stays pinned on clusters (an
// `up` of the old one would ask EKS for a downgrade, which UpdateClusterVersion refuses), with their last good
// version in the record, and what EKS's own rollback would and would not take back.
func notRolledBack(clusters []Cluster, rec *Record, version string) string {
	var was []string
	for _, c := range clusters {
		was = append(was, c.Name+" "+rec.LastGood[c.Name])
	}
	slices.Sort(was)
	return fmt.Sprintf("Kubernetes %s is not rolled back (was: %s): EKS's version rollback takes a control plane "+
		"back one minor within 7 days of its upgrade, not its managed node groups or EKS add-ons (Amazon EKS User "+
		"Guide, rollback-cluster), and the fleet's AWS provider cannot ask for it; the stack keeps %s for them",
		version, strings.Join(was, ", "), version)
}
