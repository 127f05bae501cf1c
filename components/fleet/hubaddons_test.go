package fleet

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// TestStackAddonsKeepTheRepositoryOffTheHub: the add-ons repository reaches the hub (argocd.addonsOnHub) only for a
// hub add-on that argocd.stackAddons does not install, and the hub's capacity counts an Application for those only;
// a listed add-on must be one the hub cluster enables.
func TestStackAddonsKeepTheRepositoryOffTheHub(t *testing.T) {
	for name, tc := range map[string]struct {
		hubAddons   map[string]bool // the hub cluster's own, over defaults (metrics_server false, aws_ebs_csi_driver)
		stackAddons []string
		addonsOnHub bool
		hubApps     int // the hub's add-on Applications
		wantErr     string
	}{
		"the repository installs the hub's add-ons": {hubAddons: map[string]bool{"metrics_server": true}, addonsOnHub: true,
			hubApps: 2},
		"the stack installs one, the repository the other": {hubAddons: map[string]bool{"metrics_server": true},
			stackAddons: []string{"metrics_server"}, addonsOnHub: true, hubApps: 1},
		"the stack installs every one": {hubAddons: map[string]bool{"metrics_server": true, "aws_ebs_csi_driver": false},
			stackAddons: []string{"metrics_server"}},
		"no add-on on the hub": {hubAddons: map[string]bool{"aws_ebs_csi_driver": false}},
		"listed, not enabled": {hubAddons: map[string]bool{"metrics_server": true},
			stackAddons: []string{"aws_load_balancer_controller"}, addonsOnHub: true, hubApps: 2,
			wantErr: `argocd.stackAddons[0]: the hub cluster "hub" does not enable "aws_load_balancer_controller"`},
		"not a hub add-on": {hubAddons: map[string]bool{"velero": true}, stackAddons: []string{"velero"}, addonsOnHub: true,
			hubApps: 1, wantErr: `argocd.stackAddons[0]: "velero" is not an add-on the hub's stack installs; want one of`},
	} {
		t.Run(name, func(t *testing.T) {
			a := DevFleet()
			a.Clusters[0].Addons = tc.hubAddons
			a.Argocd = &gitopsbridge.Hub{StackAddons: tc.stackAddons}
			p := resolve(a, "dev")
			if p.Argocd.AddonsOnHub != tc.addonsOnHub {
				t.Errorf("argocd.addonsOnHub %v, want %v", p.Argocd.AddonsOnHub, tc.addonsOnHub)
			}
			spokes := 0
			for _, c := range p.clusters[1:] {
				spokes += len(addons.ApplicationSets(c.Addons))
			}
			if got := p.capacity.AddonApplications - spokes; got != tc.hubApps {
				t.Errorf("the hub's add-on Applications %d, want %d", got, tc.hubApps)
			}
			err := Check(a, "dev")
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}
