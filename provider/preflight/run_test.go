package preflight

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/aws/smithy-go"
)

var today = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// calendar is EKS's calendar as the fake answers it: version -> end of standard, end of extended support.
func calendar() map[string]ekstypes.ClusterVersionInformation {
	out := map[string]ekstypes.ClusterVersionInformation{}
	for v, d := range map[string][2]string{"1.29": {"2025-03-23", "2026-03-23"}, "1.33": {"2026-07-29", "2027-07-29"},
		"1.34": {"2026-12-02", "2027-12-02"}, "1.35": {"2027-03-27", "2028-03-27"}} {
		std, _ := time.Parse(time.DateOnly, d[0])
		ext, _ := time.Parse(time.DateOnly, d[1])
		status := ekstypes.VersionStatusStandardSupport
		switch {
		case !today.Before(ext):
			status = ekstypes.VersionStatusUnsupported
		case !today.Before(std):
			status = ekstypes.VersionStatusExtendedSupport
		}
		out[v] = ekstypes.ClusterVersionInformation{ClusterVersion: aws.String(v), VersionStatus: status,
			EndOfStandardSupportDate: aws.Time(std), EndOfExtendedSupportDate: aws.Time(ext)}
	}
	return out
}

func allow(string, string) iamtypes.PolicyEvaluationDecisionType {
	return iamtypes.PolicyEvaluationDecisionTypeAllowed
}

// fleetPlan is a hub in us-east-1 (a VPC with its NAT gateway and Elastic IP, the cluster, a role of the fleet's own
// path, a managed Argo CD) and a spoke in us-west-2, the clusters at versions hub and spoke.
func fleetPlan(hub, spoke string, rolePath string) Plan {
	s := func(typ, region, name string, inputs map[string]any) Step {
		return Step{Op: Create, Type: typ, URN: stack + typ + "::" + name, Region: region, Inputs: inputs}
	}
	var plan Plan
	for _, c := range []struct{ name, region, version string }{{"hub", "us-east-1", hub}, {"spoke", "us-west-2", spoke}} {
		plan = append(plan,
			s("aws:ec2/vpc:Vpc", c.region, c.name+"-vpc", nil),
			s("aws:ec2/eip:Eip", c.region, c.name+"-eip", nil),
			s("aws:ec2/natGateway:NatGateway", c.region, c.name+"-nat", nil),
			s(clusterType, c.region, c.name+"-eksCluster", map[string]any{"name": c.name, "version": c.version}),
			s("aws:iam/role:Role", "", c.name+"-node", map[string]any{"name": c.name + "-node", "path": rolePath}))
	}
	return append(plan, s(capabilityType, "", "argocd", map[string]any{"clusterName": "hub"}))
}

