package awsx

import (
	"fmt"
	"math/bits"
	"net/netip"
)

// subnetPair is the private and the public subnet CIDR of one availability zone.
type subnetPair struct{ private, public netip.Prefix }

// layout splits a VPC CIDR like awsx's default layout does: the VPC is cut into one block per zone (the zone
// count rounded up to a power of two); each block holds a private subnet of half its size and a public subnet of
// a quarter.
func layout(cidr string, zones int) ([]subnetPair, error) {
	vpc, err := netip.ParsePrefix(cidr)
	if err != nil || !vpc.Addr().Is4() {
		return nil, fmt.Errorf("cidrBlock %q: want an IPv4 CIDR", cidr)
	}
	if zones < 1 {
		return nil, fmt.Errorf("numberOfAvailabilityZones %d: want at least 1", zones)
	}
	zoneBits := bits.Len(uint(zones - 1))
	blockBits := vpc.Bits() + zoneBits
	if blockBits+2 > 28 {
		return nil, fmt.Errorf("cidrBlock %s is too small for %d zones", cidr, zones)
	}
	base := ipv4(vpc.Masked().Addr())
	size := uint32(1) << (32 - blockBits)
	pairs := make([]subnetPair, zones)
	for i := range zones {
		start := base + uint32(i)*size
		pairs[i] = subnetPair{
			private: netip.PrefixFrom(addr(start), blockBits+1),
			public:  netip.PrefixFrom(addr(start+size/2), blockBits+2),
		}
	}
	return pairs, nil
}

func ipv4(a netip.Addr) uint32 {
	b := a.As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func addr(v uint32) netip.Addr {
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}
