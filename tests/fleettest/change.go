package fleettest

import (
	"github.com/google/go-cmp/cmp"
)

// Change is a day-2 change of a Configured stack, as a user makes it: an edit of the stack file, the exact plan its
// preview must show, and what else to check of the preview's and the up's steps. Apply runs it and then checks that
// the next preview plans nothing, the second `up` of every change.
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
}

// Apply previews the change (its plan checked), runs up, checks the up, then that a preview plans no change. It
// returns the up's steps.
func (s *Stack) Apply(c Change) Steps {
	t := s.env.t
	t.Helper()
	if c.Edit != nil {
		c.Edit(s.Config())
	}
	preview := s.Preview("preview")
	if c.WantPlan != nil {
		if diff := cmp.Diff(c.WantPlan, preview.Plan()); diff != "" {
			t.Errorf("the change's plan (-want +got):\n%s", diff)
		}
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
	s.Settled()
	return up
}
