package rollout

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

const (
	good = "1111111111111111111111111111111111111111"
	bad  = "2222222222222222222222222222222222222222"
	old  = "0000000000000000000000000000000000000000"
)

// fleet is a Stack and a Gate in memory: its clusters' pins as the stack config holds them, what each `up` applied,
// and an Argo CD that reports a cluster Healthy at the revision its last `up` applied, or Failing where broken says.
type fleet struct {
	clusters []Cluster
	pinned   map[string]string // the stack config: cluster -> revision
	applied  map[string]string // what the last up applied
	record   *Record
	ups      []map[string]string // the pins of each up
	broken   map[string]string   // cluster -> the revision Argo CD fails to sync there
	pending  map[string]string   // cluster -> the revision Argo CD never settles there
	failUpAt int                 // the up (1-based) that fails, as a kill would; 0: none
	aborted  []string            // the clusters whose operations Abort ended, "cluster@revision"
	// Kubernetes: each cluster's version as its entry pins it and as its last up applied it, its upgrade insights,
	// and the clusters whose upgrade EKS reports FAILED.
	versions, upgradedTo map[string]string
	insights             map[string][]status.Insight
	upgradeFails         map[string]bool
	published            *Record // the record as the last Publish put it in the stack's outputs
}

func (f *fleet) Publish(context.Context) error {
	r := *f.record
	f.published = &r
	return nil
}

// Describe is EKS: a cluster ACTIVE at the version its last up applied (FAILED where upgradeFails says), with its
// insights.
func (f *fleet) Describe(_ context.Context, clusters []Cluster) (map[string]status.EKS, error) {
	out := map[string]status.EKS{}
	for _, c := range clusters {
		e := status.EKS{Status: "ACTIVE", Version: f.upgradedTo[c.Name], Insights: f.insights[c.Name]}
		if f.upgradeFails[c.Name] && e.Version != "1.33" {
			e.Status = "FAILED"
		}
		out[c.Name] = e
	}
	return out, nil
}

func (f *fleet) Resync(context.Context, []string, string, time.Time) error { return nil }

func (f *fleet) Abort(_ context.Context, clusters []string, revision string) error {
	for _, c := range clusters {
		f.aborted = append(f.aborted, c+"@"+revision[:1])
	}
	return nil
}

func newFleet() *fleet {
	f := &fleet{pinned: map[string]string{}, applied: map[string]string{}, broken: map[string]string{}, pending: map[string]string{},
		versions: map[string]string{}, upgradedTo: map[string]string{}, insights: map[string][]status.Insight{},
		upgradeFails: map[string]bool{}}
	for i, c := range []struct {
		name string
		wave int
	}{{"hub", 0}, {"dev-a", 1}, {"dev-b", 1}, {"stage-a", 2}, {"prod-a", 3}, {"prod-b", 3}} {
		f.clusters = append(f.clusters, Cluster{Name: c.name, Index: i, Wave: c.wave, Addons: 1})
		f.pinned[c.name], f.applied[c.name] = old, old
		f.versions[c.name], f.upgradedTo[c.name] = "1.33", "1.33"
	}
	return f
}

func (f *fleet) Clusters(context.Context) ([]Cluster, *Record, error) {
	out := slices.Clone(f.clusters)
	for i := range out {
		out[i].Revision, out[i].Version = f.pinned[out[i].Name], f.versions[out[i].Name]
	}
	if f.record == nil {
		return out, nil, nil
	}
	r := *f.record
	r.LastGood = maps.Clone(r.LastGood)
	return out, &r, nil
}

func (f *fleet) Pin(_ context.Context, field string, values map[int]string, record Record) error {
	into := f.pinned
	if field == KubernetesVersion {
		into = f.versions
	}
	for i, v := range values {
		into[f.clusters[i].Name] = v
	}
	record.LastGood = maps.Clone(record.LastGood)
	f.record = &record
	return nil
}

