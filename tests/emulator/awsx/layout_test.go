package awsx

import (
	"net/netip"
	"testing"
)

func TestLayout(t *testing.T) {
	cases := []struct {
		cidr    string
		zones   int
		private []string
		public  []string
		wantErr bool
	}{
		{cidr: "10.10.0.0/16", zones: 3,
			private: []string{"10.10.0.0/19", "10.10.64.0/19", "10.10.128.0/19"},
			public:  []string{"10.10.32.0/20", "10.10.96.0/20", "10.10.160.0/20"}},
		{cidr: "10.20.0.0/16", zones: 2,
			private: []string{"10.20.0.0/18", "10.20.128.0/18"},
			public:  []string{"10.20.64.0/19", "10.20.192.0/19"}},
		{cidr: "10.30.0.0/25", zones: 4, wantErr: true}, // public subnets would be /29; AWS allows /28 at the smallest
		{cidr: "fd00::/56", zones: 2, wantErr: true},
		{cidr: "10.0.0.0/16", zones: 0, wantErr: true},
	}
	for _, tc := range cases {
		pairs, err := layout(tc.cidr, tc.zones)
		if tc.wantErr {
			if err == nil {
				t.Errorf("layout(%s, %d) = %v, want an error", tc.cidr, tc.zones, pairs)
			}
			continue
		}
		if err != nil {
			t.Fatalf("layout(%s, %d): %v", tc.cidr, tc.zones, err)
		}
		vpc := netip.MustParsePrefix(tc.cidr)
		for i, p := range pairs {
			if p.private.String() != tc.private[i] || p.public.String() != tc.public[i] {
				t.Errorf("zone %d: %s %s, want %s %s", i, p.private, p.public, tc.private[i], tc.public[i])
			}
			if !vpc.Contains(p.private.Addr()) || !vpc.Contains(p.public.Addr()) || p.private.Overlaps(p.public) {
				t.Errorf("zone %d subnets %s %s are not disjoint inside %s", i, p.private, p.public, vpc)
			}
		}
	}
}
