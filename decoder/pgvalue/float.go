package pgvalue

import (
	"math"
	"math/bits"
	"strconv"
)

// appendFloat formats f as float4out and float8out do with extra_float_digits > 0 (the default
// since PostgreSQL 12): the shortest decimal that reads back as f, in fixed notation when the
// decimal exponent is at least -4 and below 15 (float8) or 6 (float4), otherwise as d.ddde±XX
// with at least two exponent digits ("1e+30", "1.5e-05").
//
// PostgreSQL's shortest decimal differs from strconv's in one way: its Ryu build
// (STRICTLY_SHORTEST 0) never picks a decimal lying exactly half-way between f and a
// neighbouring float, where strconv does when f's mantissa is even. 1e23 is such a point: it is
// the double 99999999999999991611392 to strconv but "9.999999999999999e+22" to PostgreSQL.
func appendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if math.Signbit(f) {
		dst = append(dst, '-')
		f = -f
	}
	if f == 0 {
		return append(dst, '0')
	}
	var buf [32]byte
	digits, exp := shortestDigits(buf[:0], f, -1, bitSize)
	if onRoundingBoundary(f, bitSize, digits, exp) {
		// The next longer correctly rounded decimal that is neither the boundary nor outside
		// the rounding interval is what Ryu finds (the closest candidate of the shortest
		// length inside the open interval).
		for n := len(digits) + 1; n <= 17; n++ {
			var nbuf [32]byte
			d, e := shortestDigits(nbuf[:0], f, n, bitSize)
			if insideRoundingInterval(f, bitSize, d, e) {
				digits, exp = append(buf[:0], d...), e
				break
			}
		}
	}
	limit := 15
	if bitSize == 32 {
		limit = 6
	}
	nd := len(digits)
	switch {
	case exp >= -4 && exp < 0:
		dst = append(dst, '0', '.')
		for k := 0; k < -exp-1; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case exp >= 0 && exp < limit:
		if nd <= exp+1 {
			dst = append(dst, digits...)
			for k := nd; k < exp+1; k++ {
				dst = append(dst, '0')
			}
			return dst
		}
		dst = append(dst, digits[:exp+1]...)
		dst = append(dst, '.')
		return append(dst, digits[exp+1:]...)
	}
	dst = append(dst, digits[0])
	if nd > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

// shortestDigits returns the decimal digits of f > 0 (n significant digits, or the shortest
// that read back as f when n is -1) without trailing zeros, and the decimal exponent of the
// first digit: f ≈ 0.d1d2d3… × 10^(exp+1). The digits are written into buf.
func shortestDigits(buf []byte, f float64, n, bitSize int) (digits []byte, exp int) {
	prec := n - 1
	if n < 0 {
		prec = -1
	}
	e := strconv.AppendFloat(buf[len(buf):], f, 'e', prec, bitSize) // d.ddde±dd
	i := 0
	nd := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			e[nd] = e[i]
			nd++
		}
	}
	exp, _ = strconv.Atoi(string(e[i+1:])) // "+30", "-05": strconv wrote it just above
	for nd > 1 && e[nd-1] == '0' {
		nd--
	}
	return e[:nd], exp
}

// floatParts returns f > 0 as m × 2^e, and whether the gap to the float below f is half the
// gap above (m is a power of two above the smallest exponent).
func floatParts(f float64, bitSize int) (m uint64, e int, pow2 bool) {
	if bitSize == 32 {
		b := math.Float32bits(float32(f))
		mant, be := uint64(b&(1<<23-1)), int(b>>23&0xFF)
		if be == 0 {
			return mant, -149, false
		}
		return mant | 1<<23, be - 150, mant == 0 && be > 1
	}
	b := math.Float64bits(f)
	mant, be := b&(1<<52-1), int(b>>52&0x7FF)
	if be == 0 {
		return mant, -1074, false
	}
	return mant | 1<<52, be - 1075, mant == 0 && be > 1
}

// decimalParts returns the decimal 0.digits × 10^(exp+1) as d × 10^p. The digits are at most
// 17, written by strconv.AppendFloat, so they always fit.
func decimalParts(digits []byte, exp int) (d uint64, p int) {
	d, _ = strconv.ParseUint(string(digits), 10, 64)
	return d, exp - len(digits) + 1
}

