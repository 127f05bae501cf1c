package fleet

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

// TestIngressWarnings: an ingressCidrs network that overlaps a selected cluster's VPC (where the pods of every
// namespace live) is warned of, naming tenant, namespace, network and cluster; one outside it, or a cluster whose
// VPC is not known, is not.
func TestIngressWarnings(t *testing.T) {
	ten := tenant.TenantSpec{Name: "search", Namespaces: []tenant.TenantNamespace{
		{Name: "search", IngressCidrs: []string{"10.0.0.0/8", "192.0.2.0/24"}}, {Name: "quiet"}}}
	got := ingressWarnings(ten, "spoke-a", "10.20.0.0/16")
	if len(got) != 1 || !strings.HasPrefix(got[0], "tenant search, namespace search: ingressCidrs 10.0.0.0/8 overlaps cluster spoke-a's VPC 10.20.0.0/16") {
		t.Errorf("warnings %q, want one for 10.0.0.0/8", got)
	}
	if got := ingressWarnings(ten, "spoke-b", "172.16.0.0/16"); len(got) != 0 {
		t.Errorf("a VPC apart: %q", got)
	}
	if got := ingressWarnings(ten, "spoke-c", ""); len(got) != 0 {
		t.Errorf("no VPC known: %q", got)
	}
}
