package pgvalue

import "strconv"

// Address families of the inet/cidr send format (PGSQL_AF_INET, PGSQL_AF_INET6 in utils/inet.h):
// not the operating system's AF_ values.
const (
	inetFamilyIPv4 = 2
	inetFamilyIPv6 = 3
)

// checkInet checks inet_send's family, bits, is_cidr, address length and address as inet_recv
// and cidr_recv do. The is_cidr byte is not checked: inet_recv ignores it too.
func checkInet(oid uint32, b []byte) *ValueError {
	if len(b) < 4 {
		return valueError(oid, 0, "need 4 bytes (family, bits, is_cidr, length), have "+itoa(len(b)))
	}
	family, bits, nb := b[0], int(b[1]), int(b[3])
	var size, maxBits int
	switch family {
	case inetFamilyIPv4:
		size, maxBits = 4, 32
	case inetFamilyIPv6:
		size, maxBits = 16, 128
	default:
		return valueError(oid, 0, "invalid address family "+itoa(int(family))+" (want 2 for IPv4 or 3 for IPv6)")
	}
	if bits > maxBits {
		return valueError(oid, 1, "invalid bits "+itoa(bits)+" (at most "+itoa(maxBits)+")")
	}
	if nb != size {
		return valueError(oid, 3, "invalid address length "+itoa(nb)+" (want "+itoa(size)+")")
	}
	if len(b) != 4+size {
		return valueError(oid, 4, "need "+itoa(size)+" address bytes, have "+itoa(len(b)-4))
	}
	if oid == oidCIDR {
		// cidr_recv rejects bits set past the mask length.
		for i, c := range b[4:] {
			keep := bits - 8*i // bits of this byte inside the mask
			var mask byte
			switch {
			case keep <= 0:
				mask = 0xFF
			case keep < 8:
				mask = 0xFF >> keep
			}
			if c&mask != 0 {
				return valueError(oid, 4+i, "invalid cidr value: bits set to the right of the mask length "+itoa(bits))
			}
		}
	}
	return nil
}

// appendInet formats a checked inet or cidr value as inet_out (which omits /32 and /128) and
// cidr_out (always /bits) do.
func appendInet(dst []byte, oid uint32, b []byte) []byte {
	bits, addr := int(b[1]), b[4:]
	maxBits := 8 * len(addr)
	if b[0] == inetFamilyIPv4 {
		for i, c := range addr {
			if i > 0 {
				dst = append(dst, '.')
			}
			dst = strconv.AppendUint(dst, uint64(c), 10)
		}
	} else {
		dst = appendIPv6(dst, addr)
	}
	if bits != maxBits || oid == oidCIDR {
		dst = append(dst, '/')
		dst = strconv.AppendInt(dst, int64(bits), 10)
	}
	return dst
}

// appendIPv6 writes an IPv6 address as PostgreSQL's inet_net_ntop_ipv6 does: the first longest
// run of two or more zero groups as "::", lower-case hex without leading zeros, and the last
// 32 bits in dotted decimal for ::a.b.c.d and ::ffff:a.b.c.d.
func appendIPv6(dst []byte, a []byte) []byte {
	var words [8]uint16
	for i := range words {
		words[i] = uint16(a[2*i])<<8 | uint16(a[2*i+1])
	}
	bestBase, bestLen, curBase, curLen := -1, 0, -1, 0
	for i, w := range words {
		if w == 0 {
			if curBase == -1 {
				curBase, curLen = i, 1
			} else {
				curLen++
			}
			continue
		}
		if curBase != -1 {
			if bestBase == -1 || curLen > bestLen {
				bestBase, bestLen = curBase, curLen
			}
			curBase = -1
		}
	}
	if curBase != -1 && (bestBase == -1 || curLen > bestLen) {
		bestBase, bestLen = curBase, curLen
	}
	if bestBase != -1 && bestLen < 2 {
		bestBase = -1
	}
	for i := 0; i < 8; i++ {
		if bestBase != -1 && i >= bestBase && i < bestBase+bestLen {
			if i == bestBase {
				dst = append(dst, ':')
			}
			continue
		}
		if i != 0 {
			dst = append(dst, ':')
		}
		if i == 6 && bestBase == 0 && (bestLen == 6 || bestLen == 7 && words[7] != 1 || bestLen == 5 && words[5] == 0xFFFF) {
			for k, c := range a[12:] {
				if k > 0 {
					dst = append(dst, '.')
				}
				dst = strconv.AppendUint(dst, uint64(c), 10)
			}
			return dst
		}
		dst = strconv.AppendUint(dst, uint64(words[i]), 16)
	}
	if bestBase != -1 && bestBase+bestLen == 8 {
		dst = append(dst, ':')
	}
	return dst
}
