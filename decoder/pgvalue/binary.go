package pgvalue

import (
	"errors"
	"io"
	"math"
	"strconv"
)

// Column values come in TupleData as text ('t', the type's output function, in the walsender
// session's client_encoding and GUCs) or, with the binary option, as binary ('b', the type's
// send function). This package turns both into the text a person reads. For binary values the
// text is what the server itself would have sent in text mode with DateStyle ISO,
// IntervalStyle postgres, TimeZone UTC, extra_float_digits 1 (the default: shortest exact
// floats) and bytea_output hex, so that the two formats read the same.
//
// A binary value is first checked (check: what the server's receive function would reject, in
// time linear in its length, allocating nothing but the error), then formatted into an out,
// which may cap the text or hand it to a writer in pieces. Formatting stops where the cap is
// reached, so a capped value costs its check plus what is shown, whatever the whole text would
// be: a numeric of weight 32767 is 131,072 digits, but shows its first 200 as fast as a small one.

// ErrNoCodec is returned for a binary value of a type this package does not decode (its bytes
// are then shown as hex).
var ErrNoCodec = errors.New("no binary codec for this type")

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
	return name + " value at offset " + itoa(e.Offset) + ": " + e.Reason
}

// valueError builds a *ValueError; it is only called on the error path.
func valueError(oid uint32, off int, reason string) *ValueError {
	return &ValueError{Type: oid, Offset: off, Reason: reason}
}

// lengthError reports a fixed-size type whose value has the wrong length.
func lengthError(oid uint32, want, have int) *ValueError {
	return valueError(oid, 0, "need "+itoa(want)+" bytes, have "+itoa(have))
}

func be16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }
func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
func be64(b []byte) uint64 { return uint64(be32(b))<<32 | uint64(be32(b[4:])) }

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
	out, _, err := AppendBinaryLimit(dst, oid, b, -1)
	switch {
	case err == ErrNoCodec:
		return dst, false, nil
	case err != nil:
		return dst, false, err
	}
	return out, true, nil
}

// AppendBinaryLimit appends at most limit bytes (limit < 0: all) of the text AppendBinary
// appends, cut before a character or an escape that would not fit, and reports whether it cut
// the text. The value is checked whole, in time linear in len(b); only the text shown is
// formatted. err is ErrNoCodec when the type has no codec here, or a *ValueError when the bytes
// do not fit the type; dst is then returned unchanged.
func AppendBinaryLimit(dst []byte, oid uint32, b []byte, limit int) (out []byte, cut bool, err error) {
	if !HasCodec(oid) {
		return dst, false, ErrNoCodec
	}
	if verr := check(oid, b); verr != nil {
		return dst, false, verr
	}
	o := newOut(dst, limit)
	formatText(&o, oid, b)
	return o.b, o.cut, nil
}

// WriteBinary writes the text AppendBinary appends to w, in pieces of a few tens of kilobytes,
// so that a value of any size is written in bounded memory. It writes nothing and returns
// ErrNoCodec or a *ValueError when AppendBinary would fail; otherwise the first error of w.
func WriteBinary(w io.Writer, oid uint32, b []byte) error {
	if !HasCodec(oid) {
		return ErrNoCodec
	}
	if verr := check(oid, b); verr != nil {
		return verr
	}
	o := out{w: w, limit: -1, b: make([]byte, 0, min(2*len(b)+64, flushAt+64))}
	formatText(&o, oid, b)
	_, _, err := o.finish()
	return err
}

// AppendHex appends b as PostgreSQL's bytea hex form, "\x0a1b".
func AppendHex(dst, b []byte) []byte {
	dst, _ = AppendHexLimit(dst, b, -1)
	return dst
}

// AppendHexLimit appends at most limit bytes (limit < 0: all) of AppendHex's text and reports
// whether it cut it; it reads only the bytes it shows.
func AppendHexLimit(dst, b []byte, limit int) ([]byte, bool) {
	o := newOut(dst, limit)
	o.str(`\x`)
	formatHexDigits(&o, b)
	return o.b, o.cut
}

// WriteHex writes AppendHex's text to w in pieces.
func WriteHex(w io.Writer, b []byte) error {
	o := out{w: w, limit: -1, b: make([]byte, 0, min(2*len(b)+64, flushAt+64))}
	o.str(`\x`)
	formatHexDigits(&o, b)
	_, _, err := o.finish()
	return err
}

// WriteText writes AppendText's text to w in pieces.
func WriteText(w io.Writer, b []byte) error {
	o := out{w: w, limit: -1, b: make([]byte, 0, min(len(b)+64, flushAt+64))}
	o.text(b, false)
	_, _, err := o.finish()
	return err
}

// formatHexDigits writes b as lower-case hex digits, a chunk at a time, stopping at the cap.
func formatHexDigits(o *out, b []byte) {
	var buf [2048]byte
	for len(b) > 0 && !o.done() {
		o.steps++
		n := min(len(b), len(buf)/2)
		for i, c := range b[:n] {
			buf[2*i], buf[2*i+1] = HexDigits[c>>4], HexDigits[c&15]
		}
		o.bytes(buf[:2*n])
		b = b[n:]
	}
}

