package rollout

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// The fields of a cluster's stack config entry a rollout moves (Options.Field).
const (
	// AddonsRepoRevision is the add-ons repository revision the cluster secret names (addons_repo_revision).
	AddonsRepoRevision = "addonsRepoRevision"
	// KubernetesVersion is the cluster's Kubernetes minor version (its entry's version).
	KubernetesVersion = "version"
)

// Options are a rollout's revision and policy.
type Options struct {
	// Field is what the rollout moves: AddonsRepoRevision (default) or KubernetesVersion.
	Field string
	// Revision is what to roll out: for AddonsRepoRevision an add-ons repository commit, a full SHA (Argo CD reports
	// the commits it compares at, so only a commit can be gated on); for KubernetesVersion a minor version ("1.34")
	// one above, or equal to, each cluster's (EKS upgrades one minor at a time).
	Revision string
	// EKS is what EKS says of the clusters: a KubernetesVersion rollout needs it (its upgrade insights before a
	// wave, its control planes after).
	EKS EKS
	// Bake is how long a wave stays Synced and Healthy before the next one starts; it is checked again at the end.
	// Default: 0.
	Bake time.Duration
	// Timeout is how long a wave may take to be Synced and Healthy after its `up`; a cluster still pending then has
	// failed. Default: 15 minutes.
	Timeout time.Duration
	// FailureThreshold is how many clusters of a wave may fail their gate, a number ("1") or a share of the wave
	// ("25%", rounded down), before the wave fails: the failed ones go back to their last good revision either way
	// (an add-ons revision; a Kubernetes version stays, see KubernetesVersion's rollback in docs/waves.md).
	// Default: 0 (any failure fails the wave).
	FailureThreshold intstr.IntOrString
	// Poll is how often the gate is read while a wave settles. Default: 10 seconds.
	Poll time.Duration
	// Retry runs a rollout of Revision that failed before once more, from its first wave not done.
	Retry bool
	// Log receives what the rollout does, a line each; nil: nowhere.
	Log io.Writer
}

// Wave is one wave of a rollout's plan: its clusters and, of them, those whose revision the rollout changes.
type Wave struct {
	Wave     int
	Clusters []Cluster
	Changes  []Cluster
}

// Plan is the rollout of revision (or version, by field) over clusters: their waves in order, each with the
// clusters that do not run it yet.
func Plan(clusters []Cluster, field, revision string) []Wave {
	byWave := map[int]*Wave{}
	for _, c := range clusters {
		w, ok := byWave[c.Wave]
		if !ok {
			w = &Wave{Wave: c.Wave}
			byWave[c.Wave] = w
		}
		w.Clusters = append(w.Clusters, c)
		if c.pin(field) != revision {
			w.Changes = append(w.Changes, c)
		}
	}
	var out []Wave
	for _, n := range slices.Sorted(maps.Keys(byWave)) {
		out = append(out, *byWave[n])
	}
	return out
}

// pin is what c runs of field: its Revision or its Version.
func (c Cluster) pin(field string) string {
	if field == KubernetesVersion {
		return c.Version
	}
	return c.Revision
}

// WaveFailed is a rollout that stopped at a wave: its first failed cluster with Argo CD's (or EKS's) message, the
// clusters it put back on their last good revision, and, for a Kubernetes version, what was not rolled back.
type WaveFailed struct {
	Wave                          int
	Cluster, Application, Message string
	RolledBack                    []string
	NotRolledBack                 string
}

func (f *WaveFailed) Error() string {
	s := fmt.Sprintf("wave %d failed its gate at cluster %s", f.Wave, f.Cluster)
	if f.Application != "" {
		s += " (" + f.Application + ")"
	}
	s += ": " + f.Message
	if len(f.RolledBack) > 0 {
		s += "; rolled back to the last good revision: " + strings.Join(f.RolledBack, ", ")
	}
	if f.NotRolledBack != "" {
		s += "; " + f.NotRolledBack
	}
	return s
}

