package tenant

import (
	"slices"
	"strings"
	"testing"
)

// TestFencePolicies: a policy per fenced kind, binding the tenant's namespaces for creates, updates and deletes, with
// every object Manifests computes of its kind pinned by <namespace>/<name>, and the deployer's exemption rendered.
// What the policies admit and refuse is played in tests/contract (TestTenantFences) and on real API servers.
func TestFencePolicies(t *testing.T) {
	spec := WithDefaults(TenantSpec{Name: "payments", Namespaces: []TenantNamespace{{Name: "payments"},
		{Name: "payments-batch", IngressCidrs: []string{"10.0.0.0/8"}}}})
	ps, err := FencePolicies(spec, sampleDeployer)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"tenant-payments-quotas":       {`"payments/tenant-quota"`, `"payments-batch/tenant-quota"`},
		"tenant-payments-limit-ranges": {`"payments/tenant-limits"`, `"payments-batch/tenant-limits"`},
		"tenant-payments-network-policies": {`"payments/default-deny"`, `"payments-batch/` + IngressCidrsPolicy + `"`,
			`"10.0.0.0/8"`},
	}
	if names := FencePolicyNames("payments"); len(ps) != 3 || !slices.Equal(names, []string{ps[0].Name, ps[1].Name, ps[2].Name}) {
		t.Fatalf("policies %d, names %v", len(ps), names)
	}
	for _, p := range ps {
		if !slices.Equal(p.Namespaces, []string{"payments", "payments-batch"}) || !slices.Equal(p.Ops(), []string{"CREATE", "UPDATE", "DELETE"}) {
			t.Errorf("%s binds %v for %v", p.Name, p.Namespaces, p.Ops())
		}
		var pinned string
		for _, v := range p.Variables {
			if v.Name == "pinned" {
				pinned = v.Expression
			}
		}
		for _, w := range want[p.Name] {
			if !strings.Contains(pinned, w) {
				t.Errorf("%s pins no %s: %s", p.Name, w, pinned)
			}
		}
		if strings.Contains(pinned, "ServiceAccount") || strings.Contains(pinned, "payments/payments") {
			t.Errorf("%s pins more than its kind: %s", p.Name, pinned)
		}
		for _, v := range FenceExemptions(sampleDeployer).Variables() {
			if !slices.Contains(p.Variables, v) {
				t.Errorf("%s does not render the exemption %s", p.Name, v.Name)
			}
		}
	}
	if names := strings.Join([]string{AWSPolicy, DNSPolicy, IngressCidrsPolicy, SameNamespacePolicy, DenyAllPolicy}, ", "); !strings.Contains(ps[2].Validations[0].Message, "("+names+")") {
		t.Errorf("the network policies' message names %q, want (%s)", ps[2].Validations[0].Message, names)
	}
}
