package ledger

import "testing"

func TestFreeBlock(t *testing.T) {
	cases := map[string]struct {
		pool  string
		bits  int
		taken []string
		want  string
		ok    bool
	}{
		"the pool's first block":          {"10.0.0.0/8", 16, nil, "10.0.0.0/16", true},
		"past taken blocks":               {"10.0.0.0/8", 16, []string{"10.0.0.0/16", "10.1.0.0/16"}, "10.2.0.0/16", true},
		"a gap before a taken block":      {"10.0.0.0/8", 16, []string{"10.1.0.0/16"}, "10.0.0.0/16", true},
		"past a smaller overlapping CIDR": {"10.0.0.0/8", 16, []string{"10.0.128.0/20"}, "10.1.0.0/16", true},
		"/24 blocks":                      {"10.20.0.0/16", 24, []string{"10.20.0.0/24"}, "10.20.1.0/24", true},
		"a full pool":                     {"10.0.0.0/15", 16, []string{"10.0.0.0/16", "10.1.0.0/16"}, "", false},
		"a pool smaller than a block":     {"10.0.0.0/20", 16, nil, "", false},
		"not a CIDR":                      {"ten", 16, nil, "", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := freeBlock(tc.pool, tc.bits, tc.taken)
			if got != tc.want || ok != tc.ok {
				t.Errorf("freeBlock(%s, /%d, %v) = %q, %v; want %q, %v", tc.pool, tc.bits, tc.taken, got, ok, tc.want, tc.ok)
			}
		})
	}
}