// Run rolls o.Revision out over the stack's clusters wave by wave, gated by gate (and o.EKS), as the package says.
// It returns the record as it left it, and a *WaveFailed when a wave failed (after putting it back).
func Run(ctx context.Context, stack Stack, gate Gate, o Options) (Record, error) {
	started := time.Now()
	o.Field = cmp.Or(o.Field, AddonsRepoRevision)
	o.Timeout = cmp.Or(o.Timeout, 15*time.Minute)
	o.Poll = cmp.Or(o.Poll, 10*time.Second)
	if o.Log == nil {
		o.Log = io.Discard
	}
	clusters, rec, err := stack.Clusters(ctx)
	if err != nil {
		return Record{}, err
	}
	if err := checkTarget(o, clusters); err != nil {
		return Record{}, err
	}
	// resumeAt is the wave a killed run stopped in: its pins may be in the stack config but not applied, so it gets
	// an `up` even with nothing to pin (one that finds nothing to change applies nothing).
	resumeAt := -1
	same := rec != nil && rec.field() == o.Field && rec.Revision == o.Revision
	switch {
	case same && rec.State == Done:
		fmt.Fprintf(o.Log, "%s already runs on every wave\n", o.Revision)
		return *rec, nil
	case same && rec.State == Failed && !o.Retry:
		return *rec, &WaveFailed{Wave: rec.Wave, Cluster: rec.Cluster, Message: rec.Message + " (recorded; -retry runs it again)"}
	case rec != nil && !same && rec.State == Running:
		return *rec, fmt.Errorf("the rollout of %s %s is under way at wave %d: run it to its end first",
			rec.field(), rec.Revision, rec.Wave)
	case same:
		fmt.Fprintf(o.Log, "resuming the rollout of %s at wave %d\n", o.Revision, rec.Wave)
		rec.State, rec.Cluster, rec.Message = Running, "", ""
		resumeAt = rec.Wave
	default:
		rec = &Record{Field: o.Field, Revision: o.Revision, LastGood: map[string]string{}, State: Running}
		if o.Field == AddonsRepoRevision {
			rec.Field = "" // as records have always said it
		}
		for _, c := range clusters {
			rec.LastGood[c.Name] = c.pin(o.Field)
		}
	}
	for _, w := range Plan(clusters, o.Field, o.Revision) {
		rec.Wave = w.Wave
		w.Changes = slices.DeleteFunc(w.Changes, func(c Cluster) bool { _, held := rec.Held[c.Name]; return held })
		// The clusters it is about to change must be Synced and Healthy where they are: a failure there is not the
		// revision's, and Argo CD, retrying it, would not sync the revision before its retries end. Before a
		// Kubernetes upgrade, none may have an upgrade insight in ERROR.
		if failed, err := before(ctx, gate, w.Changes, o); err != nil {
			return *rec, err
		} else if len(failed) > 0 {
			return fail(ctx, stack, rec, w.Wave, failed[0], "before the change: "+failed[0].health.Message, nil, "", o.Log)
		}
		pins := map[int]string{}
		for _, c := range w.Changes {
			pins[c.Index] = o.Revision
		}
		if err := stack.Pin(ctx, o.Field, pins, *rec); err != nil {
			return *rec, err
		}
		// since is when the wave's change began: a sync of the revision that failed before (in a run that failed,
		// its operation terminated) is not the wave's.
		since := started
		if len(pins) > 0 || w.Wave == resumeAt {
			fmt.Fprintf(o.Log, "wave %d: %s at %s\n", w.Wave, strings.Join(namesOf(w.Clusters), ", "), o.Revision)
			since = time.Now()
			if err := stack.Up(ctx); err != nil {
				return *rec, fmt.Errorf("wave %d: up: %w", w.Wave, err)
			}
		}
		failed, err := after(ctx, gate, w, rec.Held, o, since)
		if err != nil {
			return *rec, err
		}
		if len(failed) == 0 {
			healthy := "Synced and Healthy at " + o.Revision
			if o.Field == KubernetesVersion {
				healthy = "ACTIVE at " + o.Revision + ", add-ons Synced and Healthy"
			}
			fmt.Fprintf(o.Log, "wave %d: %s %s\n", w.Wave, strings.Join(namesOf(w.Clusters), ", "), healthy)
			continue
		}
		allowed, _ := intstr.GetScaledValueFromIntOrPercent(&o.FailureThreshold, len(w.Clusters), false)
		over := len(failed) > allowed
		var back []Cluster // the failed ones; the whole wave's changed clusters when over the threshold
		for _, c := range w.Clusters {
			isFailed := slices.ContainsFunc(failed, func(f failure) bool { return f.cluster == c.Name })
			if (isFailed || over) && rec.LastGood[c.Name] != o.Revision {
				back = append(back, c)
			}
		}
		notBack := ""
		if o.Field == KubernetesVersion {
			notBack = notRolledBack(back, rec, o.Revision)
			fmt.Fprintln(o.Log, notBack)
			back = nil
		} else if err := rollBack(ctx, stack, gate, back, rec, o); err != nil {
			return *rec, err
		}
		if over {
			return fail(ctx, stack, rec, w.Wave, failed[0], failed[0].health.Message, back, notBack, o.Log)
		}
		if rec.Held == nil {
			rec.Held = map[string]string{}
		}
		for _, f := range failed {
			rec.Held[f.cluster] = f.health.Message
		}
		fmt.Fprintf(o.Log, "wave %d: %d of %d clusters failed, within the threshold (%d); held: %s\n",
			w.Wave, len(failed), len(w.Clusters), allowed, strings.Join(slices.Sorted(maps.Keys(rec.Held)), ", "))
	}
	rec.State = Done
	if err := stack.Pin(ctx, o.Field, nil, *rec); err != nil {
		return *rec, err
	}
	publish(ctx, stack, o.Log)
	return *rec, nil
}

