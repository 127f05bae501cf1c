package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/bench/procmem"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// FleetReal is the fleet (the Fleet program) on real Kubernetes API servers: a control plane behind each cluster
// and every Kubernetes object written by the real Kubernetes provider (offline.Options.ControlPlanes). It is not
// among Impls: it is measured alone (MeasureReal), not against the floor and the peer, whose Kubernetes objects go
// to the emulator.
const FleetReal Impl = "fleet-real"

// MeasureReal runs each of Ops, then each of ChangeOps, of the fleet at size on real control planes, as Measure
// does, noting with each run the control planes' resident memory once it ends (Run.ControlPlanes); the control
// planes are deleted at the end.
func (r Runner) MeasureReal(ctx context.Context, size int) (runs []Run, err error) {
	if err := r.prepare(FleetReal, size, 0); err != nil {
		return nil, err
	}
	dir := r.Dir(FleetReal, size, 0)
	env, err := offline.Open(r.Root, dir, offline.Options{ControlPlanes: true})
	if err != nil {
		return nil, err
	}
	defer func() {
		err = errors.Join(err, env.Clusters.DeleteAll(context.Background()), env.Close())
	}()
	if err := r.withPlugins(env, dir); err != nil {
		return nil, err
	}
	for _, op := range append(slices.Clone(Ops), ChangeOps...) {
		if change := op.change(); change != nil {
			if err := r.writeProject(FleetReal, size, 0, change, false); err != nil {
				return nil, err
			}
			if err := r.withPlugins(env, dir); err != nil {
				return nil, err
			}
		}
		run, err := r.measure(ctx, env, FleetReal, size, 0, op, "")
		if err != nil {
			return nil, err
		}
		var pids []int
		for _, name := range env.Clusters.Names() {
			pids = append(pids, env.Clusters.PIDs(name)...)
		}
		run.ControlPlanes, run.ControlPlaneCount = procmem.Resident(pids), len(env.Clusters.Names())
		runs = append(runs, run)
	}
	return runs, nil
}

// withPlugins rewrites the project file of the run in dir with env's plugins (the real Kubernetes provider).
func (r Runner) withPlugins(env *offline.Env, dir string) error {
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
