package pgvalue

import (
	"math"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Column values come in TupleData as text ('t', the type's output function, in the walsender
// session's client_encoding and GUCs) or, with the binary option, as binary ('b', the type's
// send function). This file turns both into the text a person reads. For binary values the
// text is what the server itself would have sent in text mode with DateStyle ISO,
// IntervalStyle postgres, TimeZone UTC, extra_float_digits 1 (the default: shortest exact
// floats) and bytea_output hex, so that the two formats read the same.

// Calendar constants shared by the date and time types (PostgreSQL's datatype/timestamp.h).
const (
	// postgresEpochJDate is the Julian day number of 2000-01-01, the zero of date and timestamp.
	postgresEpochJDate = 2451545
	// dateEndJulian is the first Julian day past the largest date (5874897-12-31).
	dateEndJulian = 2147483494
	// minTimestamp is 4714-11-24 00:00:00 BC (Julian day 0) in microseconds since 2000-01-01.
	minTimestamp = -211813488000000000
	// endTimestamp is 294277-01-01 00:00:00, one past the largest timestamp.
	endTimestamp = 9223371331200000000

	usecsPerSec    = 1000000
	usecsPerMinute = 60 * usecsPerSec
	usecsPerHour   = 60 * usecsPerMinute
	usecsPerDay    = 24 * usecsPerHour
)

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

// Address families of the inet/cidr send format (PGSQL_AF_INET, PGSQL_AF_INET6 in utils/inet.h):
// not the operating system's AF_ values.
const (
	inetFamilyIPv4 = 2
	inetFamilyIPv6 = 3
)

// maxArrayDims is PostgreSQL's MAXDIM; maxArrayItems is its MaxArraySize.
const (
	maxArrayDims  = 6
	maxArrayItems = 134217727
)

// ValueError says why a binary-format column value does not fit its type.
type ValueError struct {
	// Type is the OID of the column's type (the array type for a bad array element).
	Type uint32
	// Offset is where in the column value (counted from its first byte) the problem is.
	Offset int
	// Reason says what was expected and what was there.
	Reason string
}

// Error implements error: "int4 value at offset 0: need 4 bytes, have 3".
func (e *ValueError) Error() string {
	name := TypeName(e.Type)
	if name == "" {
		name = "type " + strconv.FormatUint(uint64(e.Type), 10)
	}
	return name + " value at offset " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

// valueError builds a *ValueError; it is only called on the error path.
func valueError(oid uint32, off int, reason string) *ValueError {
	return &ValueError{Type: oid, Offset: off, Reason: reason}
}

// lengthError reports a fixed-size type whose value has the wrong length.
func lengthError(oid uint32, want, have int) *ValueError {
	return valueError(oid, 0, "need "+strconv.Itoa(want)+" bytes, have "+strconv.Itoa(have))
}

func be16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }
func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
func be64(b []byte) uint64 { return uint64(be32(b))<<32 | uint64(be32(b[4:])) }

const lowerHex = "0123456789abcdef"

// AppendText appends a text-format ('t') column value, or any other text from the wire, for
// display: the one escaping of display text, used for values, names and labels alike, so that
// what a message holds can never act on a terminal or reorder the text around it. Valid UTF-8 is
// copied as is, backslashes and quotes included; each byte that is not part of valid UTF-8
// becomes \xHH; control characters become \n, \t, \r or \xHH (C0 and DEL) or \uHHHH (C1
// controls); so do the characters that are invisible or change how the surrounding text is laid
// out: every format character (Unicode category Cf: the bidirectional marks, embeddings,
// overrides and isolates U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, the zero-width
// characters U+200B–U+200D, U+2060, U+FEFF, the soft hyphen, tags…), U+034F and the line and
// paragraph separators U+2028 and U+2029; above U+FFFF as \UHHHHHHHH. Nothing is dropped. It
// allocates only to grow dst.
func AppendText(dst []byte, b []byte) []byte { return appendEscaped(dst, b, false) }

// AppendSafe appends the string s (a name, a label, a sentence holding names) escaped as
// AppendText escapes a value.
func AppendSafe(dst []byte, s string) []byte { return appendEscaped(dst, []byte(s), false) }

// SafeText returns s escaped as AppendText escapes a value; s itself when nothing needs
// escaping (no allocation).
func SafeText(s string) string {
	if !needsEscape([]byte(s)) {
		return s
	}
	return string(appendEscaped(nil, []byte(s), false))
}

// AppendQuoted appends b between double quotes, escaped as AppendText escapes it and with the
// quote and the backslash escaped too (\" and \\), so the quoted text reads back unambiguously.
func AppendQuoted(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, b, true)
	return append(dst, '"')
}

// appendEscaped is the body of AppendText, AppendSafe and AppendQuoted; quoted also escapes '"'
// and '\\'.
func appendEscaped(dst []byte, b []byte, quoted bool) []byte {
	i := 0
	for i < len(b) {
		// Copy the longest run that needs no escaping in one append.
		j := i
		for j < len(b) {
			c := b[j]
			if c >= 0x20 && c < 0x7F {
				if quoted && (c == '"' || c == '\\') {
					break
				}
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n == 1 || escapedRune(r) {
				break
			}
			j += n
		}
		dst = append(dst, b[i:j]...)
		if j == len(b) {
			break
		}
		c := b[j]
		i = j + 1
		switch {
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < utf8.RuneSelf:
			dst = append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&15])
		default:
			r, n := utf8.DecodeRune(b[j:])
			switch {
			case r == utf8.RuneError && n == 1:
				dst = append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&15])
			case r > 0xFFFF:
				dst = append(dst, '\\', 'U')
				for shift := 28; shift >= 0; shift -= 4 {
					dst = append(dst, lowerHex[r>>shift&15])
				}
			default:
				dst = append(dst, '\\', 'u', lowerHex[r>>12&15], lowerHex[r>>8&15], lowerHex[r>>4&15], lowerHex[r&15])
			}
			i = j + n
		}
	}
	return dst
}