// HasCodec reports whether binary values of type oid are decoded here.
func HasCodec(oid uint32) bool {
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

// fixedSize is the length of a binary value of a fixed-size type, or 0.
func fixedSize(oid uint32) int {
	switch oid {
	case oidBool, oidChar:
		return 1
	case oidInt2:
		return 2
	case oidInt4, oidOID, oidFloat4, oidDate:
		return 4
	case oidInt8, oidFloat8, oidTime, oidTimestamp, oidTimestampTZ:
		return 8
	case oidUUID, oidInterval:
		return 16
	}
	return 0
}

// Check returns what the server's receive function would reject in a binary-format value of type
// oid (a *ValueError), or nil, also for a type without a codec here. It takes time linear in
// len(b), formats nothing and allocates only the error.
func Check(oid uint32, b []byte) error {
	if !HasCodec(oid) {
		return nil
	}
	if err := check(oid, b); err != nil {
		return err
	}
	return nil
}

// check reports what the server's receive function would reject in a binary value of a type for
// which HasCodec is true, or nil. It takes time linear in len(b) and allocates only the error.
func check(oid uint32, b []byte) *ValueError {
	if n := fixedSize(oid); n > 0 && len(b) != n {
		return lengthError(oid, n, len(b))
	}
	switch oid {
	case oidJSONB:
		return checkJSONBVersion(b)
	case oidDate:
		return checkDate(int32(be32(b)))
	case oidTime:
		// time_recv accepts 00:00:00 to 24:00:00 inclusive.
		if us := int64(be64(b)); us < 0 || us > usecsPerDay {
			return valueError(oid, 0, "time out of range: "+strconv.FormatInt(us, 10)+" microseconds since midnight, want 0 to "+strconv.FormatInt(usecsPerDay, 10))
		}
	case oidTimestamp, oidTimestampTZ:
		return checkTimestamp(oid, int64(be64(b)))
	case oidNumeric:
		_, err := readNumeric(b)
		return err
	case oidInet, oidCIDR:
		return checkInet(oid, b)
	}
	if t, ok := LookupType(oid); ok && t.Elem != 0 {
		return checkArray(oid, t.Elem, b)
	}
	return nil
}

// checkJSONBVersion checks jsonb's version byte; jsonb_send writes version 1, the only one.
func checkJSONBVersion(b []byte) *ValueError {
	if len(b) == 0 {
		return valueError(oidJSONB, 0, "need 1 byte (version), have 0")
	}
	if b[0] != 1 {
		return valueError(oidJSONB, 0, "unsupported jsonb version "+itoa(int(b[0]))+", want 1")
	}
	return nil
}

// formatText writes the server's text output of a checked value, escaped for display.
func formatText(o *out, oid uint32, b []byte) {
	switch oid {
	case oidBytea:
		o.str(`\x`)
		formatHexDigits(o, b)
	case oidText, oidVarchar, oidBPChar, oidName, oidJSON:
		o.text(b, false)
	case oidJSONB:
		o.text(b[1:], false)
	case oidChar:
		// charout writes most bytes as they are, so the text may need escaping.
		o.text(appendCharOut(o.scratch[:0], b[0]), false)
	case oidNumeric:
		formatNumeric(o, b)
	default:
		if t, ok := LookupType(oid); ok && t.Elem != 0 {
			formatArray(o, oid, t.Elem, b)
			return
		}
		o.bytes(appendScalar(o.scratch[:0], oid, b))
	}
}

// appendScalar appends the text of a checked value of a fixed-size type, or of inet and cidr:
// short, printable ASCII.
func appendScalar(dst []byte, oid uint32, b []byte) []byte {
	switch oid {
	case oidBool:
		// boolrecv takes any non-zero byte as true.
		if b[0] != 0 {
			return append(dst, 't')
		}
		return append(dst, 'f')
	case oidInt2:
		return strconv.AppendInt(dst, int64(int16(be16(b))), 10)
	case oidInt4:
		return strconv.AppendInt(dst, int64(int32(be32(b))), 10)
	case oidInt8:
		return strconv.AppendInt(dst, int64(be64(b)), 10)
	case oidOID:
		return strconv.AppendUint(dst, uint64(be32(b)), 10)
	case oidFloat4:
		return appendFloat(dst, float64(math.Float32frombits(be32(b))), 32)
	case oidFloat8:
		return appendFloat(dst, math.Float64frombits(be64(b)), 64)
	case oidUUID:
		return appendUUID(dst, b)
	case oidDate:
		return appendDate(dst, int32(be32(b)))
	case oidTime:
		return appendClock(dst, int64(be64(b)))
	case oidTimestamp, oidTimestampTZ:
		return appendTimestamp(dst, oid, int64(be64(b)), false)
	case oidInterval:
		return appendInterval(dst, int64(be64(b)), int32(be32(b[8:])), int32(be32(b[12:])))
	case oidInet, oidCIDR:
		return appendInet(dst, oid, b)
	}
	return dst
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
		dst = append(dst, HexDigits[c>>4], HexDigits[c&15])
	}
	return dst
}
