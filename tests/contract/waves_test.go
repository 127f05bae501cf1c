package contract

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/argoproj/argo-cd/gitops-engine/pkg/health"
	synccommon "github.com/argoproj/argo-cd/gitops-engine/pkg/sync/common"
	"github.com/argoproj/argo-cd/v3/applicationset/progressivesync"
	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// waveClusters are a fleet's clusters by environment: the hub and spokes in dev, staging and production, whose waves
// the product derives (none is given).
var waveClusters = []struct{ name, environment string }{
	{"hub", "dev"}, {"dev-use1", "dev"}, {"dev-usw2", "development"}, {"stage-use1", "staging"},
	{"prod-use1", "prod"}, {"prod-euw1", "production"},
}

// waveSecrets are the cluster secrets of waveClusters as GitOpsBridge labels them, metrics_server enabled.
func waveSecrets(t *testing.T) []corev1.Secret {
	t.Helper()
	var out []corev1.Secret
	for _, c := range waveClusters {
		hub := c.name == "hub"
		wave := gitopsbridge.WaveOf(nil, hub, c.environment)
		s := gitopsbridge.ClusterSecret{Name: c.name, Namespace: argocdNamespace, ClusterName: c.name,
			Labels: gitopsbridge.Labels(c.name, c.environment, "1.33", wave, map[string]bool{"metrics_server": true}, nil),
			Server: "https://" + c.name + ".example", Config: gitopsbridge.InClusterConfig()}
		if hub {
			s.Server = gitopsbridge.InClusterServer
		}
		var secret corev1.Secret
		if err := yaml.Unmarshal([]byte(s.YAML()), &secret); err != nil {
			t.Fatal(err)
		}
		out = append(out, secret)
	}
	return out
}

// TestWavesStepArgoCDsRollingSync runs the ApplicationSet docs/waves.md gives (examples/waves/addon-appset.yaml)
// through Argo CD's own code: its cluster generator and renderer over the fleet's cluster secrets, then its
// progressive sync (the ApplicationSet controller's RollingSync manager) round after round, with each sync it
// triggers completed as the application controller would. A good version reaches the hub, dev, staging and
// production in that order, each wave only once the waves before it are Synced and Healthy; a version that leaves a
// dev Application Degraded never reaches staging or production. (Argo CD does not revert the dev wave: that is
// the rollout's, docs/waves.md.)
func TestWavesStepArgoCDsRollingSync(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "waves", "addon-appset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var set argov1alpha1.ApplicationSet
	if err := yaml.UnmarshalStrict(raw, &set); err != nil {
		t.Fatalf("examples/waves/addon-appset.yaml is not an ApplicationSet of Argo CD's API: %v", err)
	}
	var asMap struct {
		Spec map[string]any `json:"spec"`
	}
	if err := yaml.Unmarshal(raw, &asMap); err != nil {
		t.Fatal(err)
	}
	secrets := waveSecrets(t)
	desired := generateSet(t, asMap.Spec, secrets)
	waveOf := map[string]int{}
	for _, app := range desired {
		cluster := app.Spec.Destination.Name
		i := slices.IndexFunc(secrets, func(s corev1.Secret) bool { return s.Name == cluster })
		if i < 0 || app.Labels[gitopsbridge.WaveLabel] != secrets[i].Labels[gitopsbridge.WaveLabel] {
			t.Fatalf("%s: label %s %q, want its cluster secret's", app.Name, gitopsbridge.WaveLabel, app.Labels[gitopsbridge.WaveLabel])
		}
		waveOf[app.Name], _ = strconv.Atoi(app.Labels[gitopsbridge.WaveLabel])
	}
	if len(desired) != len(waveClusters) {
		t.Fatalf("the set generates %d Applications, want one per cluster (%d)", len(desired), len(waveClusters))
	}
	wantWaves := map[string]int{"hub": 0, "dev-use1": 1, "dev-usw2": 1, "stage-use1": 2, "prod-use1": 3, "prod-euw1": 3}
	for app, w := range waveOf {
		if cluster := app[len("addon-") : len(app)-len("-metrics-server")]; wantWaves[cluster] != w {
			t.Errorf("%s is in wave %d, want %d (from its environment)", app, w, wantWaves[cluster])
		}
	}

	cases := map[string]struct {
		degraded  string // the cluster whose Application the version leaves Degraded
		wantWaves []int  // the waves whose Applications are ever synced
	}{
		"a good version":                      {"", []int{0, 1, 2, 3}},
		"a version that breaks a dev cluster": {"dev-usw2", []int{0, 1}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			synced := rollOut(t, set, desired, "addon-"+tc.degraded+"-metrics-server", waveOf)
			var waves []int
			for _, app := range synced {
				if !slices.Contains(waves, waveOf[app]) {
					waves = append(waves, waveOf[app])
				}
			}
			if !slices.Equal(waves, tc.wantWaves) {
				t.Errorf("waves synced, in order: %v, want %v (%v)", waves, tc.wantWaves, synced)
			}
		})
	}
}

