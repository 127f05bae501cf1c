package contract

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// attacks are the contract tests that play each guard of the fleet's table (admission.Guards) as the attacks of
// its writers, through Kubernetes' admission code: a guard a component lists without one here fails
// TestEveryGuardHasAnAttack.
var attacks = map[string][]func(*testing.T){
	gitopsbridge.ClusterSecretPolicyName:    {TestClusterSecretGuard, TestClusterSecretDeletions, TestClusterSecretGuardAtSize},
	gitopsbridge.ApplicationPolicyName:      {TestApplicationGuard},
	gitopsbridge.ProjectPolicyName:          {TestProjectGuard},
	"<project>-stacks":                      {TestStackGuard, TestStackGuardPreviewStage},
	"tenant-<tenant>-namespaces":            {TestTenantFolderPins},
	"tenant-<tenant>-secret-stores":         {TestTenantFolderPins},
	"tenant-<tenant>-services":              {TestTenantFolderPins},
	"tenant-<tenant>-external-secrets":      {TestTenantFolderPins},
	"tenant-<tenant>-quotas":                {TestTenantFences},
	"tenant-<tenant>-limit-ranges":          {TestTenantFences},
	"tenant-<tenant>-network-policies":      {TestTenantFences},
	"tenant-<tenant>-role-bindings":         {TestTenantReach},
	"tenant-<tenant>-roles":                 {TestTenantReach},
	"tenant-<tenant>-system-pods":           {TestTenantReach},
	"tenant-<tenant>-system-tokens":         {TestTenantReach},
	"tenant-<tenant>-system-token-requests": {TestTenantReach},
}

// TestEveryGuardHasAnAttack: every guard the components list has attack tests here, sees DELETE or says why not,
// and each one's example is a policy the API server stores (every expression compiled as it compiles a new policy) with its exemptions rendered
// into the variables every guard shares.
func TestEveryGuardHasAnAttack(t *testing.T) {
	guards := admission.Guards()
	if len(guards) < 8 {
		t.Fatalf("%d guards listed; the fleet writes at least eight kinds", len(guards))
	}
	var names []string
	for _, g := range guards {
		names = append(names, g.Name)
		t.Run(g.Name, func(t *testing.T) {
			if len(attacks[g.Name]) == 0 {
				t.Errorf("guard %s has no attack test: add one and list it in attacks", g.Name)
			}
			p, e := g.Example()
			if !slices.Contains(p.Ops(), "DELETE") && p.DeleteUnguarded == "" {
				t.Errorf("guard %s does not see DELETE (%v) and does not say why (DeleteUnguarded)", g.Name, p.Ops())
			}
			newAdmitter(t, p.Object(), p.Binding())
			if e.Deployer != "" || e.Masters || e.SystemDeleters || e.EKS || len(e.Writers) > 0 {
				for _, v := range e.Variables() {
					if !slices.ContainsFunc(p.Variables, func(w admission.Variable) bool { return w == v }) {
						t.Errorf("guard %s exempts %s but does not render its exemptions (%s)", g.Name, e.Describe(), v.Name)
					}
				}
			}
		})
	}
	for name := range maps.Keys(attacks) {
		if !slices.Contains(names, name) {
			t.Errorf("attacks lists %s, which no component lists as a guard", name)
		}
	}
}

// TestDocsGuardsTable: docs/security.md's table of guards is the components' list (make docs writes it).
func TestDocsGuardsTable(t *testing.T) {
	data, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- guards:begin (make docs) -->\n", "<!-- guards:end -->"
	page := string(data)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("docs/security.md has no table of guards between %q and %q", begin, end)
	}
	if got := page[i+len(begin) : j]; got != admission.Table() {
		t.Errorf("docs/security.md's table of guards differs from the components' list; run `make docs`")
	}
}