// onRoundingBoundary reports whether the decimal 0.digits × 10^(exp+1) is exactly one of the two
// points half-way between f > 0 and its neighbouring floats, computed with integers: the
// decimal d × 10^p equals odd × 2^t only if the powers of two and the odd parts agree.
func onRoundingBoundary(f float64, bitSize int, digits []byte, exp int) bool {
	m, e, pow2 := floatParts(f, bitSize)
	d, p := decimalParts(digits, exp)
	// d × 10^p with d odd × 2^s.
	s := bits.TrailingZeros64(d)
	odd := d >> s
	t := p + s // the power of two in d × 10^p once five-factors are moved into odd
	if p >= 0 {
		for k := 0; k < p; k++ {
			hi, lo := bits.Mul64(odd, 5)
			if hi != 0 {
				return false
			}
			odd = lo
		}
	} else {
		for k := 0; k < -p; k++ {
			if odd%5 != 0 {
				return false
			}
			odd /= 5
		}
	}
	// Upper: (2m+1) × 2^(e-1). Lower: (2m-1) × 2^(e-1), or (4m-1) × 2^(e-2) below a power of two.
	if odd == 2*m+1 && t == e-1 {
		return true
	}
	if pow2 {
		return odd == 4*m-1 && t == e-2
	}
	return odd == 2*m-1 && t == e-1
}

// insideRoundingInterval reports whether the decimal 0.digits × 10^(exp+1) lies strictly between
// the two points half-way between f > 0 and its neighbouring floats: it reads back as f, and is
// not a rounding boundary. The comparisons are exact, in integers, so that formatting needs no
// float parsing.
// size: docs/performance.md, "Size tricks".
func insideRoundingInterval(f float64, bitSize int, digits []byte, exp int) bool {
	m, e, pow2 := floatParts(f, bitSize)
	d, p := decimalParts(digits, exp)
	// Both points as multiples of 2^(e-2): lower (4m-2), or (4m-1) below a power of two; upper (4m+2).
	lower := 4*m - 2
	if pow2 {
		lower = 4*m - 1
	}
	return compareDecimal(d, p, lower, e-2) > 0 && compareDecimal(d, p, 4*m+2, e-2) < 0
}

// compareDecimal returns the sign of d × 10^p − m × 2^e, computed exactly.
func compareDecimal(d uint64, p int, m uint64, e int) int {
	x, y := naturalOf(d), naturalOf(m)
	// d × 5^p × 2^p against m × 2^e: the fives go to one side, the twos to the other.
	if p >= 0 {
		x.mulPow5(p)
	} else {
		y.mulPow5(-p)
	}
	if p >= e {
		x.shiftLeft(p - e)
	} else {
		y.shiftLeft(e - p)
	}
	return x.cmp(&y)
}

// natural is an unsigned integer of 48 32-bit words, least significant first, for
// compareDecimal. For any float64 and any decimal of up to 17 digits within a factor of ten of
// it, both sides stay below 2^900, well inside its 1536 bits.
type natural [48]uint32

func naturalOf(v uint64) natural {
	return natural{uint32(v), uint32(v >> 32)}
}

// mulPow5 multiplies x by 5^k, by at most 5^13 (the largest power of five in a word) at a time.
func (x *natural) mulPow5(k int) {
	for k > 0 {
		step := min(k, 13)
		k -= step
		f := uint64(1)
		for range step {
			f *= 5
		}
		var carry uint64
		for i := range x {
			v := uint64(x[i])*f + carry
			x[i], carry = uint32(v), v>>32
		}
	}
}

// shiftLeft multiplies x by 2^k.
func (x *natural) shiftLeft(k int) {
	s := uint(k % 32)
	for i := len(x) - 1; i >= 0; i-- {
		var w uint64
		if j := i - k/32; j >= 0 {
			w = uint64(x[j]) << s
			if j > 0 {
				w |= uint64(x[j-1]) << s >> 32
			}
		}
		x[i] = uint32(w)
	}
}

// cmp returns the sign of x − y.
func (x *natural) cmp(y *natural) int {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
