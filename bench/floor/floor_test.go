package floor

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const stackURN = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s"

// fleetLike is a stack export in miniature: a component over a VPC and two subnets that share a name, a
// secret input, a provider of a package without resources (dropped), an unused one of a package with some
// (kept), and a role that depends on the component and on the kept and the dropped provider.
var fleetLike = []map[string]any{
	{"urn": stackURN, "type": "pulumi:pulumi:Stack", "custom": false},
	{"urn": "urn:pulumi:s::p::pulumi:providers:aws::use1", "type": "pulumi:providers:aws", "custom": true, "id": "p1",
		"inputs": map[string]any{"region": "us-east-1"}},
	{"urn": "urn:pulumi:s::p::pulumi:providers:kubernetes::idle", "type": "pulumi:providers:kubernetes", "custom": true, "id": "p2"},
	{"urn": "urn:pulumi:s::p::pulumi:providers:aws::spare", "type": "pulumi:providers:aws", "custom": true, "id": "p3"},
	{"urn": "urn:pulumi:s::p::awsx:ec2:Vpc::net", "type": "awsx:ec2:Vpc", "custom": false, "parent": stackURN},
	{"urn": "urn:pulumi:s::p::awsx:ec2:Vpc$aws:ec2/vpc:Vpc::net", "type": "aws:ec2/vpc:Vpc", "custom": true, "id": "vpc-1",
		"parent": "urn:pulumi:s::p::awsx:ec2:Vpc::net", "provider": "urn:pulumi:s::p::pulumi:providers:aws::use1::p1",
		"inputs": map[string]any{
			"cidrBlock": "10.1.0.0/16", "tags": map[string]any{"Name": "net"},
			"token": map[string]any{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "plaintext": `"s3cret"`},
		}},
	{"urn": "urn:pulumi:s::p::awsx:ec2:Vpc$aws:ec2/subnet:Subnet::a", "type": "aws:ec2/subnet:Subnet", "custom": true, "id": "sn-1",
		"parent": "urn:pulumi:s::p::awsx:ec2:Vpc::net", "provider": "urn:pulumi:s::p::pulumi:providers:aws::use1::p1",
		"dependencies": []string{"urn:pulumi:s::p::awsx:ec2:Vpc$aws:ec2/vpc:Vpc::net"}},
	{"urn": "urn:pulumi:s::p::other$aws:ec2/subnet:Subnet::a", "type": "aws:ec2/subnet:Subnet", "custom": true, "id": "sn-2",
		"parent": "urn:pulumi:s::p::awsx:ec2:Vpc::net", "provider": "urn:pulumi:s::p::pulumi:providers:aws::use1::p1"},
	{"urn": "urn:pulumi:s::p::aws:iam/role:Role::r", "type": "aws:iam/role:Role", "custom": true, "id": "r",
		"parent": stackURN, "provider": "urn:pulumi:s::p::pulumi:providers:aws::use1::p1",
		"dependencies": []string{"urn:pulumi:s::p::awsx:ec2:Vpc::net", "urn:pulumi:s::p::pulumi:providers:aws::spare",
			"urn:pulumi:s::p::pulumi:providers:kubernetes::idle"}},
}

func export(t *testing.T, resources []map[string]any) apitype.UntypedDeployment {
	t.Helper()
	data, err := json.Marshal(map[string]any{"resources": resources})
	if err != nil {
		t.Fatal(err)
	}
	return apitype.UntypedDeployment{Version: 3, Deployment: data}
}

// registration is what the engine was asked to register.
type registration struct {
	Type, Name, Provider string
	DependsOn            []string
	SecretToken          bool
}

type monitor struct {
	mu   sync.Mutex
	regs []registration
}

func (m *monitor) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	deps := slices.Clone(args.RegisterRPC.GetDependencies())
	slices.Sort(deps)
	provider := args.Provider
	if i := strings.LastIndex(provider, "::"); i >= 0 {
		provider = provider[:i]
	}
	m.regs = append(m.regs, registration{
		Type: args.TypeToken, Name: args.Name, Provider: provider, DependsOn: deps,
		SecretToken: args.Inputs["token"].IsSecret(),
	})
	return args.Name + "-id", args.Inputs, nil
}

func (m *monitor) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}

func floorURN(typ, name string) string { return "urn:pulumi:test::floor::" + typ + "::" + name }

func TestProgramRegistersTheStacksCustomResourcesFlat(t *testing.T) {
	plan, err := Plan(export(t, fleetLike))
	if err != nil {
		t.Fatal(err)
	}
	m := &monitor{}
	if err := pulumi.RunErr(Program(plan), pulumi.WithMocks("floor", "test", m)); err != nil {
		t.Fatal(err)
	}
	prov := floorURN("pulumi:providers:aws", "use1")
	vpc, subnet := floorURN("aws:ec2/vpc:Vpc", "net"), floorURN("aws:ec2/subnet:Subnet", "a")
	want := []registration{
		{Type: "pulumi:providers:aws", Name: "use1", DependsOn: []string{}},
		{Type: "pulumi:providers:aws", Name: "spare", DependsOn: []string{}},
		{Type: "aws:ec2/vpc:Vpc", Name: "net", Provider: prov, DependsOn: []string{}, SecretToken: true},
		{Type: "aws:ec2/subnet:Subnet", Name: "a", Provider: prov, DependsOn: []string{vpc}},
		{Type: "aws:ec2/subnet:Subnet", Name: "a-2", Provider: prov, DependsOn: []string{}},
		{Type: "aws:iam/role:Role", Name: "r", Provider: prov,
			DependsOn: []string{subnet, floorURN("aws:ec2/subnet:Subnet", "a-2"), vpc, floorURN("pulumi:providers:aws", "spare")}},
	}
	// The SDK registers concurrently: compare in a fixed order.
	byName := func(a, b registration) int { return strings.Compare(a.Type+a.Name, b.Type+b.Name) }
	slices.SortFunc(want, byName)
	got := slices.SortedFunc(slices.Values(m.regs), byName)
	for i := range got {
		if got[i].DependsOn == nil {
			got[i].DependsOn = []string{}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("registrations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"pulumi:providers:aws": 2, "aws:ec2/vpc:Vpc": 1, "aws:ec2/subnet:Subnet": 2,
		"aws:iam/role:Role": 1}, Counts(plan)); diff != "" {
		t.Errorf("Counts (-want +got):\n%s", diff)
	}
}

func TestProgramRejectsAPlanMissingAProvider(t *testing.T) {
	plan, err := Plan(export(t, fleetLike))
	if err != nil {
		t.Fatal(err)
	}
	err = pulumi.RunErr(Program(plan[1:]), pulumi.WithMocks("floor", "test", &monitor{}))
	if err == nil || !strings.Contains(err.Error(), "uses provider urn:pulumi:s::p::pulumi:providers:aws::use1, which is not in the plan") {
		t.Errorf("error = %v, want the missing provider named", err)
	}
}
