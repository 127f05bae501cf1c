package problems

import (
	"errors"
	"testing"
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