func (f *fleet) Up(context.Context) error {
	pins := maps.Clone(f.pinned)
	for c, v := range f.versions {
		if v != "1.33" {
			pins[c] = v // the Kubernetes cases' ups, as the version they pin
		}
	}
	f.ups = append(f.ups, pins)
	if len(f.ups) == f.failUpAt {
		return errors.New("killed")
	}
	maps.Copy(f.applied, f.pinned)
	maps.Copy(f.upgradedTo, f.versions)
	return nil
}

func (f *fleet) Check(_ context.Context, clusters []string, revision string, _ time.Time) (map[string]Health, error) {
	out := map[string]Health{}
	for _, c := range clusters {
		switch {
		case f.pending[c] == revision || f.applied[c] != revision:
			out[c] = Health{State: Pending}
		case f.broken[c] == revision:
			out[c] = Health{State: Failing, Application: "addon-" + c + "-metrics-server",
				Message: "one or more objects failed to apply: admission policy refused"}
		default:
			out[c] = Health{State: Healthy}
		}
	}
	return out, nil
}

// changedPerUp is, for each up, the clusters whose pin it changed from the up before (all old before the first),
// as "cluster=revision" sorted.
func (f *fleet) changedPerUp() [][]string {
	before := map[string]string{}
	for _, c := range f.clusters {
		before[c.Name] = old
	}
	var out [][]string
	for _, pins := range f.ups {
		var changed []string
		for _, c := range slices.Sorted(maps.Keys(pins)) {
			if pins[c] != before[c] {
				changed = append(changed, c+"="+pins[c][:1])
			}
		}
		out = append(out, changed)
		before = pins
	}
	return out
}

