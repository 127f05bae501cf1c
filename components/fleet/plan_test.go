package fleet

import (
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

// TestResolve: the plan carries, for each cluster, the tenants that select it (in the fleet's order), and for a fleet
// with its hub the Argo CD settings those selections make and the capacity they count; a shard's plan has neither.
func TestResolve(t *testing.T) {
	withTenants := func() FleetArgs {
		a := DevFleet()
		a.Tenants = []tenant.TenantSpec{
			{Name: "payments", Namespaces: []tenant.TenantNamespace{{Name: "payments"}},
				Workloads: &tenant.TenantWorkloads{URL: "https://github.com/acme/payments-deploy", Path: "clusters"}},
			{Name: "search", Clusters: &tenant.TenantSelector{Clusters: []string{"spoke-a"}},
				Namespaces: []tenant.TenantNamespace{{Name: "search"}}},
		}
		return a
	}
	onHub := withTenants()
	onHub.Tenants = append(onHub.Tenants, tenant.TenantSpec{Name: "ops", Clusters: &tenant.TenantSelector{Clusters: []string{"hub"}},
		Namespaces: []tenant.TenantNamespace{{Name: "ops"}}})
	shard := withTenants()
	shard.Hub = &HubRef{Stack: "acme/fleet/hub", Shard: "east"}
	shard.Clusters = shard.Clusters[1:]
	for name, tc := range map[string]struct {
		args         FleetArgs
		tenants      map[string][]string
		hub          string
		clusterAdmin bool
	}{
		"tenants on the spokes": {args: withTenants(), hub: "hub",
			tenants: map[string][]string{"hub": nil, "spoke-a": {"payments", "search"}, "spoke-b": {"payments"}}},
		"a tenant on the hub": {args: onHub, hub: "hub", clusterAdmin: true,
			tenants: map[string][]string{"hub": {"ops"}, "spoke-a": {"payments", "search"}, "spoke-b": {"payments"}}},
		"a shard": {args: shard,
			tenants: map[string][]string{"spoke-a": {"payments", "search"}, "spoke-b": {"payments"}}},
	} {
		t.Run(name, func(t *testing.T) {
			p := resolve(tc.args, "dev")
			for _, c := range p.clusters {
				var got []string
				for _, s := range c.tenants {
					got = append(got, s.Name)
				}
				if !slices.Equal(got, tc.tenants[c.Name]) {
					t.Errorf("cluster %s: tenants %v, want %v", c.Name, got, tc.tenants[c.Name])
				}
			}
			if tc.hub == "" {
				if p.hub != nil || p.Argocd != nil || p.capacity != (HubCapacity{}) {
					t.Errorf("a shard plans no hub: %v, %+v, %+v", p.hub, p.Argocd, p.capacity)
				}
				return
			}
			if p.hub == nil || p.hub.Name != tc.hub || p.hub != p.clusters[0] {
				t.Fatalf("hub %+v, want %s", p.hub, tc.hub)
			}
			if p.Argocd.ControllerClusterAdmin != tc.clusterAdmin {
				t.Errorf("argocd.controllerClusterAdmin %v, want %v", p.Argocd.ControllerClusterAdmin, tc.clusterAdmin)
			}
			// payments has workloads: one Application on each cluster it selects.
			if p.capacity.TenantApplications != 2 || p.capacity.Clusters != len(p.clusters) {
				t.Errorf("capacity %+v: want 2 tenant Applications on %d clusters", p.capacity, len(p.clusters))
			}
		})
	}
}
