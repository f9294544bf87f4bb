package decoder

import (
	"io"
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// pgEpochUnix is the PostgreSQL epoch, 2000-01-01 00:00:00 UTC, in Unix seconds.
const pgEpochUnix = 946684800

// AppendValue appends node i's value as a person reads it: numbers in decimal, LSNs as
// "0/1773FE8", timestamps in RFC 3339, markers as the character and its meaning ('K' old key),
// flags by name, strings quoted, column values typed. A group appends nothing.
func (t *Tree) AppendValue(dst []byte, i int) []byte {
	dst, _, _ = t.AppendValueLimit(dst, i, -1)
	return dst
}

// AppendValueLimit appends at most limit bytes (limit < 0: all) of the text AppendValue appends,
// cut before a character or an escape that would not fit, and reports whether it cut the text
// (a cut quoted value has no closing quote; the caller shows an ellipsis). Only what is shown is
// formatted: a 100 MB string or a numeric of 131,072 digits costs the limit, plus a check of a
// binary column value against its type, or of a Message's content for UTF-8, linear in its
// length. err is the *pgvalue.ValueError of a binary column value that does not fit its type,
// whose text is then its bytes in hex; nil otherwise.
func (t *Tree) AppendValueLimit(dst []byte, i, limit int) (out []byte, cut bool, err error) {
	n := &t.Nodes[i]
	if n.Field == FieldPassword || n.Field == FieldSASLData {
		// A client's password or SASL proof is never shown, whatever its bytes.
		size := n.Length
		if n.Format == FormatString {
			size-- // a password's terminator
		}
		out, cut = appendLimit(dst, len(dst), limit, "secret, "+strconv.Itoa(size)+" bytes not shown")
		return out, cut, nil
	}
	v := t.ValueOf(i)
	switch v.Kind {
	case ValueString:
		b := t.ValueBytes(i)
		start := len(dst)
		out, cut = pgvalue.AppendQuotedLimit(dst, b, limit)
		if !cut && len(b) == 0 && (n.Field == FieldRelationNamespace || n.Field == FieldTypeNamespace) {
			out, cut = appendLimit(out, start, limit, " (pg_catalog)")
		}
		if !cut && n.Field == FieldNoticeFieldValue && i > 0 && t.Bytes[t.Nodes[i-1].Offset] == 'C' {
			if name := SQLStateName(string(b)); name != "" {
				out, cut = appendLimit(out, start, limit, " "+name)
			}
		}
		return out, cut, nil
	case ValueBytes:
		b := t.ValueBytes(i)
		if n.Field == FieldMessageContent && utf8.Valid(b) || n.Field == FieldAuthData && printable(b) {
			out, cut = pgvalue.AppendQuotedLimit(dst, b, limit)
			return out, cut, nil
		}
		out, cut = pgvalue.AppendHexLimit(dst, b, limit)
		return out, cut, nil
	case ValueColumn:
		b := t.ValueBytes(i)
		if v.ColumnKind == columnBinary {
			oid := t.codecType(i, v)
			out, cut, err = pgvalue.AppendBinaryLimit(dst, oid, b, limit)
			if err == nil {
				return out, cut, nil
			}
			if err != pgvalue.ErrNoCodec {
				out, cut = pgvalue.AppendHexLimit(dst, b, limit)
				return out, cut, err
			}
			start := len(dst)
			if notBuiltin(v.TypeOID) && printable(b) {
				out, cut = pgvalue.AppendQuotedLimit(dst, b, limit)
			} else {
				out, cut = pgvalue.AppendHexLimit(dst, b, limit)
			}
			if !cut && notBuiltin(v.TypeOID) {
				out, cut = appendLimit(out, start, limit, typeNotBuiltin)
			}
			return out, cut, nil
		}
		out, cut = pgvalue.AppendQuotedLimit(dst, b, limit)
		return out, cut, nil
	}
	start := len(dst)
	out = t.appendShortValue(dst, i, v)
	if limit >= 0 && len(out)-start > limit {
		end := start + limit
		for end > start && !utf8.RuneStart(out[end]) {
			end--
		}
		return out[:end], true, nil
	}
	return out, false, nil
}

// WriteValue writes the text AppendValue appends to w, in pieces of a few tens of kilobytes for
// strings, raw bytes and column values, so that a value of any size is written in bounded
// memory. It returns w's first error. A binary column value that does not fit its type is
// written in hex, as AppendValue writes it; ValueError says why.
func (t *Tree) WriteValue(w io.Writer, i int) error {
	n := &t.Nodes[i]
	v := t.ValueOf(i)
	switch v.Kind {
	case ValueString:
		b := t.ValueBytes(i)
		if err := pgvalue.WriteQuoted(w, b); err != nil || len(b) > 0 ||
			n.Field != FieldRelationNamespace && n.Field != FieldTypeNamespace {
			return err
		}
		_, err := io.WriteString(w, " (pg_catalog)")
		return err
	case ValueBytes:
		b := t.ValueBytes(i)
		if n.Field == FieldMessageContent && utf8.Valid(b) || n.Field == FieldAuthData && printable(b) {
			return pgvalue.WriteQuoted(w, b)
		}
		return pgvalue.WriteHex(w, b)
	case ValueColumn:
		b := t.ValueBytes(i)
		if v.ColumnKind != columnBinary {
			return pgvalue.WriteQuoted(w, b)
		}
		oid := t.codecType(i, v)
		if t.ValueError(i) == nil && pgvalue.HasCodec(oid) {
			return pgvalue.WriteBinary(w, oid, b)
		}
		var err error
		if t.ValueError(i) == nil && notBuiltin(v.TypeOID) && printable(b) {
			err = pgvalue.WriteQuoted(w, b)
		} else {
			err = pgvalue.WriteHex(w, b)
		}
		if err == nil && t.ValueError(i) == nil && notBuiltin(v.TypeOID) {
			_, err = io.WriteString(w, typeNotBuiltin)
		}
		return err
	}
	var buf [128]byte
	_, err := w.Write(t.appendShortValue(buf[:0], i, v))
	return err
}

// AppendLabel appends Label(i), the name a person would give node i, without allocating.
func (t *Tree) AppendLabel(dst []byte, i int) []byte { return t.appendNodeLabel(dst, i) }

// ValueError returns why node i's binary column value does not fit its type (a
// *pgvalue.ValueError), or nil: for other nodes, text values and types without a codec. It
// checks the value in time linear in its length and formats nothing.
func (t *Tree) ValueError(i int) error {
	v := t.ValueOf(i)
	if v.Kind != ValueColumn || v.ColumnKind != columnBinary {
		return nil
	}
	return pgvalue.Check(t.codecType(i, v), t.ValueBytes(i))
}

// typeNotBuiltin marks the value of a type this decoder cannot know (an enum, a domain over a
// type it does not know, an extension's type), shown as its text when the bytes are printable
// UTF-8, as bytes otherwise.
const typeNotBuiltin = " (type not built in)"

// notBuiltin reports whether oid is a known type OID that is not a built-in type.
func notBuiltin(oid uint32) bool {
	if oid == 0 {
		return false
	}
	_, ok := pgvalue.LookupType(oid)
	return !ok
}

// codecType returns the type whose binary format a column value is in: the column's type, or,
// for a type that is not built in, the built-in type its Type message names (the server names
// a domain's base type there, and a domain's values are in its base type's format).
func (t *Tree) codecType(i int, v Value) uint32 {
	if !notBuiltin(v.TypeOID) {
		return v.TypeOID
	}
	if c := t.Column(i); c != nil {
		if base, ok := pgvalue.LookupTypeName(c.TypeName); ok && pgvalue.HasCodec(base.OID) {
			return base.OID
		}
	}
	return v.TypeOID
}

// printable reports whether b is UTF-8 text without control characters other than tab and
// line breaks: what a type's binary send format looks like when it sends its text (enums do).
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}

