package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/provider/preflight"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/account"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// TestPreflight runs `fleet preflight` on the plans of docs/aws.md's stacks, as a user does before the first up into
// an account (`pulumi preview --event-log`, then the command), against the offline IAM simulator, Service Quotas,
// EC2 and EKS. The starter stack in a fresh account as an administrator: nothing fails; its default Kubernetes
// version is in extended support, which it says with the price. The managed fleet in a narrower account: every
// finding at once, and exit status 1.
func TestPreflight(t *testing.T) {
	t.Parallel()
	env := newEnv(t)

	out, err := env.Configured("aws", env.FleetConfig("aws")).Preflight("-json")
	if err != nil {
		t.Fatalf("fleet preflight of the starter stack: %v\n%s", err, out)
	}
	r := report(t, out)
	if r.Deployer != aws.DeployerARN() || r.Account != aws.Account || !slices.Equal(r.Regions, []string{"us-east-1"}) {
		t.Errorf("preflight as %s in %s, regions %v", r.Deployer, r.Account, r.Regions)
	}
	if len(r.Findings) != 1 || r.Findings[0].Level != preflight.Warn || r.Findings[0].Check != preflight.CheckVersions ||
		!strings.Contains(r.Findings[0].Message, "six times the standard price") {
		t.Errorf("the starter stack's findings: %+v; want one, its default version's extended support", r.Findings)
	}
	for _, want := range []string{"permissions: " + aws.DeployerARN() + " may call the",
		"quotas: us-east-1: VPCs per Region (vpc L-F678F1CE), 0 used + 1 planned = 1 of 5",
		"quotas: us-east-1: Clusters (eks L-1194D53C), 0 used + 1 planned = 1 of 100"} {
		if !slices.ContainsFunc(r.Passed, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("passed %q, want %q", r.Passed, want)
		}
	}

	// The managed fleet, its hub moved to a region without EKS Capabilities and a spoke on a version past extended
	// support, into an account that holds 4 VPCs and 4 NAT gateways in us-east-2, may have no EKS cluster there, and
	// gives the deployer IAM on the fleet's own path only and no eks:CreateCluster.
	cfg := env.FleetConfig("managed")
	cluster(cfg, "platform")["region"] = "ap-south-2"
	cluster(cfg, "apps-usw2")["version"] = "1.29"
	cloud := env.Cloud()
	cloud.Capabilities().Unoffered("ap-south-2")
	cloud.Account().SetQuota("us-east-2", "L-1194D53C", 0)
	for i := range 4 {
		holds(t, cloud.Store(), "aws:ec2/vpc:Vpc", fmt.Sprintf("vpc-held%d", i), map[string]any{"cidrBlock": "10.200.0.0/16"})
		holds(t, cloud.Store(), "aws:ec2/subnet:Subnet", fmt.Sprintf("subnet-held%d", i), map[string]any{"availabilityZone": "us-east-2b"})
		holds(t, cloud.Store(), "aws:ec2/natGateway:NatGateway", fmt.Sprintf("nat-held%d", i), map[string]any{"subnetId": fmt.Sprintf("subnet-held%d", i)})
	}
	cloud.Account().SetDeployerPolicy(account.Policy{Version: "2012-10-17", Statement: []account.Statement{
		{Effect: "Allow", NotAction: []string{"iam:*"}, Resource: []string{"*"}},
		{Effect: "Allow", Action: []string{"iam:*"}, Resource: []string{"arn:aws:iam::" + aws.Account + ":role/gitops-fleet/*"}},
		{Effect: "Deny", Action: []string{"eks:CreateCluster"}, Resource: []string{"*"}},
	}})
	managed := env.Configured("managed", cfg)
	out, err = managed.Preflight("-json")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("fleet preflight of the managed fleet: %v, want exit status 1\n%s", err, out)
	}
	r = report(t, out)
	for _, want := range []struct {
		level                        preflight.Level
		check, region, subject, text string
	}{
		{preflight.Fail, preflight.CheckPermissions, "", "eks:CreateCluster", "explicitDeny on every resource; needed by 3 creates of aws:eks/cluster:Cluster"},
		{preflight.Fail, preflight.CheckPermissions, "", "iam:CreateRole", "not allowed on arn:aws:iam::" + aws.Account + ":role/platform-"},
		{preflight.Fail, preflight.CheckPermissions, "", "iam:PassRole", "(implicitDeny)"},
		{preflight.Fail, preflight.CheckPermissions, "", "iam:CreateOpenIDConnectProvider", "implicitDeny on every resource"},
		{preflight.Fail, preflight.CheckQuotas, "us-east-2", "Clusters (eks L-1194D53C)", "0 used + 1 planned = 1 of 0"},
		{preflight.Warn, preflight.CheckQuotas, "us-east-2", "VPCs per Region (vpc L-F678F1CE)", "4 used + 1 planned = 5 of 5: the plan fits, the next cluster will not"},
		{preflight.Warn, preflight.CheckQuotas, "us-east-2", "NAT gateways per Availability Zone (vpc L-FE5A380F)", "4 used in us-east-2b + 1 planned = 5 of 5"},
		{preflight.Fail, preflight.CheckVersions, "us-west-2", "Kubernetes 1.29 ([apps-usw2])", "past the end of extended support"},
		{preflight.Fail, preflight.CheckCapabilities, "ap-south-2", "EKS Capabilities for platform-argocd", "UnknownOperationException"},
	} {
		if !slices.ContainsFunc(r.Findings, func(f preflight.Finding) bool {
			return f.Level == want.level && f.Check == want.check && f.Region == want.region && f.Subject == want.subject &&
				strings.Contains(f.Message, want.text)
		}) {
			t.Errorf("no %s finding %s %s %q in\n%s", want.level, want.region, want.subject, want.text, out)
		}
	}
	for _, f := range r.Findings {
		if f.Check == preflight.CheckPermissions && strings.Contains(f.Message, "/gitops-fleet/") {
			t.Errorf("a role of the fleet's path, which the deployer may create, is refused: %+v", f)
		}
		if f.Check == preflight.CheckPermissions && strings.HasPrefix(f.Subject, "ec2:") {
			t.Errorf("an EC2 action the deployer may call is refused: %+v", f)
		}
	}
}

// holds puts a resource of typ in us-east-2 into the offline cloud, as one the account held before the fleet.
func holds(t *testing.T, store *emulator.Store, typ, id string, state map[string]any) {
	t.Helper()
	data, err := emulator.PlainState(state)
	if err == nil {
		err = store.Put(emulator.Record{Package: "aws", Type: typ, URN: "urn:held:" + id, ID: id, Scope: "us-east-2", State: data})
	}
	if err != nil {
		t.Fatal(err)
	}
}

func report(t *testing.T, out []byte) preflight.Report {
	t.Helper()
	var r preflight.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("fleet preflight -json: %v\n%s", err, out)
	}
	return r
}