func TestRun(t *testing.T) {
	cases := map[string]struct {
		reason    string
		revision  string
		edit      func(*fleet, *Options)
		wantUps   [][]string // per up, the pins it changed ("cluster=<first digit of the revision>")
		wantState string
		wantErr   string
		wantPins  map[string]string // the stack config's pins after the run (first digit)
		// wantAborted are the Abort calls ("cluster@<first digit of the revision>"); nil: not checked
		wantAborted []string
	}{
		"a good revision": {
			reason:    "every wave in turn, each after the one before it is Synced and Healthy",
			revision:  good,
			wantUps:   [][]string{{"hub=1"}, {"dev-a=1", "dev-b=1"}, {"stage-a=1"}, {"prod-a=1", "prod-b=1"}},
			wantState: Done,
			wantPins:  map[string]string{"hub": "1", "dev-a": "1", "dev-b": "1", "stage-a": "1", "prod-a": "1", "prod-b": "1"},
		},
		"a revision that breaks a dev cluster": {
			reason:    "wave 1 fails and goes back, later waves never change, the failure names the cluster and Argo CD's message",
			revision:  bad,
			edit:      func(f *fleet, _ *Options) { f.broken["dev-b"] = bad },
			wantUps:   [][]string{{"hub=2"}, {"dev-a=2", "dev-b=2"}, {"dev-a=0", "dev-b=0"}},
			wantState: Failed,
			wantErr:   "wave 1 failed its gate at cluster dev-b (addon-dev-b-metrics-server): one or more objects failed to apply",
			// Argo CD's retries of dev-b's failed sync end before dev-a and dev-b go back.
			wantAborted: []string{"dev-a@2", "dev-b@2"},
			wantPins:    map[string]string{"hub": "2", "dev-a": "0", "dev-b": "0", "stage-a": "0", "prod-a": "0", "prod-b": "0"},
		},
		"a failure within the threshold": {
			reason:   "half of wave 1 may fail: the failed cluster goes back alone and the rollout goes on",
			revision: bad,
			edit: func(f *fleet, o *Options) {
				f.broken["dev-b"] = bad
				o.FailureThreshold = intstr.FromString("50%")
			},
			wantUps:   [][]string{{"hub=2"}, {"dev-a=2", "dev-b=2"}, {"dev-b=0"}, {"stage-a=2"}, {"prod-a=2", "prod-b=2"}},
			wantState: Done,
			wantPins:  map[string]string{"hub": "2", "dev-a": "2", "dev-b": "0", "stage-a": "2", "prod-a": "2", "prod-b": "2"},
		},
		"a cluster that never settles": {
			reason:    "past the timeout a pending cluster has failed",
			revision:  good,
			edit:      func(f *fleet, o *Options) { f.pending["stage-a"], o.Timeout = good, time.Millisecond },
			wantUps:   [][]string{{"hub=1"}, {"dev-a=1", "dev-b=1"}, {"stage-a=1"}, {"stage-a=0"}},
			wantState: Failed,
			wantErr:   "wave 2 failed its gate at cluster stage-a: not Synced and Healthy at " + good,
			wantPins:  map[string]string{"hub": "1", "dev-a": "1", "dev-b": "1", "stage-a": "0", "prod-a": "0", "prod-b": "0"},
		},
		"a cluster without add-ons": {
			reason:    "it has no Application to wait for: pinned, not gated",
			revision:  good,
			edit:      func(f *fleet, _ *Options) { f.pending["hub"], f.clusters[0].Addons = good, 0 },
			wantUps:   [][]string{{"hub=1"}, {"dev-a=1", "dev-b=1"}, {"stage-a=1"}, {"prod-a=1", "prod-b=1"}},
			wantState: Done,
			wantPins:  map[string]string{"hub": "1", "dev-a": "1", "dev-b": "1", "stage-a": "1", "prod-a": "1", "prod-b": "1"},
		},
		"a cluster failing before the change": {
			reason:    "stage-a is not Synced and Healthy at its revision: its wave fails before it is changed",
			revision:  good,
			edit:      func(f *fleet, _ *Options) { f.broken["stage-a"] = old },
			wantUps:   [][]string{{"hub=1"}, {"dev-a=1", "dev-b=1"}},
			wantState: Failed,
			wantErr:   "wave 2 failed its gate at cluster stage-a (addon-stage-a-metrics-server): before the change: one or more objects failed",
			wantPins:  map[string]string{"hub": "1", "dev-a": "1", "dev-b": "1", "stage-a": "0", "prod-a": "0", "prod-b": "0"},
		},
		"a revision that is no commit": {
			reason:   "Argo CD reports commits: a branch cannot be gated on",
			revision: "main",
			wantErr:  `revision "main": want a full commit SHA`,
			wantPins: map[string]string{"hub": "0", "dev-a": "0", "dev-b": "0", "stage-a": "0", "prod-a": "0", "prod-b": "0"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFleet()
			o := Options{Revision: tc.revision, Poll: time.Millisecond, Timeout: time.Second}
			if tc.edit != nil {
				tc.edit(f, &o)
			}
			rec, err := Run(t.Context(), f, f, o)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("%s: error %v, want %q", tc.reason, err, tc.wantErr)
			}
			if got := f.changedPerUp(); fmt.Sprint(got) != fmt.Sprint(tc.wantUps) {
				t.Errorf("%s: ups changed\n  %v\nwant\n  %v", tc.reason, got, tc.wantUps)
			}
			if rec.State != tc.wantState {
				t.Errorf("%s: record state %q, want %q", tc.reason, rec.State, tc.wantState)
			}
			got := map[string]string{}
			for c, rev := range f.pinned {
				got[c] = rev[:1]
			}
			if !maps.Equal(got, tc.wantPins) {
				t.Errorf("%s: pins %v, want %v", tc.reason, got, tc.wantPins)
			}
			if tc.wantAborted != nil && !slices.Equal(f.aborted, tc.wantAborted) {
				t.Errorf("%s: aborted %v, want %v", tc.reason, f.aborted, tc.wantAborted)
			}
			var wf *WaveFailed
			if tc.wantState == Failed && (!errors.As(err, &wf) || f.record.Cluster != wf.Cluster || f.record.State != Failed) {
				t.Errorf("the stack config does not record the failure: %+v (error %v)", f.record, err)
			}
			if tc.wantState != "" && (f.published == nil || f.published.State != tc.wantState || f.published.Cluster != f.record.Cluster) {
				t.Errorf("the stack's rollout output says %+v, want the record's outcome %+v", f.published, f.record)
			}
		})
	}
}

