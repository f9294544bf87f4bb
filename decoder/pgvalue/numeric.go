package pgvalue

import "strconv"

// Wire markers of the numeric send format (utils/adt/numeric.c).
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
	// numericDScaleMask holds the bits a display scale may use.
	numericDScaleMask = 0x3FFF
	// numericHeaderLen is ndigits, weight, sign and dscale, an Int16 each.
	numericHeaderLen = 8
)

// numeric is numeric_send's value: base-10000 digits, the first of them worth 10000^weight.
type numeric struct {
	sign   uint16
	weight int // of digits' first digit
	dscale int // decimal digits after the point
	// digits are the base-10000 digits from the first non-zero one on (leading zero digits are
	// dropped, as numeric_recv drops them), an Int16 each; empty for zero.
	digits []byte
}

// readNumeric reads and checks numeric_send's format as numeric_recv does, in time linear in
// len(b).
func readNumeric(b []byte) (numeric, *ValueError) {
	var n numeric
	if len(b) < numericHeaderLen {
		return n, valueError(oidNumeric, 0, "need 8 bytes (ndigits, weight, sign, dscale), have "+itoa(len(b)))
	}
	nd := int(be16(b))
	n.weight = int(int16(be16(b[2:])))
	n.sign = be16(b[4:])
	n.dscale = int(be16(b[6:]))
	if want := numericHeaderLen + 2*nd; len(b) != want {
		return n, valueError(oidNumeric, 0, "ndigits "+itoa(nd)+" needs "+itoa(want)+" bytes, have "+itoa(len(b)))
	}
	for i := 0; i < nd; i++ {
		if d := be16(b[numericHeaderLen+2*i:]); d > 9999 {
			return n, valueError(oidNumeric, numericHeaderLen+2*i, "invalid digit "+itoa(int(d))+" (want 0 to 9999)")
		}
	}
	switch n.sign {
	case numericPos, numericNeg, numericNaN, numericPInf, numericNInf:
	default:
		return n, valueError(oidNumeric, 4, "invalid sign 0x"+strconv.FormatUint(uint64(n.sign), 16)+" (want 0x0000, 0x4000, 0xc000, 0xd000 or 0xf000)")
	}
	if n.sign == numericPos || n.sign == numericNeg {
		if n.dscale&numericDScaleMask != n.dscale {
			return n, valueError(oidNumeric, 6, "invalid dscale 0x"+strconv.FormatUint(uint64(n.dscale), 16))
		}
	}
	n.digits = b[numericHeaderLen:]
	for len(n.digits) > 0 && n.digits[0] == 0 && n.digits[1] == 0 {
		n.digits = n.digits[2:]
		n.weight--
	}
	return n, nil
}

// digit returns the base-10000 digit i places after the first non-zero one, 0 outside them.
func (n *numeric) digit(i int) int {
	if i < 0 || 2*i >= len(n.digits) {
		return 0
	}
	return int(be16(n.digits[2*i:]))
}

// nonZeroShown reports whether a digit numeric_out shows is not zero: the first non-zero digit
// is in the integer part, or its first non-zero decimal digit is within dscale.
func (n *numeric) nonZeroShown() bool {
	if len(n.digits) == 0 {
		return false
	}
	if n.weight >= 0 {
		return true
	}
	lead := 0 // zeros before the digit's first non-zero decimal digit
	for p := 1000; n.digit(0) < p; p /= 10 {
		lead++
	}
	return 4*(-n.weight-1)+lead+1 <= n.dscale
}

// formatNumeric writes a checked numeric_send value as numeric_out does: exactly dscale digits
// after the point, the digits beyond dscale dropped (numeric_recv truncates them), and no minus
// sign when every digit shown is zero. It writes a chunk at a time and stops at the cap, so the
// work is what is shown, however large the weight or the scale.
func formatNumeric(o *out, b []byte) {
	n, _ := readNumeric(b)
	switch n.sign {
	case numericNaN:
		o.str("NaN")
		return
	case numericPInf:
		o.str("Infinity")
		return
	case numericNInf:
		o.str("-Infinity")
		return
	}
	buf := o.scratch[:0]
	if n.sign == numericNeg && n.nonZeroShown() {
		buf = append(buf, '-')
	}
	d := 0 // the digit written next, counted from the first non-zero one
	if n.weight < 0 || len(n.digits) == 0 {
		buf = append(buf, '0')
		if len(n.digits) > 0 {
			d = n.weight + 1
		}
	} else {
		buf = strconv.AppendInt(buf, int64(n.digit(0)), 10)
		// The digits sent, four decimal digits each, then the zeros of the digits not sent
		// (numeric_send drops trailing zero digits: a large weight is mostly zeros).
		sent := min(n.weight, len(n.digits)/2-1)
		for d = 1; d <= sent && !o.done(); d++ {
			o.steps++
			buf = appendDigit4(buf, n.digit(d))
			if len(buf) > len(o.scratch)-4 {
				o.bytes(buf)
				buf = o.scratch[:0]
			}
		}
		if d <= n.weight {
			o.bytes(buf)
			buf = o.scratch[:0]
			o.zeros(4 * (n.weight - d + 1))
			d = n.weight + 1
		}
	}
	if n.dscale > 0 {
		buf = append(buf, '.')
		i := 0
		for ; i < n.dscale && 2*d < len(n.digits) && !o.done(); d++ {
			o.steps++
			v := n.digit(d)
			if d < 0 {
				v = 0 // zeros between the point and the first digit (a negative weight)
			}
			if n.dscale-i >= 4 {
				buf = appendDigit4(buf, v)
				i += 4
			} else {
				for p := 1000; p > 0 && i < n.dscale; p /= 10 {
					buf = append(buf, byte('0'+v/p%10))
					i++
				}
			}
			if len(buf) > len(o.scratch)-4 {
				o.bytes(buf)
				buf = o.scratch[:0]
			}
		}
		o.bytes(buf)
		buf = o.scratch[:0]
		o.zeros(n.dscale - i)
	}
	o.bytes(buf)
}

// appendDigit4 appends a base-10000 digit as its four decimal digits.
func appendDigit4(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}
