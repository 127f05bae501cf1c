package admission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// TestRegisterWritesTheObjects: Register writes, with the typed pulumi-kubernetes resources, exactly the policy and
// binding that Object and Binding spell, which the contract test runs through Kubernetes' admission code; so what
// is tested is what is registered.
func TestRegisterWritesTheObjects(t *testing.T) {
	p := Policy{
		Name: "guard", Group: "pulumi.com", Version: "v1", Resource: "stacks", Namespaces: []string{"a", "b"},
		Variables:   []Variable{{Name: "x", Expression: "object.spec.stack"}},
		Validations: []Validation{{Expression: "variables.x != ''", Message: "a stack"}, {Expression: "true", Message: "m"}},
	}
	cloud := mocks.New()
	if err := cloud.Run(func(ctx *pulumi.Context) error {
		_, err := Register(ctx, "g", p.Name, p.Namespaces, pulumi.ToOutput(p).(pulumi.AnyOutput))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for typ, want := range map[string]map[string]any{
		"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy":        p.Object(),
		"kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding": p.Binding(),
	} {
		rs := cloud.OfType(typ)
		if len(rs) != 1 {
			t.Fatalf("%d %s registered", len(rs), typ)
		}
		got := map[string]any{"apiVersion": want["apiVersion"], "kind": want["kind"],
			"metadata": rs[0].Input("metadata"), "spec": rs[0].Input("spec")}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s registered (-spelled +registered):\n%s", typ, diff)
		}
	}
}