func TestRun(t *testing.T) {
	denied := &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not authorized"}
	type want struct {
		level          Level
		check, subject string
		region, text   string
	}
	for _, tc := range []struct {
		name   string
		plan   Plan
		aws    fakeAWS
		want   []want
		passed []string // substrings of Passed, in order
		absent []string // subjects of no finding
	}{{
		name: "an administrator in a fresh account",
		plan: fleetPlan("1.35", "1.35", ""),
		aws:  fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow},
		passed: []string{"permissions: arn:aws:iam::111122223333:user/admin may call the",
			"quotas: us-east-1: VPCs per Region (vpc L-F678F1CE), 0 used + 1 planned = 1 of 5",
			"quotas: us-east-1: EC2-VPC Elastic IPs", "quotas: us-east-1: NAT gateways per Availability Zone",
			"quotas: us-east-1: Clusters (eks L-1194D53C), 0 used + 1 planned = 1 of 100", "quotas: us-west-2: VPCs",
			"versions: us-east-1: Kubernetes 1.35 ([hub]), standard support to 2027-03-27",
			"versions: us-west-2: Kubernetes 1.35 ([spoke])",
			"capabilities: us-east-1: EKS serves the Capabilities API (for argocd)"},
	}, {
		name: "a deployer allowed IAM on the fleet's path only, and not to create clusters",
		plan: fleetPlan("1.35", "1.35", "/gitops-fleet/spoke/"),
		aws: fakeAWS{caller: "arn:aws:sts::111122223333:assumed-role/deployer/ci", decide: scoped,
			roles: map[string]string{"deployer": "arn:aws:iam::111122223333:role/ops/deployer"}},
		want: []want{
			{Fail, CheckPermissions, "eks:CreateCluster", "", "not allowed on arn:aws:eks:us-east-1:111122223333:cluster/hub (implicitDeny), arn:aws:eks:us-west-2:111122223333:cluster/spoke (implicitDeny); needed by 2 creates of aws:eks/cluster:Cluster (hub-eksCluster, spoke-eksCluster)"},
			{Fail, CheckPermissions, "iam:CreateServiceLinkedRole", "", "implicitDeny on every resource"},
		},
		passed: []string{"quotas:"},
		absent: []string{"iam:CreateRole", "iam:PassRole", "iam:GetRole", "ec2:CreateVpc"},
	}, {
		name: "the same deployer with a role outside its path",
		plan: fleetPlan("1.35", "1.35", ""),
		aws: fakeAWS{caller: "arn:aws:sts::111122223333:assumed-role/deployer/ci", decide: scoped,
			roles: map[string]string{"deployer": "arn:aws:iam::111122223333:role/ops/deployer"}},
		want: []want{
			{Fail, CheckPermissions, "iam:CreateRole", "", "not allowed on arn:aws:iam::111122223333:role/hub-node (implicitDeny), arn:aws:iam::111122223333:role/spoke-node (implicitDeny)"},
			{Fail, CheckPermissions, "iam:PassRole", "", "not allowed on arn:aws:iam::111122223333:role/hub-node"},
		},
	}, {
		name: "quotas past, at and within their values",
		plan: fleetPlan("1.35", "1.35", ""),
		aws: fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow, vpcs: 5, eips: 4,
			nats: map[string]int{"us-east-1a": 3, "us-east-1b": 4}, clusters: 40,
			quotas: map[string]float64{"L-FE5A380F": 10, "L-1194D53C": 40}, applied: map[string]bool{"L-FE5A380F": true, "L-1194D53C": true}},
		want: []want{
			{Fail, CheckQuotas, "VPCs per Region (vpc L-F678F1CE)", "us-east-1", "5 used + 1 planned = 6 of 5: request an increase"},
			{Fail, CheckQuotas, "Clusters (eks L-1194D53C)", "us-west-2", "40 used + 1 planned = 41 of 40"},
			{Warn, CheckQuotas, "EC2-VPC Elastic IPs (ec2 L-0263D0A3)", "us-east-1", "4 used + 1 planned = 5 of 5: the plan fits, the next cluster will not"},
		},
		passed: []string{"quotas: us-east-1: NAT gateways per Availability Zone (vpc L-FE5A380F), 4 used in us-east-1b + 1 planned = 5 of 10"},
	}, {
		name: "a deployer that may not read quotas",
		plan: fleetPlan("1.35", "1.35", ""),
		aws:  fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow, quotaErr: denied},
		want: []want{{Unknown, CheckQuotas, "VPCs per Region (vpc L-F678F1CE)", "us-east-1", "the quota could not be read"},
			{Unknown, CheckQuotas, "Clusters (eks L-1194D53C)", "us-west-2", "the quota could not be read"}},
	}, {
		name: "versions past, in and near extended support, and one EKS does not offer",
		plan: append(fleetPlan("1.33", "1.29", ""), Step{Op: Create, Type: clusterType, URN: stack + "c::edge", Region: "us-west-2",
			Inputs: map[string]any{"name": "edge", "version": "1.34"}}, Step{Op: Update, Type: clusterType, URN: stack + "c::next",
			Region: "us-west-2", Inputs: map[string]any{"name": "next", "version": "1.40"}}),
		aws: fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow},
		want: []want{
			{Fail, CheckVersions, "Kubernetes 1.29 ([spoke])", "us-west-2", "past the end of extended support (2026-03-23)"},
			{Fail, CheckVersions, "Kubernetes 1.40 ([next])", "us-west-2", "EKS does not offer this version here"},
			{Warn, CheckVersions, "Kubernetes 1.33 ([hub])", "us-east-1", "in extended support since 2026-07-29: each control plane costs six times the standard price until upgraded; support ends 2027-07-29"},
			{Warn, CheckVersions, "Kubernetes 1.34 ([edge])", "us-west-2", "standard support ends 2026-12-02, in 2 days"},
		},
	}, {
		name: "a managed hub in a region without EKS Capabilities",
		plan: fleetPlan("1.35", "1.35", ""),
		aws:  fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow, noCapsIn: map[string]bool{"us-east-1": true}},
		want: []want{{Fail, CheckCapabilities, "EKS Capabilities for argocd", "us-east-1", "EKS does not offer Capabilities here (ListCapabilities: api error UnknownOperationException"}},
	}, {
		name: "a deployer that may not list capabilities",
		plan: fleetPlan("1.35", "1.35", ""),
		aws:  fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow, capsErr: denied},
		want: []want{{Unknown, CheckCapabilities, "EKS Capabilities for argocd", "us-east-1", "EKS could not be asked"}},
	}, {
		name: "the root user",
		plan: fleetPlan("1.35", "1.35", ""),
		aws:  fakeAWS{caller: "arn:aws:iam::111122223333:root", decide: func(string, string) iamtypes.PolicyEvaluationDecisionType { panic("simulated root") }},
		want: []want{{Warn, CheckPermissions, "arn:aws:iam::111122223333:root", "", "the account's root user may do everything"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.aws
			if f.quotas == nil {
				f.quotas = map[string]float64{}
			}
			for code, v := range map[string]float64{"L-F678F1CE": 5, "L-0263D0A3": 5, "L-FE5A380F": 5, "L-1194D53C": 100} {
				if _, ok := f.quotas[code]; !ok {
					f.quotas[code] = v
				}
			}
			f.versions = calendar()
			api := f.api()
			api.Now = func() time.Time { return today }
			r, err := Run(context.Background(), tc.plan, api)
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, f := range r.Findings {
				got = append(got, want{f.Level, f.Check, f.Subject, f.Region, f.Message})
			}
			for _, w := range tc.want {
				if !slices.ContainsFunc(got, func(g want) bool {
					return g.level == w.level && g.check == w.check && g.subject == w.subject && g.region == w.region &&
						strings.Contains(g.text, w.text)
				}) {
					t.Errorf("no finding %+v in\n%v", w, got)
				}
			}
			for _, a := range tc.absent {
				if slices.ContainsFunc(got, func(g want) bool { return g.subject == a }) {
					t.Errorf("a finding on %s: %v", a, got)
				}
			}
			if len(tc.want) == 0 && len(got) > 0 {
				t.Errorf("findings %v, want none", got)
			}
			if failed := slices.ContainsFunc(tc.want, func(w want) bool { return w.level == Fail }); r.Failed() != failed {
				t.Errorf("Failed() = %v, want %v", r.Failed(), failed)
			}
			at := 0
			for _, p := range tc.passed {
				i := slices.IndexFunc(r.Passed[at:], func(s string) bool { return strings.Contains(s, p) })
				if i < 0 {
					t.Errorf("passed %q not found in order in %q", p, r.Passed)
					break
				}
				at += i + 1
			}
		})
	}
}

