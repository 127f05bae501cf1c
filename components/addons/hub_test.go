package addons

import (
	"reflect"
	"testing"
)

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

// TestStackValues: a hub chart's values for the stack's own apply are the template's with ApplyValues merged in map
// by map, the template's other keys kept and its maps not changed.
func TestStackValues(t *testing.T) {
	template := map[string]any{"gp2": map[string]any{"enabled": true, "annotations": map[string]any{"a": "1"}}, "x": 1}
	c := HubChart{Values: func(map[string]string) map[string]any { return template },
		ApplyValues: map[string]any{"gp2": map[string]any{"annotations": map[string]any{patchForce: "true"}}, "y": 2}}
	want := map[string]any{"gp2": map[string]any{"enabled": true, "annotations": map[string]any{"a": "1", patchForce: "true"}},
		"x": 1, "y": 2}
	if got := c.StackValues(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("StackValues = %v, want %v", got, want)
	}
	if _, ok := template["gp2"].(map[string]any)["annotations"].(map[string]any)[patchForce]; ok || template["y"] != nil {
		t.Errorf("StackValues changed the template's values: %v", template)
	}
	ebs, _ := HubChartOf("aws_ebs_csi_driver")
	if got := ebs.StackValues(nil); !reflect.DeepEqual(got, ebs.ApplyValues) || len(ebs.TemplateValues(nil)) != 0 ||
		!ebs.Static() {
		t.Errorf("the EBS classes' stack values %v: want the template's none with gp2's forced apply, known before the "+
			"cluster's annotations", got)
	}
}
