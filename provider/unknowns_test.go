package provider

import (
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"

	resourceurn "github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

func TestWholeUnknowns(t *testing.T) {
	const a, b = resourceurn.URN("urn:pulumi:dev::p::fleet:index:FleetCluster::a"), resourceurn.URN("urn:pulumi:dev::p::aws:iam/role:Role::b")
	partial := property.New(map[string]property.Value{
		"clusterName":  property.New("spoke"),
		"spokeRoleArn": property.New(property.Computed).WithDependencies([]resourceurn.URN{b}),
		"kubeconfig":   property.New("k").WithSecret(true),
	}).WithDependencies([]resourceurn.URN{a})
	cases := map[string]struct {
		reason string
		in     property.Value
		want   property.Value
	}{
		"partially known object": {reason: "a Java program's component outputs in a preview become unknown as a whole",
			in: partial, want: property.New(property.Computed).WithSecret(true).WithDependencies([]resourceurn.URN{a, b})},
		"known object": {reason: "known objects pass unchanged",
			in:   property.New(map[string]property.Value{"clusterName": property.New("spoke")}),
			want: property.New(map[string]property.Value{"clusterName": property.New("spoke")})},
		"unknown scalar": {reason: "scalars pass unchanged",
			in: property.New(property.Computed), want: property.New(property.Computed)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := wholeUnknowns(property.NewMap(map[string]property.Value{"cluster": tc.in}), []string{"cluster"}).Get("cluster")
			if !got.Equals(tc.want) {
				t.Errorf("%s:\n got %v\nwant %v", tc.reason, got, tc.want)
			}
			if got.Secret() != tc.want.Secret() {
				t.Errorf("%s: secret %v, want %v (a secret field keeps the whole value secret)", tc.reason, got.Secret(), tc.want.Secret())
			}
			if !slices.Equal(got.Dependencies(), tc.want.Dependencies()) {
				t.Errorf("%s: dependencies %v, want %v", tc.reason, got.Dependencies(), tc.want.Dependencies())
			}
		})
	}
}

func TestObjectInputsOf(t *testing.T) {
	if got := objectInputsOf(gitopsbridge.GitOpsBridgeArgs{}); !slices.Equal(got, []string{"cluster"}) {
		t.Errorf("GitOpsBridge's object inputs = %v, want [cluster]", got)
	}
	if got := objectInputsOf(fleetcluster.FleetClusterArgs{}); len(got) != 0 {
		t.Errorf("FleetCluster has no object-typed Input, got %v (its struct inputs copy field by field)", got)
	}
}

func TestUnwrappedStructs(t *testing.T) {
	const hub = resourceurn.URN("urn:pulumi:dev::p::fleet:index:GitOpsBridge::hub")
	in := property.NewMap(map[string]property.Value{
		"gitopsAccess": property.New(map[string]property.Value{
			"hubRoleArn": property.New("arn:aws:iam::111122223333:role/gitops-fleet/hub/x"),
		}).WithDependencies([]resourceurn.URN{hub}),
		"spoke":  property.New(map[string]property.Value{"hubKubeconfig": property.New("{}")}).WithSecret(true),
		"region": property.New("us-east-2"),
	})
	got := unwrappedStructs(in, nil)
	if g := got.Get("gitopsAccess"); len(g.Dependencies()) != 0 || g.AsMap().Get("hubRoleArn").AsString() == "" {
		t.Errorf("a struct input is copied field by field, so the map itself carries no dependencies: %v", g)
	}
	if s := got.Get("spoke"); s.Secret() || !s.AsMap().Get("hubKubeconfig").Secret() {
		t.Errorf("secretness moves from the map to its fields: %v", s)
	}
	if kept := unwrappedStructs(in, []string{"gitopsAccess"}).Get("gitopsAccess"); len(kept.Dependencies()) != 1 {
		t.Errorf("object inputs (Inputs of a whole object) keep their dependencies: %v", kept)
	}
}
