// Package problems collects invalid inputs of a component and reports them all at once, each with the
// field's schema path and the allowed form, before any resource is registered.
package problems

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
)

// Problem is one invalid input: the field's path as the schema spells it ("nodeGroups[1].maxSize") and
// what is wrong with it, including the allowed form.
type Problem struct {
	Field   string
	Message string
}

// Error lists every problem found in a component's inputs. It is returned before any resource is registered.
type Error struct {
	Component string
	Problems  []Problem
}

func (e *Error) Error() string {
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

// List collects Problems in the order the fields are checked.
type List []Problem

// Add records a problem at field; format and args give the message.
func (ps *List) Add(field, format string, args ...any) {
	*ps = append(*ps, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Err returns an *Error for component listing every problem, or nil when there is none.
func (ps List) Err(component string) error {
	if len(ps) == 0 {
		return nil
	}
	return &Error{Component: component, Problems: ps}
}

// Index is the path of a list element: field[i].
func Index(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }

// Key is the path of a map entry: field["k"].
func Key(field, k string) string { return fmt.Sprintf("%s[%q]", field, k) }

// As lets errors.As see an *Error as Pulumi's *errors.InputPropertiesError, which a provider reports to the
// engine as field-level input errors (InvalidArgument with one detail per property) instead of a failure.
func (e *Error) As(target any) bool {
	t, ok := target.(**perrors.InputPropertiesError)
	if !ok {
		return false
	}
	details := make([]perrors.InputPropertyErrorDetails, len(e.Problems))
	for i, p := range e.Problems {
		details[i] = perrors.InputPropertyErrorDetails{PropertyPath: p.Field, Reason: p.Message}
	}
	*t = perrors.NewInputPropertiesError(fmt.Sprintf("invalid %s inputs", e.Component), details...)
	return true
}

// Known returns the value of an input given as a plain string (pulumi.String or *pulumi.String), which can
// be checked before any resource is registered. Values that come from other resources are outputs: they are
// checked when they resolve.
func Known(in pulumi.StringInput) (string, bool) {
	switch v := in.(type) {
	case pulumi.String:
		return string(v), true
	case *pulumi.String:
		if v != nil {
			return string(*v), true
		}
	}
	return "", false
}
