package fleettest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
)

// settle is a stack's settled check left to its next operation (SettledByNext), shared by the stack's copies (For).
type settle struct {
	root       testing.TB // the test the stack was made for
	by         testing.TB // the test that left the check, nil when none is left
	registered bool       // the root's cleanup that fails a check left at its end
}

// left is the check left to the next operation, now taken: the name of the test that left it, "" for none or for a
// test that failed already (whatever it left unchecked, the run is red).
func (st *settle) left() string {
	by := st.by
	st.by = nil
	if by == nil || by.Failed() || st.root.Failed() {
		return ""
	}
	return by.Name()
}

// Settled checks that a preview of the stack as it is now plans no change (`preview --expect-no-changes`): the
// second `up` of a change.
func (s *Stack) Settled() {
	s.env.t.Helper()
	s.settle.by = nil
	if err := s.TryPreview("preview-no-changes", optpreview.ExpectNoChanges()); err != nil {
		s.env.t.Fatalf("stack %s: preview --expect-no-changes: %v", s.name, err)
	}
}

// SettledByNext leaves the settled check (Settled) to the stack's next operation, which must be an exact plan:
// Plan, or Apply with a WantPlan. An exact plan fails on any change its edit does not make, a change a stack that
// did not settle would plan again, so it checks what Settled would have, for one preview less. Any other operation
// next fails the test, and so does the test's end with the check still left.
func (s *Stack) SettledByNext() {
	s.env.t.Helper()
	// The check is the stack's test's to end with, not a subtest's, which ends before the next operation.
	s.rootCleanup(func() {
		if by := s.settle.left(); by != "" {
			s.settle.root.Errorf("stack %s: %s left its settled check to the next operation (SettledByNext), and there was "+
				"none; end with Settled", s.name, by)
		}
	})
	s.settle.by = s.env.t
}

// rootCleanup registers f once per stack on the test the stack was made for.
func (s *Stack) rootCleanup(f func()) {
	if !s.settle.registered {
		s.settle.registered = true
		s.settle.root.Cleanup(f)
	}
}

// unsettled fails the test when a settled check was left to this operation, op, which is not an exact plan.
func (s *Stack) unsettled(op string) {
	s.env.t.Helper()
	if by := s.settle.left(); by != "" {
		s.env.t.Errorf("stack %s: %s left its settled check to the next operation (SettledByNext), which must be an "+
			"exact plan (Plan, or Apply with a WantPlan), not %s", s.name, by, op)
	}
}

// proved settles a check left to this operation, an exact plan, and returns the test that left it ("" for none).
func (s *Stack) proved() string { return s.settle.left() }

// Plan previews the stack as it is now (its output logged as op) and checks that it plans exactly want (operations
// by resource type); it returns the preview's steps. It also settles a check left to it (SettledByNext).
func (s *Stack) Plan(op string, want Plan) Steps {
	t := s.env.t
	t.Helper()
	by := s.proved()
	steps := s.preview(op)
	if diff := cmp.Diff(want, steps.Plan()); diff != "" {
		if by != "" {
			diff += "\n(the stack's settled check after " + by + " was left to this plan: a change the edit does not " +
				"make may be one the stack plans again after every up)"
		}
		t.Errorf("%s of stack %s: plan (-want +got):\n%s", op, s.name, diff)
	}
	return steps
}