// The kind bytes of a text-format and a binary-format column value.
const (
	columnText   = 't'
	columnBinary = 'b'
)

// appendLimit appends s while dst[start:] stays within limit bytes (limit < 0: no limit), and
// reports whether s did not fit.
func appendLimit(dst []byte, start, limit int, s string) ([]byte, bool) {
	if limit >= 0 && len(dst)-start+len(s) > limit {
		end := max(start+limit-len(dst), 0)
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		return append(dst, s[:end]...), true
	}
	return append(dst, s...), false
}

// appendShortValue appends the text of a value that is short by nature: a number, an LSN, a
// timestamp, a marker, flags.
func (t *Tree) appendShortValue(dst []byte, i int, v Value) []byte {
	n := &t.Nodes[i]
	info := n.Field.Info()
	switch v.Kind {
	case ValueUint:
		dst = strconv.AppendUint(dst, v.Num, 10)
		// Names, not numbers: a type OID is named, a relation OID gets its relation's name.
		switch n.Field {
		case FieldRelationColumnTypeOID:
			if name := t.TypeNameOf(i); name != "" {
				dst = pgvalue.AppendSafe(append(dst, ' '), name)
			}
		case FieldInsertRelationOID, FieldUpdateRelationOID, FieldDeleteRelationOID, FieldTruncateRelationOID:
			if r := t.RelationOf(i); r != nil {
				dst = appendQualifiedName(append(dst, ' '), r)
			}
		case FieldRowDescriptionTypeOID, FieldParseTypeOID, FieldParameterDescriptionTypeOID:
			if name := pgvalue.TypeName(uint32(v.Num)); name != "" {
				dst = append(append(dst, ' '), name...)
			}
		default:
			// A code's name: an authentication code, a format code, a protocol version.
			if name := info.CodeName(v.Num); name != "" {
				dst = append(append(dst, ' '), name...)
			}
		}
		return dst
	case ValueInt:
		dst = strconv.AppendInt(dst, int64(v.Num), 10)
		if n.Field == FieldRelationColumnTypeModifier {
			if j := t.Find(t.Parent(i), FieldRelationColumnTypeOID); j >= 0 {
				dst = pgvalue.AppendTypmod(dst, uint32(t.ValueOf(j).Num), int32(v.Num))
			}
		}
		return dst
	case ValueLSN:
		return pgvalue.AppendLSN(dst, v.Num)
	case ValueTime:
		return pgvalue.AppendRFC3339(dst, int64(v.Num))
	case ValueChar:
		if c := byte(v.Num); c >= 0x20 && c < 0x7f {
			dst = append(dst, '\'', c, '\'')
		} else {
			dst = append(dst, '0', 'x', pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
		}
		if info.Kind == KindType {
			// The type byte names the message or envelope it begins.
			if p := t.Parent(i); p >= 0 {
				dst = append(dst, ' ')
				dst = append(dst, t.Nodes[p].Field.Info().Name...)
			}
		} else if name := info.CodeName(v.Num); name != "" {
			dst = append(dst, ' ')
			dst = append(dst, name...)
		} else if len(info.Codes) > 0 {
			dst = append(dst, " not a known value"...)
		}
		return dst
	case ValueFlags:
		return appendFlags(dst, info, v.Num)
	}
	return dst
}

// appendQualifiedName appends namespace.name, escaped as display text; an empty namespace is
// pg_catalog.
func appendQualifiedName(dst []byte, r *Relation) []byte {
	if r.Namespace == "" {
		dst = append(dst, "pg_catalog"...)
	} else {
		dst = pgvalue.AppendSafe(dst, r.Namespace)
	}
	return pgvalue.AppendSafe(append(dst, '.'), r.Name)
}

// Value returns node i's value as AppendValue writes it.
func (t *Tree) Value(i int) string { return string(t.AppendValue(nil, i)) }

func appendFlags(dst []byte, info *FieldInfo, v uint64) []byte {
	dst = strconv.AppendUint(dst, v, 10)
	if name := info.CodeName(v); name != "" {
		return append(append(dst, ' '), name...)
	}
	if v == 0 {
		return dst
	}
	sep := byte(' ')
	rest := v
	for _, c := range info.Codes {
		if c.Code != 0 && v&c.Code == c.Code {
			dst = append(dst, sep)
			dst = append(dst, c.Name...)
			sep = '|'
			rest &^= c.Code
		}
	}
	if rest != 0 {
		dst = append(dst, sep)
		dst = append(dst, "unknown bits 0x"...)
		dst = strconv.AppendUint(dst, rest, 16)
	}
	return dst
}
