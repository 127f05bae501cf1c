package ledger

import (
	"encoding/binary"
	"net/netip"
)

// freeBlock is the first /bits block of pool that overlaps none of taken (CIDRs), scanning from the pool's
// start; false when there is none or pool is not an IPv4 CIDR wider than /bits.
func freeBlock(pool string, bits int, taken []string) (string, bool) {
	p, err := netip.ParsePrefix(pool)
	if err != nil || !p.Addr().Is4() || p.Bits() > bits || bits > 32 {
		return "", false
	}
	var used []netip.Prefix
	for _, t := range taken {
		if q, err := netip.ParsePrefix(t); err == nil {
			used = append(used, q)
		}
	}
	base := p.Masked().Addr().As4()
	start := binary.BigEndian.Uint32(base[:])
	step := uint64(1) << (32 - bits)
	for k := uint64(0); k < uint64(1)<<(bits-p.Bits()); k++ {
		var a [4]byte
		binary.BigEndian.PutUint32(a[:], start+uint32(k*step))
		block := netip.PrefixFrom(netip.AddrFrom4(a), bits)
		if !overlapsAny(block, used) {
			return block.String(), true
		}
	}
	return "", false
}

func overlapsAny(p netip.Prefix, others []netip.Prefix) bool {
	for _, q := range others {
		if p.Overlaps(q) {
			return true
		}
	}
	return false
}