// escapedRune reports whether AppendText escapes a valid non-ASCII rune.
func escapedRune(r rune) bool {
	switch {
	case r <= 0x9F: // C1 controls (ASCII is handled before)
		return true
	case r < 0xAD: // no format character below the soft hyphen
		return false
	case r == 0x034F, // combining grapheme joiner: invisible
		r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// needsEscape reports whether AppendText would change b.
func needsEscape(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7F {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return true
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || escapedRune(r) {
			return true
		}
		i += n
	}
	return false
}

// AppendBinary appends the display text of a binary-format ('b') column value of type oid: the
// text PostgreSQL would have sent for it in text mode (with DateStyle ISO, IntervalStyle
// postgres, TimeZone UTC, extra_float_digits 1 and bytea_output hex; timestamptz as
// "2024-01-02 03:04:05.123456+00"), escaped for display as AppendText does. It decodes the
// built-in types bool, bytea, "char", name, int2, int4, int8, oid, float4, float8, text,
// varchar, bpchar, json, jsonb, uuid, date, time, timestamp, timestamptz, interval, numeric,
// inet and cidr, and arrays of them. ok is false, and dst is returned unchanged, when the type
// has no codec here (err is nil) or when the bytes do not fit the type (err, a *ValueError, says
// where and why: wrong length, trailing bytes, a value the server's receive function rejects).
// It allocates only to grow dst.
func AppendBinary(dst []byte, oid uint32, b []byte) ([]byte, bool, error) {
	if !hasCodec(oid) {
		return dst, false, nil
	}
	start := len(dst)
	switch oid {
	case oidText, oidVarchar, oidBPChar, oidName, oidJSON:
		return AppendText(dst, b), true, nil
	case oidJSONB:
		if err := checkJSONBVersion(b); err != nil {
			return dst, false, err
		}
		return AppendText(dst, b[1:]), true, nil
	}
	out, err := appendBinaryText(dst, oid, b)
	if err != nil {
		return dst, false, err
	}
	return EscapeTail(out, start), true, nil
}

// EscapeTail escapes b[start:] in place as AppendText does, so that text appended to b
// unescaped (a name) can be escaped without a copy of its own.
func EscapeTail(b []byte, start int) []byte {
	if !needsEscape(b[start:]) {
		return b
	}
	// The source is b[start:end]; the escaped copy goes after it and then replaces it.
	// Appending never writes into the source, and if it moves to a new array the old one,
	// which the source still points into, is left as it was.
	end := len(b)
	b = AppendText(b, b[start:end])
	return b[:start+copy(b[start:], b[end:])]
}

// AppendHex appends b as PostgreSQL's bytea hex form, "\x0a1b".
func AppendHex(dst, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, lowerHex[c>>4], lowerHex[c&15])
	}
	return dst
}

// checkJSONBVersion checks jsonb's version byte; jsonb_send writes version 1, the only one.
func checkJSONBVersion(b []byte) *ValueError {
	if len(b) == 0 {
		return valueError(oidJSONB, 0, "need 1 byte (version), have 0")
	}
	if b[0] != 1 {
		return valueError(oidJSONB, 0, "unsupported jsonb version "+strconv.Itoa(int(b[0]))+", want 1")
	}
	return nil
}

// hasCodec reports whether binary values of type oid are decoded here.
func hasCodec(oid uint32) bool {
	if scalarCodec(oid) {
		return true
	}
	t, ok := LookupType(oid)
	return ok && t.Elem != 0 && scalarCodec(t.Elem)
}

// scalarCodec reports whether binary values of the non-array type oid are decoded here.
func scalarCodec(oid uint32) bool {
	switch oid {
	case oidBool, oidBytea, oidChar, oidName, oidInt8, oidInt2, oidInt4, oidText, oidOID,
		oidJSON, oidCIDR, oidFloat4, oidFloat8, oidInet, oidBPChar, oidVarchar, oidDate,
		oidTime, oidTimestamp, oidTimestampTZ, oidInterval, oidNumeric, oidUUID, oidJSONB:
		return true
	}
	return false
}