// appSetStatus keeps the ApplicationSet status the progressive sync manager sets (the controller persists it).
type appSetStatus struct {
	statuses []argov1alpha1.ApplicationSetApplicationStatus
}

func (s *appSetStatus) SetAppSetApplicationStatus(_ context.Context, _ *log.Entry, set *argov1alpha1.ApplicationSet,
	statuses []argov1alpha1.ApplicationSetApplicationStatus,
) error {
	set.Status.ApplicationStatus = statuses
	s.statuses = statuses
	return nil
}

func (s *appSetStatus) SetApplicationSetStatusCondition(context.Context, *argov1alpha1.ApplicationSet,
	argov1alpha1.ApplicationSetCondition, bool,
) error {
	return nil
}

// rollOut runs Argo CD's progressive sync over desired (the Applications of a new version, none synced yet) until
// nothing changes, completing each sync it triggers: Synced and Healthy, or Degraded for the Application named
// degraded. It returns the Applications in the order their syncs were triggered, and fails the test when one is
// triggered before every Application of a lower wave (waveOf) is Synced and Healthy.
func rollOut(t *testing.T, set argov1alpha1.ApplicationSet, desired []argov1alpha1.Application, degraded string,
	waveOf map[string]int,
) []string {
	t.Helper()
	status := &appSetStatus{}
	m := progressivesync.NewManager(nil, nil, status)
	logger := log.NewEntry(log.StandardLogger())
	current := make([]argov1alpha1.Application, len(desired))
	for i := range desired {
		current[i] = *desired[i].DeepCopy()
		current[i].Spec.SyncPolicy.Automated.Enabled = new(false)
		current[i].Status = argov1alpha1.ApplicationStatus{Sync: argov1alpha1.SyncStatus{Status: argov1alpha1.SyncStatusCodeOutOfSync},
			Health: argov1alpha1.AppHealthStatus{Status: health.HealthStatusMissing}}
	}
	var synced []string
	for round := range 4 * len(desired) {
		toSync, err := m.PerformProgressiveSyncs(t.Context(), logger, set, current, copies(desired))
		if err != nil {
			t.Fatal(err)
		}
		set.Status.ApplicationStatus = status.statuses
		for _, app := range m.SyncDesiredApplications(logger, &set, toSync, copies(desired)) {
			if app.Operation == nil || slices.Contains(synced, app.Name) {
				continue
			}
			for _, before := range current {
				if waveOf[before.Name] < waveOf[app.Name] && (before.Status.Health.Status != health.HealthStatusHealthy ||
					before.Status.Sync.Status != argov1alpha1.SyncStatusCodeSynced) {
					t.Errorf("round %d: %s (wave %d) syncs while %s (wave %d) is %s and %s", round, app.Name,
						waveOf[app.Name], before.Name, waveOf[before.Name], before.Status.Sync.Status, before.Status.Health.Status)
				}
			}
			synced = append(synced, app.Name)
			i := slices.IndexFunc(current, func(a argov1alpha1.Application) bool { return a.Name == app.Name })
			h, phase := health.HealthStatusHealthy, synccommon.OperationSucceeded
			if app.Name == degraded {
				h = health.HealthStatusDegraded
			}
			started := metav1.NewTime(time.Now().Add(time.Second))
			current[i].Status = argov1alpha1.ApplicationStatus{
				Sync:           argov1alpha1.SyncStatus{Status: argov1alpha1.SyncStatusCodeSynced},
				Health:         argov1alpha1.AppHealthStatus{Status: h},
				OperationState: &argov1alpha1.OperationState{Phase: phase, StartedAt: started, FinishedAt: &started},
			}
		}
	}
	if len(synced) == 0 {
		t.Fatal("progressive sync triggered no sync")
	}
	return synced
}

// copies are deep copies of apps (the manager changes what it is given).
func copies(apps []argov1alpha1.Application) []argov1alpha1.Application {
	out := make([]argov1alpha1.Application, len(apps))
	for i := range apps {
		out[i] = *apps[i].DeepCopy()
	}
	return out
}