// TestRunResumes: a rollout killed in a wave's `up` resumes there on the next run: the wave already pinned is not
// changed again, only gated, and the later waves follow; a run after the end changes nothing, and a failed rollout
// is not retried unless asked.
func TestRunResumes(t *testing.T) {
	f := newFleet()
	f.failUpAt = 3 // wave 2's up
	o := Options{Revision: good, Poll: time.Millisecond, Timeout: time.Second}
	if _, err := Run(t.Context(), f, f, o); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the killed run: %v", err)
	}
	if f.record.State != Running || f.record.Wave != 2 || f.pinned["stage-a"] != good {
		t.Fatalf("after the kill the stack config says %+v, stage-a pinned %s: want wave 2 running, stage-a pinned", f.record, f.pinned["stage-a"])
	}
	f.failUpAt = 0
	upsBefore := len(f.ups)
	rec, err := Run(t.Context(), f, f, o)
	if err != nil || rec.State != Done {
		t.Fatalf("the resumed run: %+v, %v", rec, err)
	}
	// Wave 2 is pinned already: the resumed run's first up applies what the killed one did not, changing no pin;
	// then wave 3's.
	if got := f.changedPerUp()[upsBefore:]; fmt.Sprint(got) != fmt.Sprint([][]string{nil, {"prod-a=1", "prod-b=1"}}) {
		t.Errorf("the resumed run's ups changed %v, want nothing then wave 3's pins", got)
	}
}

// TestRunIsIdempotent: a rollout run again after its end changes nothing; one that failed is not retried unless
// asked (Retry), and then starts at the wave it failed in.
func TestRunIsIdempotent(t *testing.T) {
	f := newFleet()
	o := Options{Revision: good, Poll: time.Millisecond, Timeout: time.Second}
	if _, err := Run(t.Context(), f, f, o); err != nil {
		t.Fatal(err)
	}
	ups := len(f.ups)
	if rec, err := Run(t.Context(), f, f, o); err != nil || rec.State != Done || len(f.ups) != ups {
		t.Errorf("a second run: %+v, %v, %d ups after %d: want done, no up", rec, err, len(f.ups), ups)
	}

	f = newFleet()
	f.broken["stage-a"] = bad
	o.Revision = bad
	if _, err := Run(t.Context(), f, f, o); err == nil {
		t.Fatal("the bad revision passed")
	}
	ups = len(f.ups)
	var wf *WaveFailed
	if _, err := Run(t.Context(), f, f, o); !errors.As(err, &wf) || wf.Cluster != "stage-a" || len(f.ups) != ups {
		t.Errorf("a run after the failure: %v, %d ups after %d: want the recorded failure, no up", err, len(f.ups), ups)
	}
	delete(f.broken, "stage-a") // the cause fixed outside the repository (a policy on the cluster)
	o.Retry = true
	rec, err := Run(t.Context(), f, f, o)
	if err != nil || rec.State != Done {
		t.Fatalf("the retry: %+v, %v", rec, err)
	}
	if got := f.changedPerUp()[ups:]; fmt.Sprint(got) != fmt.Sprint([][]string{{"stage-a=2"}, {"prod-a=2", "prod-b=2"}}) {
		t.Errorf("the retry's ups changed %v: want wave 2 again, then wave 3 (waves 0 and 1 only gated)", got)
	}
}

