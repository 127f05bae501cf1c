package problems

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
)

func TestErr(t *testing.T) {
	cases := map[string]struct {
		reason string
		add    func(*List)
		want   string
	}{
		"none": {reason: "no problem is no error", add: func(*List) {}, want: ""},
		"one": {
			reason: "singular wording",
			add:    func(l *List) { l.Add("region", "%q is not a region", "x") },
			want:   "invalid fleet:index:X inputs (1 problem):\n  - region: \"x\" is not a region",
		},
		"several in order": {
			reason: "every problem, in the order found, with its path",
			add: func(l *List) {
				l.Add(Index("nodeGroups", 1)+".name", "duplicate")
				l.Add(Key("tags", "aws:x"), "reserved")
			},
			want: "invalid fleet:index:X inputs (2 problems):\n  - nodeGroups[1].name: duplicate\n  - tags[\"aws:x\"]: reserved",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var l List
			tc.add(&l)
			err := l.Err("fleet:index:X")
			if tc.want == "" {
				if err != nil {
					t.Errorf("%s: got %v", tc.reason, err)
				}
				return
			}
			var perr *Error
			if !errors.As(err, &perr) || err.Error() != tc.want {
				t.Errorf("%s:\n got %v\nwant %s", tc.reason, err, tc.want)
			}
		})
	}
}

func TestAsInputPropertiesError(t *testing.T) {
	var l List
	l.Add("region", "bad")
	l.Add(Index("nodeGroups", 0)+".name", "empty")
	var ipe *perrors.InputPropertiesError
	if !errors.As(fmt.Errorf("wrapped: %w", l.Err("fleet:index:X")), &ipe) {
		t.Fatal("an *Error is not seen as an InputPropertiesError")
	}
	want := []perrors.InputPropertyErrorDetails{{PropertyPath: "region", Reason: "bad"},
		{PropertyPath: "nodeGroups[0].name", Reason: "empty"}}
	if len(ipe.Errors) != 2 || ipe.Errors[0] != want[0] || ipe.Errors[1] != want[1] {
		t.Errorf("details = %v, want %v", ipe.Errors, want)
	}
}

func TestKnown(t *testing.T) {
	s := pulumi.String("x")
	cases := map[string]struct {
		reason string
		in     pulumi.StringInput
		want   string
		known  bool
	}{
		"plain":       {reason: "a plain string is checked now", in: pulumi.String("x"), want: "x", known: true},
		"pointer":     {reason: "a pointer to a plain string is plain too", in: &s, want: "x", known: true},
		"nil pointer": {reason: "a nil pointer has no value", in: (*pulumi.String)(nil)},
		"nil":         {reason: "no input has no value"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, known := Known(tc.in)
			if got != tc.want || known != tc.known {
				t.Errorf("%s: got (%q, %v), want (%q, %v)", tc.reason, got, known, tc.want, tc.known)
			}
		})
	}
}
