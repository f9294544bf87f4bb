package pgvalue

import (
	"io"
	"math"
	"strconv"
)

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
// nil) or the bytes do not fit it (err says why). AppendJSON and WriteJSON write the same
// values as JSON without building them.
func BinaryValue(oid uint32, b []byte) (v any, ok bool, err error) {
	if !HasCodec(oid) {
		return nil, false, nil
	}
	if verr := check(oid, b); verr != nil {
		return nil, false, verr
	}
	return binaryValue(oid, b), true, nil
}

// binaryValue is BinaryValue of a checked value.
func binaryValue(oid uint32, b []byte) any {
	switch oid {
	case oidBool:
		return b[0] != 0
	case oidBytea:
		return b
	case oidInt2:
		return int64(int16(be16(b)))
	case oidInt4:
		return int64(int32(be32(b)))
	case oidInt8:
		return int64(be64(b))
	case oidOID:
		return be32(b)
	case oidFloat4, oidFloat8:
		f := floatOf(oid, b)
		if s := nonFinite(f); s != "" {
			return s
		}
		return f
	case oidDate:
		return string(appendISODate(nil, int32(be32(b))))
	case oidTimestamp, oidTimestampTZ:
		return string(appendTimestamp(nil, oid, int64(be64(b)), true))
	}
	if t, ok := LookupType(oid); ok && t.Elem != 0 {
		return arrayValue(oid, t.Elem, b)
	}
	o := out{limit: -1, plain: true}
	formatText(&o, oid, b)
	return string(o.b)
}

// floatOf returns a checked float4 or float8 value.
func floatOf(oid uint32, b []byte) float64 {
	if oid == oidFloat4 {
		return float64(math.Float32frombits(be32(b)))
	}
	return math.Float64frombits(be64(b))
}

// nonFinite names NaN and the infinities as PostgreSQL prints them, or returns "".
func nonFinite(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return ""
}

// arrayValue returns a checked array's elements as []any, nested once per dimension.
func arrayValue(oid, elem uint32, b []byte) any {
	h, _ := readArrayHeader(oid, elem, b)
	if h.nitems == 0 {
		return []any{}
	}
	off := h.data
	n := 0
	var build func(dim int) []any
	build = func(dim int) []any {
		out := make([]any, h.dims[dim])
		for i := range out {
			if dim+1 < h.ndim {
				out[i] = build(dim + 1)
				continue
			}
			n++
			v, null, next, _ := nextElement(oid, b, off, n)
			if !null {
				out[i] = binaryValue(elem, v)
			}
			off = next
		}
		return out
	}
	return build(0)
}

// AppendJSON appends a binary-format column value as the JSON value BinaryValue's result would
// encode to with encoding/json (SetEscapeHTML(false)): true, 42, 1.5, "NaN", "\\x0a1b",
// "2024-01-02", "12345.678", and arrays as JSON arrays, laid out as encoding/json's Indent lays
// them out with prefix and indent (each element on a line of its own; compact when both are
// ""). A float4 is written with the shortest digits that read back as the same float32 (1.1, not
// 1.100000023841858). ok is false, and dst returned unchanged, as for AppendBinary.
func AppendJSON(dst []byte, oid uint32, b []byte, prefix, indent string) ([]byte, bool, error) {
	if !HasCodec(oid) {
		return dst, false, nil
	}
	if verr := check(oid, b); verr != nil {
		return dst, false, verr
	}
	o := newOut(dst, -1)
	formatJSON(&o, oid, b, prefix, indent)
	return o.b, true, nil
}

// WriteJSON writes AppendJSON's text to w in pieces of a few tens of kilobytes, so that a value
// of any size (a numeric of 131,072 digits, a long array, megabytes of bytea) is written in
// bounded memory. It writes nothing and returns ErrNoCodec or a *ValueError when AppendJSON
// would not write the value; otherwise the first error of w.
func WriteJSON(w io.Writer, oid uint32, b []byte, prefix, indent string) error {
	if !HasCodec(oid) {
		return ErrNoCodec
	}
	if verr := check(oid, b); verr != nil {
		return verr
	}
	o := out{w: w, limit: -1, b: make([]byte, 0, min(2*len(b)+64, flushAt+64))}
	formatJSON(&o, oid, b, prefix, indent)
	_, _, err := o.finish()
	return err
}

// formatJSON writes a checked value as JSON.
func formatJSON(o *out, oid uint32, b []byte, prefix, indent string) {
	switch oid {
	case oidBool:
		if b[0] != 0 {
			o.str("true")
		} else {
			o.str("false")
		}
		return
	case oidInt2, oidInt4, oidInt8, oidOID:
		o.bytes(appendScalar(o.scratch[:0], oid, b))
		return
	case oidFloat4, oidFloat8:
		f := floatOf(oid, b)
		if s := nonFinite(f); s != "" {
			o.byte1('"')
			o.str(s)
			o.byte1('"')
			return
		}
		o.bytes(appendJSONFloat(o.scratch[:0], f, oid == oidFloat4))
		return
	}
	if t, ok := LookupType(oid); ok && t.Elem != 0 {
		formatJSONArray(o, oid, t.Elem, b, prefix, indent)
		return
	}
	o.byte1('"')
	o.json = true
	switch oid {
	case oidDate:
		o.bytes(appendISODate(o.scratch[:0], int32(be32(b))))
	case oidTimestamp, oidTimestampTZ:
		o.bytes(appendTimestamp(o.scratch[:0], oid, int64(be64(b)), true))
	default:
		formatText(o, oid, b)
	}
	o.json = false
	o.byte1('"')
}

// appendJSONFloat writes a finite float as encoding/json writes a float64 (the shortest digits,
// in exponent form below 1e-6 and from 1e21 on), or, for a float4, as strconv's shortest 'g'
// form of a float32.
func appendJSONFloat(dst []byte, f float64, float4 bool) []byte {
	if float4 {
		return strconv.AppendFloat(dst, f, 'g', -1, 32)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9, as encoding/json writes it.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// formatJSONArray writes a checked array as nested JSON arrays, null for NULL elements.
func formatJSONArray(o *out, oid, elem uint32, b []byte, prefix, indent string) {
	h, _ := readArrayHeader(oid, elem, b)
	if h.nitems == 0 {
		o.str("[]")
		return
	}
	off := h.data
	var index [maxArrayDims]int
	open := 0
	newline := func(depth int) {
		if prefix == "" && indent == "" {
			return
		}
		o.byte1('\n')
		o.str(prefix)
		for range depth {
			o.str(indent)
		}
	}
	for n := 1; !o.done(); n++ {
		for ; open < h.ndim; open++ {
			o.byte1('[')
			newline(open + 1)
		}
		v, null, next, _ := nextElement(oid, b, off, n)
		if null {
			o.str("null")
		} else {
			// An element's own lines (none today: elements are not arrays) sit one level deeper.
			formatJSON(o, elem, v, prefix, indent)
		}
		off = next
		i := h.ndim - 1
		for ; i >= 0; i-- {
			index[i]++
			if index[i] < h.dims[i] {
				o.byte1(',')
				newline(i + 1)
				break
			}
			index[i] = 0
			newline(i)
			o.byte1(']')
		}
		if i < 0 {
			break
		}
		open = i + 1
	}
}