func TestWritePlan(t *testing.T) {
	f := newFleet()
	f.pinned["dev-b"] = good
	clusters, _, _ := f.Clusters(t.Context())
	var out strings.Builder
	if err := WritePlan(&out, Plan(clusters, AddonsRepoRevision, good), AddonsRepoRevision, good); err != nil {
		t.Fatal(err)
	}
	want := "wave 0: hub (000000000000 -> 111111111111)\n" +
		"wave 1: dev-a (000000000000 -> 111111111111), dev-b (at it already)\n" +
		"wave 2: stage-a (000000000000 -> 111111111111)\n" +
		"wave 3: prod-a (000000000000 -> 111111111111), prod-b (000000000000 -> 111111111111)\n"
	if out.String() != want {
		t.Errorf("plan:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestRunKeepsHeldClustersBack: a cluster that failed within the threshold and went back stays there when the
// rollout is resumed: it is not changed a second time.
func TestRunKeepsHeldClustersBack(t *testing.T) {
	f := newFleet()
	f.broken["dev-b"] = bad
	f.failUpAt = 4 // wave 2's up, after dev-b went back (ups: hub, wave 1, dev-b's rollback, wave 2)
	o := Options{Revision: bad, Poll: time.Millisecond, Timeout: time.Second, FailureThreshold: intstr.FromInt32(1)}
	if _, err := Run(t.Context(), f, f, o); err == nil {
		t.Fatal("the killed run passed")
	}
	if msg := f.record.Held["dev-b"]; !strings.Contains(msg, "failed to apply") {
		t.Fatalf("the record holds %v, want dev-b with Argo CD's message", f.record.Held)
	}
	f.failUpAt = 0
	ups := len(f.ups)
	if rec, err := Run(t.Context(), f, f, o); err != nil || rec.State != Done {
		t.Fatalf("the resumed run: %+v, %v", rec, err)
	}
	for _, pins := range f.ups[ups:] {
		if pins["dev-b"] != old {
			t.Errorf("the resumed run changed dev-b again: %v", pins)
		}
	}
}

// TestRunKubernetes: a Kubernetes version goes wave by wave like a revision, gated by EKS: a cluster with an
// upgrade insight in ERROR holds its wave before anything changes; one whose upgrade fails stops the rollout, and
// its version is not taken back (an `up` cannot downgrade EKS), which the failure says.
func TestRunKubernetes(t *testing.T) {
	cases := map[string]struct {
		reason   string
		version  string
		edit     func(*fleet)
		wantUps  [][]string // per up, the versions it changed ("cluster=1.34")
		wantErr  string
		wantPins map[string]string
	}{
		"an upgrade": {
			reason:  "every wave in turn, each once EKS says its clusters are ACTIVE at the version",
			version: "1.34",
			wantUps: [][]string{{"hub=1.34"}, {"dev-a=1.34", "dev-b=1.34"}, {"stage-a=1.34"}, {"prod-a=1.34", "prod-b=1.34"}},
			wantPins: map[string]string{"hub": "1.34", "dev-a": "1.34", "dev-b": "1.34", "stage-a": "1.34",
				"prod-a": "1.34", "prod-b": "1.34"},
		},
		"an upgrade insight in ERROR": {
			reason:  "stage-a's insight holds wave 2 before it changes: waves 2 and 3 keep 1.33",
			version: "1.34",
			edit: func(f *fleet) {
				f.insights["stage-a"] = []status.Insight{{Name: "Deprecated APIs removed in Kubernetes v1.34", Status: "ERROR",
					Reason: "flowcontrol.apiserver.k8s.io/v1beta3 in use"}, {Name: "kubelet version skew", Status: "WARNING"}}
			},
			wantUps: [][]string{{"hub=1.34"}, {"dev-a=1.34", "dev-b=1.34"}},
			wantErr: `wave 2 failed its gate at cluster stage-a: before the change: upgrade insight in ERROR: ` +
				`"Deprecated APIs removed in Kubernetes v1.34" (flowcontrol.apiserver.k8s.io/v1beta3 in use)`,
			wantPins: map[string]string{"hub": "1.34", "dev-a": "1.34", "dev-b": "1.34", "stage-a": "1.33",
				"prod-a": "1.33", "prod-b": "1.33"},
		},
		"a failed upgrade": {
			reason:  "dev-b's control plane fails: the rollout stops at wave 1 and says what is not rolled back",
			version: "1.34",
			edit:    func(f *fleet) { f.upgradeFails["dev-b"] = true },
			wantUps: [][]string{{"hub=1.34"}, {"dev-a=1.34", "dev-b=1.34"}},
			wantErr: "wave 1 failed its gate at cluster dev-b: EKS reports the cluster FAILED at 1.34; Kubernetes 1.34 " +
				"is not rolled back (was: dev-a 1.33, dev-b 1.33): EKS's version rollback",
			wantPins: map[string]string{"hub": "1.34", "dev-a": "1.34", "dev-b": "1.34", "stage-a": "1.33",
				"prod-a": "1.33", "prod-b": "1.33"},
		},
		"two minors at once": {
			reason:  "EKS upgrades one minor at a time: refused before anything changes, naming every cluster",
			version: "1.35",
			wantErr: "version 1.35: cluster hub runs 1.33: EKS upgrades one minor at a time and never down (1.34 next); " +
				"cluster dev-a runs 1.33",
			wantPins: map[string]string{"hub": "1.33", "dev-a": "1.33", "dev-b": "1.33", "stage-a": "1.33",
				"prod-a": "1.33", "prod-b": "1.33"},
		},
		"no minor version": {
			reason:   "a patch version is not what a cluster's entry takes",
			version:  "1.34.2",
			wantErr:  `version "1.34.2": want a Kubernetes minor version such as 1.34`,
			wantPins: map[string]string{"hub": "1.33", "dev-a": "1.33", "dev-b": "1.33", "stage-a": "1.33", "prod-a": "1.33", "prod-b": "1.33"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFleet()
			if tc.edit != nil {
				tc.edit(f)
			}
			o := Options{Field: KubernetesVersion, Revision: tc.version, EKS: f, Poll: time.Millisecond, Timeout: time.Second}
			rec, err := Run(t.Context(), f, f, o)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("%s: error %v, want %q", tc.reason, err, tc.wantErr)
			}
			var ups [][]string
			before := maps.Clone(f.versions)
			for c := range before {
				before[c] = "1.33"
			}
			for _, pins := range f.ups {
				var changed []string
				for _, c := range slices.Sorted(maps.Keys(pins)) {
					if v := pins[c]; v != old && v != before[c] {
						changed = append(changed, c+"="+v)
						before[c] = v
					}
				}
				ups = append(ups, changed)
			}
			if fmt.Sprint(ups) != fmt.Sprint(tc.wantUps) {
				t.Errorf("%s: ups changed\n  %v\nwant\n  %v", tc.reason, ups, tc.wantUps)
			}
			if !maps.Equal(f.versions, tc.wantPins) {
				t.Errorf("%s: versions %v, want %v", tc.reason, f.versions, tc.wantPins)
			}
			if tc.wantErr == "" && (rec.State != Done || rec.Field != KubernetesVersion) {
				t.Errorf("%s: record %+v, want a done Kubernetes rollout", tc.reason, rec)
			}
			if f.pinned["hub"] != old {
				t.Errorf("a Kubernetes rollout moved an add-ons revision: %v", f.pinned)
			}
		})
	}
}

// TestRunKubernetesResumes: a Kubernetes rollout killed in a wave's `up` resumes there, and EKS gates that wave's
// clusters though the killed run pinned them already: one whose upgrade failed fails the wave.
func TestRunKubernetesResumes(t *testing.T) {
	f := newFleet()
	f.failUpAt = 2 // wave 1's up
	o := Options{Field: KubernetesVersion, Revision: "1.34", EKS: f, Poll: time.Millisecond, Timeout: time.Second}
	if _, err := Run(t.Context(), f, f, o); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the killed run: %v", err)
	}
	if f.versions["dev-a"] != "1.34" || f.record.State != Running || f.record.Wave != 1 {
		t.Fatalf("after the kill: versions %v, record %+v; want wave 1 pinned and running", f.versions, f.record)
	}
	f.failUpAt, f.upgradeFails["dev-a"] = 0, true
	_, err := Run(t.Context(), f, f, o)
	var wf *WaveFailed
	if !errors.As(err, &wf) || wf.Wave != 1 || wf.Cluster != "dev-a" || !strings.Contains(wf.Message, "FAILED") {
		t.Errorf("the resumed run: %v; want wave 1 failed at dev-a's upgrade", err)
	}
	if f.versions["stage-a"] != "1.33" {
		t.Errorf("a later wave changed: %v", f.versions)
	}
}
