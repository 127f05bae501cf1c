package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/gitops-fleet/pulumi-fleet/bench/procmem"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// FleetReal is the fleet (the Fleet program) on real Kubernetes API servers: a control plane behind each cluster
// and every Kubernetes object written by the real Kubernetes provider (offline.Options.ControlPlanes). It is not
// among Impls: it is measured alone, not against the floor and the peer, whose Kubernetes objects go to the
// emulator.
const FleetReal Impl = "fleet-real"

// openEnv is the offline cloud of a run of impl in dir: with control planes for FleetReal, whose project file then
// names the real Kubernetes provider (withPlugins).
func (r Runner) openEnv(impl Impl, dir string) (*offline.Env, error) {
	if impl != FleetReal {
		return offline.New(r.Root, dir)
	}
	env, err := offline.Open(r.Root, dir, offline.Options{ControlPlanes: true})
	if err != nil {
		return nil, err
	}
	// The add-ons repository Argo CD reads after the up (runArgoCD, offlineAddons).
	if _, err := env.PublishGit(offline.AddonsRepo, offline.AddonsFixture, "the offline add-ons repository"); err != nil {
		return nil, errors.Join(err, closeEnv(env))
	}
	if err := r.withPlugins(env, dir); err != nil {
		return nil, errors.Join(err, closeEnv(env))
	}
	return env, nil
}

// closeEnv deletes env's control planes, if it has them, and closes it.
func closeEnv(env *offline.Env) error {
	var err error
	if env.Clusters != nil {
		err = env.Clusters.DeleteAll(context.Background())
	}
	return errors.Join(err, env.Close())
}

// withPlugins rewrites the project file of the run in dir with env's plugins (the real Kubernetes provider), where
// env has control planes; the emulated runs find their plugins on PATH.
func (r Runner) withPlugins(env *offline.Env, dir string) error {
	if env.Clusters == nil {
		return nil
	}
	path := filepath.Join(projectDir(dir), "Pulumi.yaml")
	project, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if project, err = env.ProjectFile(project); err != nil {
		return err
	}
	return os.WriteFile(path, project, 0o644)
}

// controlPlanesMemory is the resident memory of env's control planes' processes now, in bytes, and how many
// control planes there are (0, 0 without control planes).
func controlPlanesMemory(env *offline.Env) (int64, int) {
	if env.Clusters == nil {
		return 0, 0
	}
	var pids []int
	names := env.Clusters.Names()
	for _, name := range names {
		pids = append(pids, env.Clusters.PIDs(name)...)
	}
	return procmem.Resident(pids), len(names)
}