// publish writes the record into the stack's outputs (Stack.Publish); a failure is logged: the stack config holds
// the record either way.
func publish(ctx context.Context, stack Stack, log io.Writer) {
	if err := stack.Publish(ctx); err != nil {
		fmt.Fprintf(log, "the stack's rollout output is not updated (the stack config's %s is): %v\n", RecordKey, err)
	}
}

// after is what failed the gate of wave w after its `up` (begun at since): for an add-ons revision, those of its
// clusters (with add-ons, not held) that are not Synced and Healthy at it (settle); for a Kubernetes version, those
// (not held) whose control plane is not ACTIVE at it (upgraded: a resumed wave's clusters were pinned by the killed
// run), then those whose add-ons are not Synced and Healthy at their own revision.
func after(ctx context.Context, gate Gate, w Wave, held map[string]string, o Options, since time.Time) ([]failure, error) {
	if o.Field != KubernetesVersion {
		return settle(ctx, gate, gated(w.Clusters, held), o, since)
	}
	var clusters []Cluster
	for _, c := range w.Clusters {
		if _, isHeld := held[c.Name]; !isHeld {
			clusters = append(clusters, c)
		}
	}
	failed, err := upgraded(ctx, o, clusters)
	if err != nil || len(failed) > 0 {
		return failed, err
	}
	failed, _, err = atOwn(ctx, gate, clusters, func(c Cluster) string { return c.Revision }, o)
	return failed, err
}

