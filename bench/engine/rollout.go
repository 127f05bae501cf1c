package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/fleetgen"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/rollout"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// RolloutRun is `fleet rollout` (provider/rollout, bake 0) over a FleetReal fleet in waves, gated on Argo CD's own
// controllers on its hub: a good add-ons commit to every wave, then a bad one to the wave that fails and back.
type RolloutRun struct {
	// Size is the fleet's clusters, Waves its spokes' waves (the hub is wave 0, with no add-on: it runs Argo CD).
	Size, Waves int
	// Good is the seconds from the start of the good commit's rollout until every wave ran it, Synced and Healthy;
	// GoodUps its `up`s.
	Good    float64
	GoodUps int
	// Bad is the seconds from the start of the bad commit's rollout until the wave that failed was back on the good
	// commit, Synced and Healthy (the rollout's end); BadUps its `up`s; Failed its error (the wave, cluster and Argo
	// CD's message).
	Bad    float64
	BadUps int
	Failed string
	// Setup is the seconds of the fleet's first up and Argo CD's first settling, not measured above.
	Setup float64
}

// rolloutWaves is how many waves the spokes of the rollout's fleet are spread over, round-robin.
const rolloutWaves = 3

// canaryValues is the load balancer controller's values file of the add-ons commits the rollout takes: a pod label
// (the stand-in chart's podLabels), valid in the good commit, and in the bad one a value no API server takes (a
// label value is 63 characters of [A-Za-z0-9_.-] at most), so its sync fails on every cluster it reaches.
func canaryValues(value string) map[string]string {
	return map[string]string{"environments/default/addons/aws-load-balancer-controller/values.yaml": "podLabels:\n  fleet-canary: " + value + "\n"}
}

// MeasureRollout brings up the fleet of size clusters on real control planes with its spokes in rolloutWaves waves
// and the add-ons repository pinned to a commit, starts Argo CD on its hub, then times the rollouts (RolloutRun).
func (r Runner) MeasureRollout(ctx context.Context, size int) (run *RolloutRun, err error) {
	started := time.Now()
	dir := filepath.Join(r.Work, fmt.Sprintf("rollout-%d", size))
	env, err := r.openReal(dir)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeEnv(env)) }()
	base, err := env.PublishGit(offline.AddonsRepo, offline.AddonsFixture, "the offline add-ons repository")
	if err != nil {
		return nil, err
	}
	cfg, err := fleetgen.Fleet(size)
	if err != nil {
		return nil, err
	}
	cfg = offlineAddons(cfg)
	cfg.Repositories.Addons.Revision = &base
	for i := range cfg.Clusters {
		if i == 0 {
			cfg.Clusters[i].Addons = nil
			continue
		}
		wave := 1 + (i-1)%rolloutWaves
		cfg.Clusters[i].Wave = &wave
	}
	stack, err := upFleet(ctx, env, dir, cfg)
	if err != nil {
		return nil, err
	}
	hubName := controlplane.Name(fleetgen.Regions[0], "hub")
	argoStarted := time.Now()
	_, stop, err := env.StartArgoCD(ctx, fleetgen.Regions[0], "hub")
	if err != nil {
		return nil, fmt.Errorf("starting Argo CD on the hub: %w", err)
	}
	defer stop()
	hub, err := env.Clusters.Dynamic(hubName)
	if err != nil {
		return nil, err
	}
	if _, err := offline.WaitForApplications(ctx, hub, argoStarted, ArgoCDLimit); err != nil {
		return nil, err
	}
	run = &RolloutRun{Size: size, Waves: rolloutWaves, Setup: time.Since(started).Seconds()}
	driver := &countingStack{AutoStack: rollout.AutoStack{Stack: stack}}
	gate := rollout.ArgoCD{Hub: hub, Namespace: gitopsbridge.ApplicationsNamespace(gitopsbridge.DefaultNamespace, "addons")}
	o := rollout.Options{Poll: 2 * time.Second, Timeout: 10 * time.Minute, Log: &strings.Builder{}}

	for _, step := range []struct {
		value   string
		seconds *float64
		ups     *int
		wantErr bool
	}{{"good", &run.Good, &run.GoodUps, false}, {"broken-canary!", &run.Bad, &run.BadUps, true}} {
		src := filepath.Join(dir, "addons-"+strings.Trim(step.value, "!"))
		if err := os.CopyFS(src, os.DirFS(filepath.Join(r.Root, offline.AddonsFixture))); err != nil {
			return nil, err
		}
		for name, content := range canaryValues(step.value) {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
				return nil, err
			}
		}
		sha, err := env.PublishGit(offline.AddonsRepo, src, "add-ons: fleet-canary "+step.value)
		if err != nil {
			return nil, err
		}
		o.Revision, driver.ups = sha, 0
		began := time.Now()
		_, err = rollout.Run(ctx, driver, gate, o)
		*step.seconds, *step.ups = time.Since(began).Seconds(), driver.ups
		var failed *rollout.WaveFailed
		switch {
		case step.wantErr && errors.As(err, &failed):
			run.Failed = failed.Error()
		case step.wantErr || err != nil:
			return nil, fmt.Errorf("the rollout of the %s commit: %v\n%s", step.value, err, o.Log)
		}
	}
	return run, nil
}

// countingStack counts the `up`s of a rollout.
type countingStack struct {
	rollout.AutoStack
	ups int
}

func (s *countingStack) Up(ctx context.Context) error {
	s.ups++
	return s.AutoStack.Up(ctx)
}