// appendBinaryText appends the server's text output (not escaped for display) of a binary value
// of a type for which hasCodec is true.
func appendBinaryText(dst []byte, oid uint32, b []byte) ([]byte, *ValueError) {
	switch oid {
	case oidBool:
		if len(b) != 1 {
			return dst, lengthError(oid, 1, len(b))
		}
		// boolrecv takes any non-zero byte as true.
		if b[0] != 0 {
			return append(dst, 't'), nil
		}
		return append(dst, 'f'), nil
	case oidBytea:
		dst = append(dst, '\\', 'x')
		for _, c := range b {
			dst = append(dst, lowerHex[c>>4], lowerHex[c&15])
		}
		return dst, nil
	case oidChar:
		if len(b) != 1 {
			return dst, lengthError(oid, 1, len(b))
		}
		return appendCharOut(dst, b[0]), nil
	case oidText, oidVarchar, oidBPChar, oidName, oidJSON:
		return append(dst, b...), nil
	case oidJSONB:
		if err := checkJSONBVersion(b); err != nil {
			return dst, err
		}
		return append(dst, b[1:]...), nil
	case oidInt2:
		if len(b) != 2 {
			return dst, lengthError(oid, 2, len(b))
		}
		return strconv.AppendInt(dst, int64(int16(be16(b))), 10), nil
	case oidInt4:
		if len(b) != 4 {
			return dst, lengthError(oid, 4, len(b))
		}
		return strconv.AppendInt(dst, int64(int32(be32(b))), 10), nil
	case oidInt8:
		if len(b) != 8 {
			return dst, lengthError(oid, 8, len(b))
		}
		return strconv.AppendInt(dst, int64(be64(b)), 10), nil
	case oidOID:
		if len(b) != 4 {
			return dst, lengthError(oid, 4, len(b))
		}
		return strconv.AppendUint(dst, uint64(be32(b)), 10), nil
	case oidFloat4:
		if len(b) != 4 {
			return dst, lengthError(oid, 4, len(b))
		}
		return appendFloat(dst, float64(math.Float32frombits(be32(b))), 32), nil
	case oidFloat8:
		if len(b) != 8 {
			return dst, lengthError(oid, 8, len(b))
		}
		return appendFloat(dst, math.Float64frombits(be64(b)), 64), nil
	case oidUUID:
		if len(b) != 16 {
			return dst, lengthError(oid, 16, len(b))
		}
		return appendUUID(dst, b), nil
	case oidDate:
		if len(b) != 4 {
			return dst, lengthError(oid, 4, len(b))
		}
		return appendDate(dst, int32(be32(b)))
	case oidTime:
		if len(b) != 8 {
			return dst, lengthError(oid, 8, len(b))
		}
		us := int64(be64(b))
		// time_recv accepts 00:00:00 to 24:00:00 inclusive.
		if us < 0 || us > usecsPerDay {
			return dst, valueError(oid, 0, "time out of range: "+strconv.FormatInt(us, 10)+" microseconds since midnight, want 0 to "+strconv.FormatInt(usecsPerDay, 10))
		}
		return appendClock(dst, us), nil
	case oidTimestamp, oidTimestampTZ:
		if len(b) != 8 {
			return dst, lengthError(oid, 8, len(b))
		}
		return appendTimestamp(dst, oid, int64(be64(b)), false)
	case oidInterval:
		if len(b) != 16 {
			return dst, lengthError(oid, 16, len(b))
		}
		return appendInterval(dst, int64(be64(b)), int32(be32(b[8:])), int32(be32(b[12:]))), nil
	case oidNumeric:
		return appendNumeric(dst, b)
	case oidInet, oidCIDR:
		return appendInet(dst, oid, b)
	}
	if t, ok := LookupType(oid); ok && t.Elem != 0 && scalarCodec(t.Elem) {
		return appendArray(dst, oid, t.Elem, b)
	}
	return dst, valueError(oid, 0, "no binary codec for this type")
}

// appendCharOut is charout: a byte with the high bit set as a backslash and three octal digits,
// any other byte as itself, and the zero byte as nothing.
func appendCharOut(dst []byte, c byte) []byte {
	switch {
	case c >= 0x80:
		return append(dst, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
	case c == 0:
		return dst
	}
	return append(dst, c)
}

// appendUUID appends the 8-4-4-4-12 lower-case hex form.
func appendUUID(dst []byte, b []byte) []byte {
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, lowerHex[c>>4], lowerHex[c&15])
	}
	return dst
}

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
	for _, c := range e[i+2:] { // after "e" and its sign
		exp = exp*10 + int(c-'0')
	}
	if e[i+1] == '-' {
		exp = -exp
	}
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

