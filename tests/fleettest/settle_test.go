package fleettest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a test that records what the harness reports to it and the cleanups it registers; a failure fails
// its parent too, as a subtest's does.
type recorder struct {
	testing.TB
	name     string
	parent   *recorder
	failed   bool
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()          {}
func (r *recorder) Name() string     { return r.name }
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Failed() bool     { return r.failed }
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	for p := r; p != nil; p = p.parent {
		p.failed = true
	}
}

// end runs the cleanups, last registered first, as a test's end does.
func (r *recorder) end() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestSettledByNextNeedsAnExactPlanNext(t *testing.T) {
	for _, tc := range []struct {
		name string
		next func(s *Stack) // what follows SettledByNext, in a subtest
		want []string       // what the errors say, in order; none: no error
	}{
		{"an exact plan settles it", func(s *Stack) { s.proved() }, nil},
		{"an up does not", func(s *Stack) { s.unsettled("Up") },
			[]string{"TestDay2/add a spoke left its settled check", "must be an exact plan", "not Up"}},
		{"nor a preview whose plan is not checked", func(s *Stack) { s.unsettled("Preview") },
			[]string{"not Preview"}},
		{"nor the test's end", func(s *Stack) {},
			[]string{"TestDay2/add a spoke left its settled check", "there was none; end with Settled"}},
		{"a second check left and settled", func(s *Stack) { s.proved(); s.SettledByNext(); s.proved() }, nil},
		{"a second check left and not settled", func(s *Stack) { s.proved(); s.SettledByNext() },
			[]string{"TestDay2/toggle left its settled check", "there was none"}},
		{"nothing more once the test failed", func(s *Stack) { s.env.t.Errorf("a failed check") },
			[]string{"a failed check"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := &recorder{name: "TestDay2"}
			s := &Stack{env: &Env{t: root}, name: "day2", settle: &settle{root: root}}
			sub := &recorder{name: "TestDay2/add a spoke", parent: root}
			s.For(sub).SettledByNext()
			next := &recorder{name: "TestDay2/toggle", parent: root}
			tc.next(s.For(next))
			root.end()
			errs := append(append(sub.errs, next.errs...), root.errs...)
			if len(tc.want) == 0 {
				if len(errs) != 0 {
					t.Errorf("errors %q, want none", errs)
				}
				return
			}
			if len(errs) != 1 {
				t.Fatalf("errors %q, want one saying %q", errs, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs[0], w) {
					t.Errorf("error %q does not say %q", errs[0], w)
				}
			}
		})
	}
}
