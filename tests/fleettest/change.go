package fleettest

import (
	"github.com/google/go-cmp/cmp"
)

// Change is a day-2 change of a Configured stack, as a user makes it: an edit of the stack file, the exact plan its
// preview must show, and what else to check of the preview's and the up's steps. Apply runs it and then checks that
// the next preview plans nothing, the second `up` of every change (or leaves that check to the next exact plan:
// SettledByNext).
type Change struct {
	// Edit edits the stack's config.
	Edit func(Config)
	// WantPlan is the exact plan of the preview (operations by resource type); nil leaves it to CheckPreview.
	WantPlan Plan
	// CheckPreview and CheckUp, when set, check the preview's and the up's steps further (the order of steps, the
	// URNs touched).
	CheckPreview, CheckUp func(Steps)
	// UpMatchesPreview checks that the up created exactly the resources the preview planned to create.
	UpMatchesPreview bool
	// SettledByNext leaves the settled check after the up to the stack's next operation, an exact plan
	// (Stack.SettledByNext).
	SettledByNext bool
}

// Apply previews the change (its plan checked; an exact plan settles a check left to it, SettledByNext), runs up,
// checks the up, then that a preview plans no change. It returns the up's steps.
func (s *Stack) Apply(c Change) Steps {
	t := s.env.t
	t.Helper()
	if c.Edit != nil {
		c.Edit(s.Config())
	}
	var preview Steps
	if c.WantPlan != nil {
		preview = s.Plan("preview", c.WantPlan)
	} else {
		preview = s.Preview("preview")
	}
	if c.CheckPreview != nil {
		c.CheckPreview(preview)
	}
	up := s.Up("up").Steps
	if c.UpMatchesPreview {
		if diff := cmp.Diff(preview.URNs("create"), up.URNs("create")); diff != "" {
			t.Errorf("up created other resources than the preview planned (-planned +created):\n%s", diff)
		}
	}
	if c.CheckUp != nil {
		c.CheckUp(up)
	}
	if c.SettledByNext {
		s.SettledByNext()
	} else {
		s.Settled()
	}
	return up
}
