package e2e

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeliverySeed: seed 004's pipeline (examples/fleet/Pulumi.delivery-seed.yaml) on the offline cloud, its hub on
// a real control plane (Argo Rollouts' AnalysisTemplate against its CRD): after `up`
// a preview plans no change; the hub holds Kargo's graph as the seed draws it (gates, preview stages their
// targets follow, the QA preview after both QA gates with All), Argo Rollouts, the pulumiCloud AnalysisTemplate
// and its token Secret in the project, and a verification on every stage but the gates.
func TestDeliverySeed(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	l := env.Configured("delivery-seed", env.FleetConfig("delivery-seed"))
	l.Up("up")
	l.Settled()

	sources, verified := map[string]any{}, map[string]bool{}
	for _, s := range kubeObjects(l, "kubernetes:kargo.akuity.io/v1alpha1:Stage") {
		name := s["metadata"].(map[string]any)["name"].(string)
		spec := s["spec"].(map[string]any)
		sources[name] = spec["requestedFreight"].([]any)[0].(map[string]any)["sources"]
		_, verified[name] = spec["verification"]
	}
	stages := func(names ...any) map[string]any { return map[string]any{"stages": names} }
	want := map[string]any{
		"approvalgatedev": map[string]any{"direct": true},
		"devpreview":      stages("approvalgatedev"), "dev": stages("devpreview"),
		"dev2preview": stages("approvalgatedev"), "dev2": stages("dev2preview"),
		"approvalgateqa": stages("dev", "dev2"), "approvalgateqasec": stages("dev", "dev2"),
		"qapreview": map[string]any{"stages": []any{"approvalgateqa", "approvalgateqasec"}, "availabilityStrategy": "All"},
		"qa":        stages("qapreview"), "prod": stages("qa"),
	}
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("the Kargo graph on the hub (-want +got):\n%s", diff)
	}
	for name := range want {
		gate := name == "approvalgatedev" || name == "approvalgateqa" || name == "approvalgateqasec"
		if verified[name] == gate {
			t.Errorf("stage %s: verification %v", name, verified[name])
		}
	}
	kinds := map[string]int{}
	for _, o := range kubeObjects(l, "") {
		md, _ := o["metadata"].(map[string]any)
		switch typ := o[typeKey]; {
		case typ == "kubernetes:argoproj.io/v1alpha1:AnalysisTemplate" && md["namespace"] == "fleet-seed":
			kinds["AnalysisTemplate "+md["name"].(string)]++
		case typ == "kubernetes:core/v1:Secret" && md["namespace"] == "fleet-seed" && md["name"] == "pulumi-api-token":
			kinds["Secret pulumi-api-token"]++
		case typ == releaseType && o["chart"] == "argo-rollouts":
			kinds["Release "+o["version"].(string)]++
		}
	}
	if diff := cmp.Diff(map[string]int{"AnalysisTemplate pulumi-cloud": 1, "Secret pulumi-api-token": 1,
		"Release 2.41.1": 1}, kinds); diff != "" {
		t.Errorf("verification on the hub (-want +got):\n%s", diff)
	}
}
