package preflight

import (
	"reflect"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

const stack = "urn:pulumi:dev::gitops-fleet::"

// pre is the engine's event of a step: op of a resource of type typ named name, with inputs, through provider
// (a provider URN, "" for none); a delete's state is its old one.
func pre(op apitype.OpType, typ, name, provider string, inputs map[string]any) apitype.EngineEvent {
	urn := stack + typ + "::" + name
	s := &apitype.StepEventStateMetadata{Type: typ, URN: urn, Inputs: inputs}
	m := apitype.StepEventMetadata{Op: op, URN: urn, Type: typ, New: s}
	if provider != "" {
		m.Provider = provider + "::" + plugin.UnknownStringValue
	}
	if op == apitype.OpDelete || op == apitype.OpDeleteReplaced {
		m.New, m.Old = nil, s
	}
	return apitype.EngineEvent{ResourcePreEvent: &apitype.ResourcePreEvent{Metadata: m}}
}

func provider(name, region string) (apitype.EngineEvent, string) {
	e := pre(apitype.OpCreate, "pulumi:providers:aws", name, "", map[string]any{"region": region})
	return e, e.ResourcePreEvent.Metadata.URN
}

func TestPlanOf(t *testing.T) {
	east, eastURN := provider("aws-us-east-1", "us-east-1")
	west, westURN := provider("aws-us-west-2", "us-west-2")
	events := []apitype.EngineEvent{
		{StdoutEvent: &apitype.StdoutEngineEvent{Message: "noise"}},
		east, west,
		pre(apitype.OpCreate, "aws:eks/cluster:Cluster", "hub", eastURN, map[string]any{"name": "hub", "version": "1.33"}),
		pre(apitype.OpSame, "aws:ec2/vpc:Vpc", "hub-vpc", eastURN, nil),
		pre(apitype.OpReplace, "aws:iam/role:Role", "node", westURN, nil),
		pre(apitype.OpCreateReplacement, "aws:iam/role:Role", "node", westURN, map[string]any{"name": plugin.UnknownStringValue}),
		pre(apitype.OpDeleteReplaced, "aws:iam/role:Role", "node", westURN, map[string]any{"name": "old"}),
		pre(apitype.OpUpdate, "aws:eks/nodeGroup:NodeGroup", "ng", westURN, nil),
		pre(apitype.OpDelete, "aws:sqs/queue:Queue", "q", eastURN, map[string]any{"name": "q"}),
		pre(apitype.OpCreate, capabilityType, "argocd", "", map[string]any{"region": "eu-west-1", "clusterName": "hub"}),
		pre(apitype.OpCreate, "fleet:index:Fleet", "fleet", "", nil),
	}
	plan, err := PlanOf(events)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ op, typ, name, region string }
	var got []row
	for _, s := range plan {
		got = append(got, row{s.Op, s.Type, s.Name(), s.Region})
	}
	want := []row{
		{Create, "aws:eks/cluster:Cluster", "hub", "us-east-1"},
		{Create, "aws:iam/role:Role", "node", "us-west-2"},
		{Delete, "aws:iam/role:Role", "node", "us-west-2"},
		{Update, "aws:eks/nodeGroup:NodeGroup", "ng", "us-west-2"},
		{Delete, "aws:sqs/queue:Queue", "q", "us-east-1"},
		{Create, capabilityType, "argocd", "eu-west-1"},
		{Create, "fleet:index:Fleet", "fleet", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PlanOf:\n got %v\nwant %v", got, want)
	}
	if r := plan.Regions(); !reflect.DeepEqual(r, []string{"eu-west-1", "us-east-1", "us-west-2"}) {
		t.Errorf("Regions() = %v", r)
	}
	if plan[1].Input("name") != "" || plan[2].Input("name") != "old" || plan[0].Input("version") != "1.33" {
		t.Errorf("an unknown input reads as \"\", a known one as itself: %q %q %q", plan[1].Input("name"),
			plan[2].Input("name"), plan[0].Input("version"))
	}
	if n := plan.Count(Create, "aws:iam/role:Role", "us-west-2"); n != 1 {
		t.Errorf("Count of role creates in us-west-2 = %d, want 1 (the replacement's create)", n)
	}

	broken := pre(apitype.OpCreate, "aws:ec2/vpc:Vpc", "vpc", "", nil)
	broken.ResourcePreEvent.Metadata.New = nil
	if _, err := PlanOf([]apitype.EngineEvent{broken}); err == nil {
		t.Error("a step without state was read")
	}
}

func TestNeeded(t *testing.T) {
	plan := Plan{
		{Op: Create, Type: "aws:eks/cluster:Cluster", URN: stack + "x::hub"},
		{Op: Update, Type: "aws:eks/cluster:Cluster", URN: stack + "x::spoke"},
		{Op: Delete, Type: "aws:sqs/queue:Queue", URN: stack + "x::q"},
		{Op: Create, Type: "aws:rds/instance:Instance", URN: stack + "x::db"},
		{Op: Create, Type: "kubernetes:core/v1:Namespace", URN: stack + "x::ns"},
	}
	needed, unlisted := plan.Needed()
	for _, c := range []struct {
		action string
		steps  []string
	}{
		{"eks:CreateCluster", []string{"hub"}},
		{"eks:UpdateClusterVersion", []string{"spoke"}},
		{"eks:DescribeUpdate", []string{"hub", "spoke"}},
		{"iam:PassRole", []string{"hub"}},
		{"sqs:DeleteQueue", []string{"q"}},
	} {
		steps, ok := needed[c.action]
		var names []string
		for _, s := range steps {
			names = append(names, s.Name())
		}
		if !ok || !reflect.DeepEqual(names, c.steps) {
			t.Errorf("%s is needed by %v (listed: %v), want %v", c.action, names, ok, c.steps)
		}
	}
	for _, a := range []string{"sqs:CreateQueue", "sts:GetCallerIdentity"} {
		if _, ok := needed[a]; ok {
			t.Errorf("the plan needs %s: a queue's delete does not, and GetCallerIdentity needs no permission", a)
		}
	}
	if !reflect.DeepEqual(unlisted, []string{"aws:rds/instance:Instance"}) {
		t.Errorf("unlisted = %v, want the RDS instance only (Kubernetes objects call no AWS action)", unlisted)
	}
}

func TestPolicy(t *testing.T) {
	plan := Plan{{Op: Create, Type: "aws:sqs/queue:Queue", URN: stack + "x::q"}, {Op: Create, Type: "aws:eks/nodeGroup:NodeGroup", URN: stack + "x::ng"}}
	doc := plan.Policy()
	var sids []string
	actions := map[string][]string{}
	for _, s := range doc.Statement {
		sids = append(sids, s.Sid)
		actions[s.Sid] = s.Action
		if !reflect.DeepEqual(s.Resource, []string{"*"}) || s.Effect != "Allow" {
			t.Errorf("statement %s: %s on %v", s.Sid, s.Effect, s.Resource)
		}
	}
	if !reflect.DeepEqual(sids, []string{"FleetEc2", "FleetEks", "FleetIam", "FleetSqs"}) {
		t.Errorf("statements %v, want one per service, sorted", sids)
	}
	if !reflect.DeepEqual(actions["FleetIam"], []string{"iam:PassRole"}) ||
		!reflect.DeepEqual(actions["FleetSqs"], []string{"sqs:CreateQueue", "sqs:GetQueueAttributes", "sqs:ListQueueTags", "sqs:TagQueue"}) {
		t.Errorf("actions %v", actions)
	}
}