// fail records in the stack config that the rollout failed at wave, first being the failed cluster and message what
// is said of it, and returns the record and the *WaveFailed, which names the clusters it put back (back).
func fail(ctx context.Context, stack Stack, rec *Record, wave int, first failure, message string, back []Cluster,
	notBack string, log io.Writer,
) (Record, error) {
	rec.State, rec.Cluster, rec.Message = Failed, first.cluster, message
	if err := stack.Pin(ctx, rec.field(), nil, *rec); err != nil {
		return *rec, err
	}
	publish(ctx, stack, log)
	return *rec, &WaveFailed{Wave: wave, Cluster: first.cluster, Application: first.health.Application,
		Message: message, RolledBack: namesOf(back), NotRolledBack: notBack}
}

// failure is a cluster that failed its gate and why.
type failure struct {
	cluster string
	health  Health
}

// settle waits until every one of clusters is Healthy at o.Revision, bakes, and returns those that failed: Failing,
// or still Pending when o.Timeout ran out. With since (the wave's change), an Application whose sync of the revision
// failed before it is synced again (Gate.Resync), once it compares at the revision. Failing clusters are returned once no cluster is pending any more: Argo
// CD's retries of a refused sync keep failing, and the others' outcome counts against the threshold too.
func settle(ctx context.Context, gate Gate, clusters []string, o Options, since time.Time) ([]failure, error) {
	return poll(ctx, o, func() (failed, pending []failure, err error) {
		if !since.IsZero() {
			if err := gate.Resync(ctx, clusters, o.Revision, since); err != nil {
				return nil, nil, err
			}
		}
		health, err := gate.Check(ctx, clusters, o.Revision, since)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range clusters {
			switch h := health[c]; h.State {
			case Failing:
				failed = append(failed, failure{c, h})
			case Healthy:
			default:
				pending = append(pending, failure{c, Health{State: Pending, Application: h.Application,
					Message: fmt.Sprintf("not Synced and Healthy at %s after %s (%s)", o.Revision, o.Timeout, h.Message)}})
			}
		}
		return failed, pending, nil
	})
}

// poll reads check every o.Poll until nothing is pending, bakes (o.Bake) and reads it once more, and returns what
// failed then; when o.Timeout runs out first, what failed and what is still pending.
func poll(ctx context.Context, o Options, check func() (failed, pending []failure, err error)) ([]failure, error) {
	deadline := time.Now().Add(o.Timeout)
	for {
		failed, pending, err := check()
		switch {
		case err != nil:
			return nil, err
		case len(pending) == 0 && len(failed) > 0:
			return failed, nil
		case len(pending) == 0 && o.Bake > 0:
			fmt.Fprintf(o.Log, "baking %s\n", o.Bake)
			if err := sleep(ctx, o.Bake); err != nil {
				return nil, err
			}
			o.Bake = 0 // checked once more, then done
			continue
		case len(pending) == 0:
			return nil, nil
		case time.Now().After(deadline):
			return append(failed, pending...), nil
		}
		if err := sleep(ctx, o.Poll); err != nil {
			return nil, err
		}
	}
}

// rollBack puts clusters back on their last good revisions (rec.LastGood) with an `up`, and waits (o.Timeout, no
// bake) until those at a commit are Synced and Healthy there; one that is not is logged, not an error: the rollout
// has failed already, and the next step is a person's.
func rollBack(ctx context.Context, stack Stack, gate Gate, clusters []Cluster, rec *Record, o Options) error {
	if len(clusters) == 0 {
		return nil
	}
	pins := map[int]string{}
	for _, c := range clusters {
		pins[c.Index] = rec.LastGood[c.Name]
	}
	fmt.Fprintf(o.Log, "rolling back %s to their last good revision\n", strings.Join(namesOf(clusters), ", "))
	if err := gate.Abort(ctx, namesOf(clusters), rec.Revision); err != nil {
		return err
	}
	if err := stack.Pin(ctx, AddonsRepoRevision, pins, *rec); err != nil {
		return err
	}
	if err := stack.Up(ctx); err != nil {
		return fmt.Errorf("rollback: up: %w", err)
	}
	failed, ungated, err := atOwn(ctx, gate, clusters, func(c Cluster) string { return rec.LastGood[c.Name] }, o)
	if err != nil {
		return err
	}
	for _, revision := range slices.Sorted(maps.Keys(ungated)) {
		fmt.Fprintf(o.Log, "%s: back on %s, not a commit: not gated\n", strings.Join(ungated[revision], ", "), revision)
	}
	for _, f := range failed {
		fmt.Fprintf(o.Log, "%s: not Synced and Healthy at its last good revision %s: %s\n", f.cluster,
			rec.LastGood[f.cluster], f.health.Message)
	}
	return nil
}

