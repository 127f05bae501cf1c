package rollout

import "testing"

// TestFromRepository: a cluster's add-ons to gate are those of its clusters output entry that the add-ons repository
// installs; the hub's own that its stack installs (throughStack) have no Application to wait for.
func TestFromRepository(t *testing.T) {
	addon := func(throughStack bool) map[string]any {
		if throughStack {
			return map[string]any{"namespace": "kube-system", "throughStack": true}
		}
		return map[string]any{"namespace": "kube-system"}
	}
	cases := map[string]struct {
		summary map[string]any
		want    int
	}{
		"no addons entry": {summary: map[string]any{"wave": 1.0}, want: 0},
		"a spoke's two":   {summary: map[string]any{"addons": map[string]any{"metrics_server": addon(false), "velero": addon(false)}}, want: 2},
		"a hub whose add-ons are all its stack's": {summary: map[string]any{"addons": map[string]any{
			"metrics_server": addon(true), "aws_for_fluentbit": addon(true)}}, want: 0},
		"a hub with one of the repository's": {summary: map[string]any{"addons": map[string]any{
			"metrics_server": addon(true), "aws_ebs_csi_driver": map[string]any{}}}, want: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := fromRepository(tc.summary); got != tc.want {
				t.Errorf("fromRepository = %d, want %d", got, tc.want)
			}
		})
	}
}
