package admission

import (
	"slices"
	"strings"
	"testing"
)

// TestOpsDefaultToDeletionsGuarded: a policy sees CREATE, UPDATE and DELETE unless it gives its operations, or says
// why a deletion needs no guard; the object the API server stores and the registered spec say the same.
func TestOpsDefaultToDeletionsGuarded(t *testing.T) {
	for name, tc := range map[string]struct {
		p    Policy
		want []string
	}{
		"default":          {Policy{}, []string{"CREATE", "UPDATE", "DELETE"}},
		"delete unguarded": {Policy{DeleteUnguarded: "a reason"}, []string{"CREATE", "UPDATE"}},
		"given":            {Policy{Operations: []string{"UPDATE", "DELETE"}}, []string{"UPDATE", "DELETE"}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.p.Ops(); !slices.Equal(got, tc.want) {
				t.Errorf("Ops() = %v, want %v", got, tc.want)
			}
			rule := tc.p.Object()["spec"].(map[string]any)["matchConstraints"].(map[string]any)["resourceRules"].([]any)[0]
			var got []string
			for _, o := range rule.(map[string]any)["operations"].([]any) {
				got = append(got, o.(string))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("the object's operations are %v, want %v", got, tc.want)
			}
			if spec := tc.p.spec(); !slices.Equal(spec.MatchConstraints.ResourceRules[0].Operations, tc.want) {
				t.Errorf("the registered spec's operations are %v, want %v", spec.MatchConstraints.ResourceRules[0].Operations, tc.want)
			}
		})
	}
}

// TestTableGivesWhyDeleteIsUnguarded: the table of guards names a guard's operations, a reason it does not see
// DELETE, and exemptions that hold at a deletion only.
func TestTableGivesWhyDeleteIsUnguarded(t *testing.T) {
	mu.Lock()
	saved := guards
	guards = []Guard{
		{Name: "a", Where: "the hub", Writer: "W", Pins: "p", Example: func() (Policy, Exemptions) {
			return Policy{Resource: "services", DeleteUnguarded: "the tenant's own"}, Exemptions{}
		}},
		{Name: "b", Where: "the hub", Writer: "W", Pins: "p", Example: func() (Policy, Exemptions) {
			return Policy{Resource: "namespaces"}, Exemptions{Deployer: "arn:aws:iam::111122223333:user/d", DeletionsOnly: true}
		}},
	}
	mu.Unlock()
	defer func() { mu.Lock(); guards = saved; mu.Unlock() }()
	table := Table()
	for _, want := range []string{
		"| `a` | the hub | core/services (CREATE, UPDATE; not DELETE: the tenant's own) | no one | p | W |",
		"| `b` | the hub | core/namespaces (CREATE, UPDATE, DELETE) | at a deletion: the deployer; no one otherwise | p | W |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table has no row %q:\n%s", want, table)
		}
	}
}
