package fleetcluster

import (
	"fmt"
	"strings"
)

// Problem is one invalid input: the field's path as the schema spells it ("nodeGroups[1].maxSize") and
// what is wrong with it, including the allowed form.
type Problem struct {
	Field   string
	Message string
}

// ValidationError lists every problem found in a component's inputs. It is returned before any resource
// is registered.
type ValidationError struct {
	Component string
	Problems  []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid %s inputs (%d problem", e.Component, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  - %s: %s", p.Field, p.Message)
	}
	return b.String()
}

// problems collects Problems in the order the fields are checked.
type problems []Problem

func (ps *problems) add(field, format string, args ...any) {
	*ps = append(*ps, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (ps problems) err(component string) error {
	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Component: component, Problems: ps}
}

func index(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }

func key(field, k string) string { return fmt.Sprintf("%s[%q]", field, k) }