// scoped decides as a deployer allowed everything but eks:CreateCluster and iam:CreateServiceLinkedRole, and IAM's
// role actions only on roles of the fleet's path.
func scoped(action, resource string) iamtypes.PolicyEvaluationDecisionType {
	switch {
	case action == "eks:CreateCluster" || action == "iam:CreateServiceLinkedRole":
		return iamtypes.PolicyEvaluationDecisionTypeImplicitDeny
	case strings.HasPrefix(action, "iam:") && strings.Contains(action, "Role") && action != "iam:PutRolePolicy":
		if strings.HasPrefix(resource, "arn:aws:iam::111122223333:role/gitops-fleet/") {
			return iamtypes.PolicyEvaluationDecisionTypeAllowed
		}
		return iamtypes.PolicyEvaluationDecisionTypeImplicitDeny
	}
	return iamtypes.PolicyEvaluationDecisionTypeAllowed
}

func TestRunWithoutAWS(t *testing.T) {
	f := fakeAWS{caller: "arn:aws:iam::111122223333:user/admin", decide: allow}
	r, err := Run(context.Background(), Plan{{Op: Create, Type: "kubernetes:core/v1:Namespace", URN: stack + "ns::a"}}, f.api())
	if err != nil || len(r.Findings) != 0 || !slices.Equal(r.Passed, []string{"permissions: the plan calls no AWS action"}) ||
		len(f.simulated) != 0 {
		t.Errorf("a plan of Kubernetes objects only: %+v, %v, simulated %q", r, err, f.simulated)
	}
}

func TestRunSimulatesTheSessionsRole(t *testing.T) {
	f := fakeAWS{caller: "arn:aws:sts::111122223333:assumed-role/deployer/ci", decide: allow, versions: calendar(),
		roles: map[string]string{"deployer": "arn:aws:iam::111122223333:role/ops/deployer"}, quotas: map[string]float64{}}
	if _, err := Run(context.Background(), fleetPlan("1.35", "1.35", ""), f.api()); err != nil {
		t.Fatal(err)
	}
	if len(f.simulated) != 1 || !strings.HasPrefix(f.simulated[0], "arn:aws:iam::111122223333:role/ops/deployer ") ||
		!strings.HasSuffix(f.simulated[0], " on ") {
		t.Errorf("simulated %q; want one call for the session's role (with its path), on every resource", f.simulated)
	}
}

func TestReportRenders(t *testing.T) {
	r := Report{Deployer: "arn:aws:iam::111122223333:user/admin", Account: "111122223333", Steps: 3,
		Regions: []string{"us-east-1"}, Passed: []string{"quotas: fine"}}
	r.add(Finding{Check: CheckVersions, Level: Warn, Region: "us-east-1", Subject: "Kubernetes 1.33", Message: "extended"})
	r.add(Finding{Check: CheckPermissions, Level: Fail, Subject: "eks:CreateCluster", Message: "implicitDeny"})
	r.sort()
	var table, js bytes.Buffer
	if err := Table(&table, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(table.String(), "\n")
	if !strings.Contains(lines[0], "3 steps in us-east-1") || !strings.Contains(lines[0], "1 failed, 1 warnings, 0 unknown") ||
		!strings.HasPrefix(lines[3], "FAIL ") || !strings.Contains(lines[3], "eks:CreateCluster") ||
		!strings.HasPrefix(lines[4], "WARN ") || !strings.Contains(table.String(), "passed:\n  quotas: fine") {
		t.Errorf("table:\n%s", table.String())
	}
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Findings) != 2 || back.Findings[0].Level != Fail {
		t.Errorf("JSON does not read back: %v %+v", err, back)
	}
}