// decimalParts returns the decimal 0.digits × 10^(exp+1) as d × 10^p.
func decimalParts(digits []byte, exp int) (d uint64, p int) {
	for _, c := range digits {
		d = d*10 + uint64(c-'0')
	}
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

// j2date converts a Julian day number to a proleptic Gregorian date, as PostgreSQL's j2date does
// (year 0 is 1 BC). jd must be in 0 .. dateEndJulian.
func j2date(jd int) (year, month, day int) {
	julian := uint32(jd) + 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int(julian * 4 / 1461)
	if y != 0 {
		julian = (julian+305)%365 + 123
	} else {
		julian = (julian+306)%366 + 123
	}
	y += int(quad * 4)
	year = y - 4800
	quad = julian * 2141 / 65536
	day = int(julian - 7834*quad/256)
	month = int((quad+10)%12 + 1)
	return year, month, day
}

// appendPad appends v (>= 0) in decimal with at least width digits.
func appendPad(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for k := len(s); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendYMD appends YYYY-MM-DD with PostgreSQL's year: the BC year counted from 1 for year <= 0
// (the caller adds " BC").
func appendYMD(dst []byte, year, month, day int) []byte {
	if year <= 0 {
		year = -(year - 1)
	}
	dst = appendPad(dst, int64(year), 4)
	dst = append(dst, '-')
	dst = appendPad(dst, int64(month), 2)
	dst = append(dst, '-')
	return appendPad(dst, int64(day), 2)
}

// appendDate formats date_send's days since 2000-01-01; INT32_MIN and INT32_MAX are -infinity
// and infinity.
func appendDate(dst []byte, days int32) ([]byte, *ValueError) {
	switch days {
	case math.MinInt32:
		return append(dst, "-infinity"...), nil
	case math.MaxInt32:
		return append(dst, "infinity"...), nil
	}
	jd := int64(days) + postgresEpochJDate
	if jd < 0 || jd >= dateEndJulian {
		return dst, valueError(oidDate, 0, "date out of range: "+strconv.FormatInt(int64(days), 10)+" days from 2000-01-01")
	}
	y, m, d := j2date(int(jd))
	dst = appendYMD(dst, y, m, d)
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst, nil
}

// appendSeconds appends sec as two digits and, when fsec (microseconds, >= 0) is not zero, a
// point and its digits without trailing zeros (AppendSeconds in datetime.c).
func appendSeconds(dst []byte, sec, fsec int64) []byte {
	dst = appendPad(dst, sec, 2)
	if fsec == 0 {
		return dst
	}
	dst = append(dst, '.')
	var frac [6]byte
	n := 0
	for k := 5; k >= 0; k-- {
		frac[k] = byte('0' + fsec%10)
		fsec /= 10
		if n == 0 && frac[k] != '0' {
			n = k + 1
		}
	}
	return append(dst, frac[:n]...)
}

// appendClock appends HH:MM:SS[.ffffff] for us microseconds since midnight (0 .. 24:00:00).
func appendClock(dst []byte, us int64) []byte {
	dst = appendPad(dst, us/usecsPerHour, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, us/usecsPerMinute%60, 2)
	dst = append(dst, ':')
	return appendSeconds(dst, us/usecsPerSec%60, us%usecsPerSec)
}

// splitTimestamp turns microseconds since 2000-01-01 into a Julian day and microseconds into that
// day. It fails outside PostgreSQL's timestamp range.
func splitTimestamp(oid uint32, us int64) (jd int, inDay int64, err *ValueError) {
	if us < minTimestamp || us >= endTimestamp {
		return 0, 0, valueError(oid, 0, "timestamp out of range: "+strconv.FormatInt(us, 10)+" microseconds from 2000-01-01")
	}
	day := us / usecsPerDay
	inDay = us % usecsPerDay
	if inDay < 0 {
		inDay += usecsPerDay
		day--
	}
	return int(day + postgresEpochJDate), inDay, nil
}

// appendTimestamp formats timestamp_send's microseconds since 2000-01-01 (UTC for timestamptz):
// "2024-01-02 03:04:05.123456", "+00" after it for timestamptz, " BC" last. With iso it writes
// the JSON form instead: "2024-01-02T03:04:05.123456" and "Z" for timestamptz, the year
// astronomical (0 is 1 BC, -1 is 2 BC) with a sign outside 0..9999, as ISO 8601 extends it.
func appendTimestamp(dst []byte, oid uint32, us int64, iso bool) ([]byte, *ValueError) {
	switch us {
	case math.MinInt64:
		return append(dst, "-infinity"...), nil
	case math.MaxInt64:
		return append(dst, "infinity"...), nil
	}
	jd, inDay, err := splitTimestamp(oid, us)
	if err != nil {
		return dst, err
	}
	y, m, d := j2date(jd)
	if iso {
		dst = appendISOYMD(dst, y, m, d)
		dst = append(dst, 'T')
		dst = appendClock(dst, inDay)
		if oid == oidTimestampTZ {
			dst = append(dst, 'Z')
		}
		return dst, nil
	}
	dst = appendYMD(dst, y, m, d)
	dst = append(dst, ' ')
	dst = appendClock(dst, inDay)
	if oid == oidTimestampTZ {
		dst = append(dst, '+', '0', '0')
	}
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst, nil
}

// appendISOYMD appends an ISO 8601 date with an astronomical year: four digits for years 0 to
// 9999, a sign and at least four digits otherwise.
func appendISOYMD(dst []byte, year, month, day int) []byte {
	switch {
	case year < 0:
		dst = append(dst, '-')
		year = -year
	case year > 9999:
		dst = append(dst, '+')
	}
	dst = appendPad(dst, int64(year), 4)
	dst = append(dst, '-')
	dst = appendPad(dst, int64(month), 2)
	dst = append(dst, '-')
	return appendPad(dst, int64(day), 2)
}

// appendInterval formats interval_send's fields as interval_out does with IntervalStyle postgres:
// "1 year 2 mons 3 days 04:05:06.789", "-1 days +02:00:00", "00:00:00". All three fields at
// their minimum or maximum are -infinity and infinity (PostgreSQL 17 and later).
func appendInterval(dst []byte, us int64, days, months int32) []byte {
	if us == math.MinInt64 && days == math.MinInt32 && months == math.MinInt32 {
		return append(dst, "-infinity"...)
	}
	if us == math.MaxInt64 && days == math.MaxInt32 && months == math.MaxInt32 {
		return append(dst, "infinity"...)
	}
	isZero, isBefore := true, false
	dst = appendIntervalPart(dst, int64(months/12), "year", &isZero, &isBefore)
	dst = appendIntervalPart(dst, int64(months%12), "mon", &isZero, &isBefore)
	dst = appendIntervalPart(dst, int64(days), "day", &isZero, &isBefore)
	hour := us / usecsPerHour
	us -= hour * usecsPerHour
	mins := us / usecsPerMinute
	us -= mins * usecsPerMinute
	sec := us / usecsPerSec
	fsec := us - sec*usecsPerSec
	if isZero || hour != 0 || mins != 0 || sec != 0 || fsec != 0 {
		if !isZero {
			dst = append(dst, ' ')
		}
		if hour < 0 || mins < 0 || sec < 0 || fsec < 0 {
			dst = append(dst, '-')
			// Negating cannot overflow: |INT64_MIN / usecsPerHour| is far below INT64_MAX.
			hour, mins, sec, fsec = -hour, -mins, -sec, -fsec
		} else if isBefore {
			dst = append(dst, '+')
		}
		dst = appendPad(dst, hour, 2)
		dst = append(dst, ':')
		dst = appendPad(dst, mins, 2)
		dst = append(dst, ':')
		dst = appendSeconds(dst, sec, fsec)
	}
	return dst
}

// appendIntervalPart is AddPostgresIntPart: a non-zero field as "3 days" ("1 day" for one), with
// an explicit "+" when the field before it was negative.
func appendIntervalPart(dst []byte, v int64, unit string, isZero, isBefore *bool) []byte {
	if v == 0 {
		return dst
	}
	if !*isZero {
		dst = append(dst, ' ')
	}
	if *isBefore && v > 0 {
		dst = append(dst, '+')
	}
	dst = strconv.AppendInt(dst, v, 10)
	dst = append(dst, ' ')
	dst = append(dst, unit...)
	if v != 1 {
		dst = append(dst, 's')
	}
	*isBefore = v < 0
	*isZero = false
	return dst
}

// appendNumeric formats numeric_send's base-10000 digits as numeric_out does: exactly dscale
// digits after the point. Like numeric_recv it drops digits beyond dscale and leading zero
// digits, so a value whose shown digits are all zero has no minus sign.
func appendNumeric(dst []byte, b []byte) ([]byte, *ValueError) {
	if len(b) < numericHeaderLen {
		return dst, valueError(oidNumeric, 0, "need 8 bytes (ndigits, weight, sign, dscale), have "+strconv.Itoa(len(b)))
	}
	nd := int(be16(b))
	weight := int(int16(be16(b[2:])))
	sign := be16(b[4:])
	dscale := int(be16(b[6:]))
	if want := numericHeaderLen + 2*nd; len(b) != want {
		return dst, valueError(oidNumeric, 0, "ndigits "+strconv.Itoa(nd)+" needs "+strconv.Itoa(want)+" bytes, have "+strconv.Itoa(len(b)))
	}
	for i := 0; i < nd; i++ {
		if d := be16(b[numericHeaderLen+2*i:]); d > 9999 {
			return dst, valueError(oidNumeric, numericHeaderLen+2*i, "invalid digit "+strconv.Itoa(int(d))+" (want 0 to 9999)")
		}
	}
	switch sign {
	case numericPos, numericNeg:
	case numericNaN:
		return append(dst, "NaN"...), nil
	case numericPInf:
		return append(dst, "Infinity"...), nil
	case numericNInf:
		return append(dst, "-Infinity"...), nil
	default:
		return dst, valueError(oidNumeric, 4, "invalid sign 0x"+strconv.FormatUint(uint64(sign), 16)+" (want 0x0000, 0x4000, 0xc000, 0xd000 or 0xf000)")
	}
	if dscale&numericDScaleMask != dscale {
		return dst, valueError(oidNumeric, 6, "invalid dscale 0x"+strconv.FormatUint(uint64(dscale), 16))
	}
	digits := b[numericHeaderLen:]
	first := 0 // index of the first non-zero digit
	for first < nd && be16(digits[2*first:]) == 0 {
		first++
	}
	weight -= first
	digit := func(i int) int { // i counts from the first non-zero digit; 0 outside the digits
		if i < 0 || first+i >= nd {
			return 0
		}
		return int(be16(digits[2*(first+i):]))
	}
	signAt := len(dst)
	if sign == numericNeg {
		dst = append(dst, '-')
	}
	nonZero := false
	d := 0
	if weight < 0 || first == nd {
		dst = append(dst, '0')
		if first < nd {
			d = weight + 1
		}
	} else {
		for ; d <= weight; d++ {
			v := digit(d)
			nonZero = nonZero || v != 0
			if d == 0 {
				dst = strconv.AppendInt(dst, int64(v), 10)
			} else {
				dst = appendPad(dst, int64(v), 4)
			}
		}
	}
	if dscale > 0 {
		dst = append(dst, '.')
		for i := 0; i < dscale; d++ {
			v := digit(d)
			for p := 1000; p > 0 && i < dscale; p /= 10 {
				c := v / p % 10
				nonZero = nonZero || c != 0
				dst = append(dst, byte('0'+c))
				i++
			}
		}
	}
	if sign == numericNeg && !nonZero {
		dst = dst[:signAt+copy(dst[signAt:], dst[signAt+1:])]
	}
	return dst, nil
}

// appendInet formats inet_send's family, bits, is_cidr, address length and address as
// inet_out (inet omits /32 and /128) and cidr_out (always /bits) do. The is_cidr byte is not
// checked: inet_recv ignores it too.
func appendInet(dst []byte, oid uint32, b []byte) ([]byte, *ValueError) {
	if len(b) < 4 {
		return dst, valueError(oid, 0, "need 4 bytes (family, bits, is_cidr, length), have "+strconv.Itoa(len(b)))
	}
	family, bits, nb := b[0], int(b[1]), int(b[3])
	var size, maxBits int
	switch family {
	case inetFamilyIPv4:
		size, maxBits = 4, 32
	case inetFamilyIPv6:
		size, maxBits = 16, 128
	default:
		return dst, valueError(oid, 0, "invalid address family "+strconv.Itoa(int(family))+" (want 2 for IPv4 or 3 for IPv6)")
	}
	if bits > maxBits {
		return dst, valueError(oid, 1, "invalid bits "+strconv.Itoa(bits)+" (at most "+strconv.Itoa(maxBits)+")")
	}
	if nb != size {
		return dst, valueError(oid, 3, "invalid address length "+strconv.Itoa(nb)+" (want "+strconv.Itoa(size)+")")
	}
	if len(b) != 4+size {
		return dst, valueError(oid, 4, "need "+strconv.Itoa(size)+" address bytes, have "+strconv.Itoa(len(b)-4))
	}
	addr := b[4:]
	if oid == oidCIDR {
		// cidr_recv rejects bits set past the mask length.
		for i := range addr {
			keep := bits - 8*i // bits of this byte inside the mask
			var mask byte
			switch {
			case keep <= 0:
				mask = 0xFF
			case keep < 8:
				mask = 0xFF >> keep
			}
			if addr[i]&mask != 0 {
				return dst, valueError(oid, 4+i, "invalid cidr value: bits set to the right of the mask length "+strconv.Itoa(bits))
			}
		}
	}
	if family == inetFamilyIPv4 {
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
	return dst, nil
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

// arrayHeader is the fixed part of array_send's format.
type arrayHeader struct {
	ndim   int
	dims   [maxArrayDims]int
	lbound [maxArrayDims]int
	nitems int
	data   int // offset of the first element's length
}

// readArrayHeader reads and checks ndim, the has-null flag, the element type and the
// dimensions, as array_recv does.
func readArrayHeader(oid, elem uint32, b []byte) (h arrayHeader, err *ValueError) {
	if len(b) < 12 {
		return h, valueError(oid, 0, "need 12 bytes (ndim, flags, element type), have "+strconv.Itoa(len(b)))
	}
	ndim := int32(be32(b))
	flags := int32(be32(b[4:]))
	elemOID := be32(b[8:])
	if ndim < 0 || ndim > maxArrayDims {
		return h, valueError(oid, 0, "invalid number of dimensions "+strconv.Itoa(int(ndim))+" (want 0 to 6)")
	}
	if flags != 0 && flags != 1 {
		return h, valueError(oid, 4, "invalid array flags "+strconv.Itoa(int(flags))+" (want 0 or 1)")
	}
	if elemOID != elem {
		return h, valueError(oid, 8, "element type "+strconv.FormatUint(uint64(elemOID), 10)+", want "+strconv.FormatUint(uint64(elem), 10)+" ("+TypeName(elem)+")")
	}
	h.ndim = int(ndim)
	off := 12
	if len(b) < off+8*h.ndim {
		return h, valueError(oid, off, "need "+strconv.Itoa(8*h.ndim)+" bytes for "+strconv.Itoa(h.ndim)+" dimensions, have "+strconv.Itoa(len(b)-off))
	}
	h.nitems = 1
	if h.ndim == 0 {
		h.nitems = 0
	}
	for i := 0; i < h.ndim; i++ {
		n := int64(int32(be32(b[off:])))
		lb := int64(int32(be32(b[off+4:])))
		if n < 0 {
			return h, valueError(oid, off, "negative dimension size "+strconv.FormatInt(n, 10))
		}
		if n > 0 && lb+n-1 > math.MaxInt32 {
			return h, valueError(oid, off+4, "upper bound of dimension "+strconv.Itoa(i+1)+" out of range")
		}
		h.dims[i], h.lbound[i] = int(n), int(lb)
		p := int64(h.nitems) * n
		if p > maxArrayItems {
			return h, valueError(oid, off, "array size exceeds the maximum allowed ("+strconv.Itoa(maxArrayItems)+")")
		}
		h.nitems = int(p)
		off += 8
	}
	h.data = off
	// Every element has at least its Int32 length.
	if rest := len(b) - off; h.nitems > rest/4 {
		return h, valueError(oid, off, strconv.Itoa(h.nitems)+" elements need at least "+strconv.Itoa(4*h.nitems)+" bytes, have "+strconv.Itoa(rest))
	}
	return h, nil
}

// nextElement reads the element at off: its bytes, whether it is NULL, and where the next one starts.
func nextElement(oid uint32, b []byte, off, n int) (v []byte, null bool, next int, err *ValueError) {
	if len(b)-off < 4 {
		return nil, false, off, valueError(oid, off, "element "+strconv.Itoa(n)+" length: need 4 bytes, have "+strconv.Itoa(len(b)-off))
	}
	l := int32(be32(b[off:]))
	off += 4
	if l == -1 {
		return nil, true, off, nil
	}
	if l < 0 || int(l) > len(b)-off {
		return nil, false, off, valueError(oid, off-4, "element "+strconv.Itoa(n)+" length "+strconv.Itoa(int(l))+", have "+strconv.Itoa(len(b)-off)+" bytes")
	}
	return b[off : off+int(l)], false, off + int(l), nil
}

// elementError places an element's error inside the array value.
func elementError(oid uint32, n, at int, e *ValueError) *ValueError {
	return valueError(oid, at+e.Offset, "element "+strconv.Itoa(n)+": "+TypeName(e.Type)+": "+e.Reason)
}

// appendArray formats array_send's format as array_out does: "{1,2,NULL}", elements quoted when
// empty, "NULL" in any case, or holding a quote, backslash, brace, comma or white space;
// "[0:1]={…}" when a lower bound is not 1; "{}" for no elements.
func appendArray(dst []byte, oid, elem uint32, b []byte) ([]byte, *ValueError) {
	h, err := readArrayHeader(oid, elem, b)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	if h.nitems == 0 {
		if h.data != len(b) {
			return dst, valueError(oid, h.data, strconv.Itoa(len(b)-h.data)+" trailing bytes after an empty array")
		}
		return append(dst, '{', '}'), nil
	}
	for i := 0; i < h.ndim; i++ {
		if h.lbound[i] != 1 {
			for i := 0; i < h.ndim; i++ {
				dst = append(dst, '[')
				dst = strconv.AppendInt(dst, int64(h.lbound[i]), 10)
				dst = append(dst, ':')
				dst = strconv.AppendInt(dst, int64(h.lbound[i]+h.dims[i]-1), 10)
				dst = append(dst, ']')
			}
			dst = append(dst, '=')
			break
		}
	}
	var index [maxArrayDims]int
	off := h.data
	j := 0
	for n := 1; ; n++ {
		for i := j; i < h.ndim; i++ {
			dst = append(dst, '{')
		}
		v, null, next, err := nextElement(oid, b, off, n)
		if err != nil {
			return dst[:start], err
		}
		if null {
			dst = append(dst, "NULL"...)
		} else {
			at := len(dst)
			var eerr *ValueError
			dst, eerr = appendBinaryText(dst, elem, v)
			if eerr != nil {
				return dst[:start], elementError(oid, n, off+4, eerr)
			}
			dst = quoteArrayElement(dst, at)
		}
		off = next
		// Close the dimensions that are complete and separate from the next element.
		i := h.ndim - 1
		for ; i >= 0; i-- {
			index[i]++
			if index[i] < h.dims[i] {
				dst = append(dst, ',')
				break
			}
			index[i] = 0
			dst = append(dst, '}')
		}
		if i < 0 {
			break
		}
		j = i + 1
	}
	if off != len(b) {
		return dst[:start], valueError(oid, off, strconv.Itoa(len(b)-off)+" trailing bytes after the last element")
	}
	return dst, nil
}

// quoteArrayElement quotes the element text dst[at:] in place if array_out would.
func quoteArrayElement(dst []byte, at int) []byte {
	el := dst[at:]
	quote := len(el) == 0 || len(el) == 4 && (el[0]|0x20) == 'n' && (el[1]|0x20) == 'u' && (el[2]|0x20) == 'l' && (el[3]|0x20) == 'l'
	escapes := 0
	for _, c := range el {
		switch c {
		case '"', '\\':
			escapes++
			quote = true
		case '{', '}', ',', ' ', '\t', '\n', '\r', '\v', '\f':
			quote = true
		}
	}
	if !quote {
		return dst
	}
	n := len(el)
	for k := 0; k < escapes+2; k++ {
		dst = append(dst, 0)
	}
	// Fill from the end: the write position stays ahead of the read position.
	w := len(dst) - 1
	dst[w] = '"'
	for r := at + n - 1; r >= at; r-- {
		w--
		dst[w] = dst[r]
		if c := dst[r]; c == '"' || c == '\\' {
			w--
			dst[w] = '\\'
		}
	}
	dst[at] = '"'
	return dst
}

// BinaryValue returns a binary-format ('b') column value of type oid as a Go value for JSON
// output: bool (bool); int64 (int2, int4, int8); uint32 (oid); float64 (float4, float8), or the
// string "NaN", "Infinity" or "-Infinity"; []byte (bytea: a view into b, not a copy); string for
// every other type: the text types and json, jsonb as their text, numeric as its exact decimal
// text (or "NaN", "Infinity", "-Infinity"), uuid, "char", time, interval, inet and cidr as
// AppendBinary writes them (but not escaped), date as ISO 8601 "2024-01-02" and timestamp and
// timestamptz as "2024-01-02T03:04:05.123456" and "2024-01-02T03:04:05.123456Z" (fraction
// without trailing zeros, year astronomical: 0 is 1 BC, -1 is 2 BC, a sign outside 0..9999),
// or "infinity" and "-infinity"; an array as []any with nil for NULL elements (nested []any
// per dimension; lower bounds are not kept). ok is false when the type has no codec here (err
// nil) or the bytes do not fit it (err says why).
func BinaryValue(oid uint32, b []byte) (v any, ok bool, err error) {
	if !hasCodec(oid) {
		return nil, false, nil
	}
	v, verr := binaryValue(oid, b)
	if verr != nil {
		return nil, false, verr
	}
	return v, true, nil
}

func binaryValue(oid uint32, b []byte) (any, *ValueError) {
	switch oid {
	case oidBool:
		if len(b) != 1 {
			return nil, lengthError(oid, 1, len(b))
		}
		return b[0] != 0, nil
	case oidBytea:
		return b, nil
	case oidInt2:
		if len(b) != 2 {
			return nil, lengthError(oid, 2, len(b))
		}
		return int64(int16(be16(b))), nil
	case oidInt4:
		if len(b) != 4 {
			return nil, lengthError(oid, 4, len(b))
		}
		return int64(int32(be32(b))), nil
	case oidInt8:
		if len(b) != 8 {
			return nil, lengthError(oid, 8, len(b))
		}
		return int64(be64(b)), nil
	case oidOID:
		if len(b) != 4 {
			return nil, lengthError(oid, 4, len(b))
		}
		return be32(b), nil
	case oidFloat4, oidFloat8:
		var f float64
		switch {
		case oid == oidFloat4 && len(b) == 4:
			f = float64(math.Float32frombits(be32(b)))
		case oid == oidFloat8 && len(b) == 8:
			f = math.Float64frombits(be64(b))
		case oid == oidFloat4:
			return nil, lengthError(oid, 4, len(b))
		default:
			return nil, lengthError(oid, 8, len(b))
		}
		switch {
		case math.IsNaN(f):
			return "NaN", nil
		case math.IsInf(f, 1):
			return "Infinity", nil
		case math.IsInf(f, -1):
			return "-Infinity", nil
		}
		return f, nil
	case oidDate:
		if len(b) != 4 {
			return nil, lengthError(oid, 4, len(b))
		}
		days := int32(be32(b))
		switch days {
		case math.MinInt32:
			return "-infinity", nil
		case math.MaxInt32:
			return "infinity", nil
		}
		jd := int64(days) + postgresEpochJDate
		if jd < 0 || jd >= dateEndJulian {
			_, err := appendDate(nil, days)
			return nil, err
		}
		y, m, d := j2date(int(jd))
		return string(appendISOYMD(make([]byte, 0, 12), y, m, d)), nil
	case oidTimestamp, oidTimestampTZ:
		if len(b) != 8 {
			return nil, lengthError(oid, 8, len(b))
		}
		s, err := appendTimestamp(make([]byte, 0, 32), oid, int64(be64(b)), true)
		if err != nil {
			return nil, err
		}
		return string(s), nil
	}
	if t, ok := LookupType(oid); ok && t.Elem != 0 {
		return arrayValue(oid, t.Elem, b)
	}
	s, err := appendBinaryText(nil, oid, b)
	if err != nil {
		return nil, err
	}
	return string(s), nil
}

// arrayValue returns an array's elements as []any, nested once per dimension.
func arrayValue(oid, elem uint32, b []byte) (any, *ValueError) {
	h, err := readArrayHeader(oid, elem, b)
	if err != nil {
		return nil, err
	}
	if h.nitems == 0 {
		if h.data != len(b) {
			return nil, valueError(oid, h.data, strconv.Itoa(len(b)-h.data)+" trailing bytes after an empty array")
		}
		return []any{}, nil
	}
	off := h.data
	n := 0
	var build func(dim int) ([]any, *ValueError)
	build = func(dim int) ([]any, *ValueError) {
		out := make([]any, h.dims[dim])
		for i := range out {
			if dim+1 < h.ndim {
				sub, err := build(dim + 1)
				if err != nil {
					return nil, err
				}
				out[i] = sub
				continue
			}
			n++
			v, null, next, err := nextElement(oid, b, off, n)
			if err != nil {
				return nil, err
			}
			if !null {
				ev, eerr := binaryValue(elem, v)
				if eerr != nil {
					return nil, elementError(oid, n, off+4, eerr)
				}
				out[i] = ev
			}
			off = next
		}
		return out, nil
	}
	out, err := build(0)
	if err != nil {
		return nil, err
	}
	if off != len(b) {
		return nil, valueError(oid, off, strconv.Itoa(len(b)-off)+" trailing bytes after the last element")
	}
	return out, nil
}