// before are those of clusters that are not Synced and Healthy at the revision they run now (atOwn), and, before a
// Kubernetes upgrade, first those with an upgrade insight in ERROR (blocked).
func before(ctx context.Context, gate Gate, clusters []Cluster, o Options) ([]failure, error) {
	if o.Field == KubernetesVersion {
		if failed, err := blocked(ctx, o.EKS, clusters); err != nil || len(failed) > 0 {
			return failed, err
		}
	}
	failed, _, err := atOwn(ctx, gate, clusters, func(c Cluster) string { return c.Revision }, o)
	return failed, err
}

// atOwn are those of clusters (with add-ons) that are not Synced and Healthy at their own revision (revisionOf), the
// clusters at each revision waited for as a wave is (o.Timeout, no bake). A revision that is no commit cannot be
// gated (Argo CD reports commits): its clusters are returned in ungated, by revision.
func atOwn(ctx context.Context, gate Gate, clusters []Cluster, revisionOf func(Cluster) string, o Options) (
	failed []failure, ungated map[string][]string, err error,
) {
	byRevision, ungated := map[string][]string{}, map[string][]string{}
	for _, c := range clusters {
		switch revision := revisionOf(c); {
		case c.Addons == 0:
		case gitopsbridge.IsCommit(revision):
			byRevision[revision] = append(byRevision[revision], c.Name)
		default:
			ungated[revision] = append(ungated[revision], c.Name)
		}
	}
	for _, revision := range slices.Sorted(maps.Keys(byRevision)) {
		at := o
		at.Revision, at.Bake = revision, 0
		f, err := settle(ctx, gate, byRevision[revision], at, time.Time{})
		if err != nil {
			return nil, nil, err
		}
		failed = append(failed, f...)
	}
	return failed, ungated, nil
}

// gated are the names of the clusters with add-ons, but those held back: one without any has no Application to
// wait for, and a held one stays on its last good revision.
func gated(clusters []Cluster, held map[string]string) []string {
	var out []string
	for _, c := range clusters {
		if _, isHeld := held[c.Name]; c.Addons > 0 && !isHeld {
			out = append(out, c.Name)
		}
	}
	return out
}

// namesOf are the clusters' names.
func namesOf(clusters []Cluster) []string {
	out := make([]string, len(clusters))
	for i, c := range clusters {
		out[i] = c.Name
	}
	return out
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// WritePlan writes the preview of a rollout of revision (or version, by field): each wave, its clusters, and the
// change of those it moves.
func WritePlan(w io.Writer, plan []Wave, field, revision string) error {
	for _, wave := range plan {
		var parts []string
		for _, c := range wave.Clusters {
			if c.pin(field) == revision {
				parts = append(parts, c.Name+" (at it already)")
			} else {
				parts = append(parts, fmt.Sprintf("%s (%s -> %s)", c.Name, short(c.pin(field)), short(revision)))
			}
		}
		if _, err := fmt.Fprintf(w, "wave %d: %s\n", wave.Wave, strings.Join(parts, ", ")); err != nil {
			return err
		}
	}
	return nil
}

// short is a commit's first 12 characters, or the revision as it is ("" is the repository's HEAD).
func short(revision string) string {
	switch {
	case revision == "":
		return "HEAD"
	case gitopsbridge.IsCommit(revision):
		return revision[:12]
	}
	return revision
}
