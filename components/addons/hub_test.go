package addons

import "testing"

// TestHubChartsInKubeSystem: every add-on a hub's stack installs deploys into kube-system, which every cluster has:
// the stack creates no namespace for them (a Helm v4 Chart creates none), so a hub chart in another namespace would
// fail on a fresh hub. The namespace is the chart's own or its identity's, which the cluster secret's
// <prefix>_namespace annotation carries. A chart of cluster-scoped objects only has none.
func TestHubChartsInKubeSystem(t *testing.T) {
	for _, name := range HubAddons() {
		c, _ := HubChartOf(name)
		a, ok := Lookup(name)
		if !ok {
			t.Errorf("hub add-on %s is not in the catalogue", name)
			continue
		}
		annotations := map[string]string{}
		if a.Identity != nil {
			annotations[a.Identity.Prefix(name)+NamespaceSuffix] = a.Identity.Namespace
		}
		want := "kube-system"
		if c.ClusterScoped {
			want = ""
		}
		if got := c.NamespaceIn(name, annotations); got != want {
			t.Errorf("hub add-on %s deploys into %q, want %q", name, got, want)
		}
	}
}
