package tenant

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestProject(t *testing.T) {
	p := Project(payments(), []string{"spoke-a", "spoke-b"}, "argocd")
	raw, _ := json.Marshal(p)
	s := string(raw)
	for _, want := range []string{
		`"name":"tenant-payments","namespace":"argocd"`,
		`"sourceRepos":["https://github.com/acme/payments-deploy"]`,
		`{"name":"spoke-b","namespace":"payments-batch"}`,
		`"clusterResourceWhitelist":[]`,
		`{"group":"networking.k8s.io","kind":"NetworkPolicy"}`,
		`"p, proj:tenant-payments:admin, applications, *, tenant-payments/*, allow"`,
		`"groups":["auditors"]`,
		`"p, proj:tenant-payments:view, applications, get, tenant-payments/*, allow"`,
		`"syncWindows":[{"applications":["*"],"duration":"8h","kind":"deny","manualSync":false,"schedule":"0 22 * * *"}]`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("project has no %s:\n%s", want, s)
		}
	}
	if n := strings.Count(s, `"namespace":"payments`); n != 4 {
		t.Errorf("%d destinations, want 2 clusters x 2 namespaces", n)
	}
	kinds := p["spec"].(map[string]any)["namespaceResourceWhitelist"].([]any)
	if len(kinds) != len(WorkloadKinds) {
		t.Errorf("namespaced kinds %v, want the %d workload kinds", kinds, len(WorkloadKinds))
	}
	withIngress := payments()
	withIngress.ExtraKinds = []TenantKind{{Group: "networking.k8s.io", Kind: "Ingress"}}
	kinds = Project(withIngress, []string{"spoke-a"}, "argocd")["spec"].(map[string]any)["namespaceResourceWhitelist"].([]any)
	if last := kinds[len(kinds)-1]; len(kinds) != len(WorkloadKinds)+1 || last.(map[string]any)["kind"] != "Ingress" {
		t.Errorf("with extraKinds Ingress, namespaced kinds %v", kinds)
	}
}

func TestApplicationSet(t *testing.T) {
	spec := ApplicationSet(payments(), []string{"spoke-a"}, TenantWorkloads{URL: "https://github.com/acme/payments-deploy", Path: "clusters"})
	raw, _ := json.Marshal(spec)
	s := string(raw)
	for _, want := range []string{
		`{"key":"cluster_name","operator":"In","values":["spoke-a"]}`,
		`{"key":"fleet_decommission","operator":"NotIn","values":["true"]}`,
		`"project":"tenant-payments"`,
		`"path":"clusters/{{.name}}"`,
		`"targetRevision":"HEAD"`,
		`"destination":{"name":"{{.name}}","namespace":"payments"}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("ApplicationSet has no %s:\n%s", want, s)
		}
	}
}
