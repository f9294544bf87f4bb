package decoder

import (
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
	n := &t.Nodes[i]
	v := t.ValueOf(i)
	info := n.Field.Info()
	switch v.Kind {
	case ValueUint:
		return strconv.AppendUint(dst, v.Num, 10)
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
			dst = append(dst, '0', 'x', hexDigits[c>>4], hexDigits[c&15])
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
	case ValueString:
		b := t.ValueBytes(i)
		dst = pgvalue.AppendQuoted(dst, b)
		if len(b) == 0 && (n.Field == FieldRelationNamespace || n.Field == FieldTypeNamespace) {
			dst = append(dst, " (pg_catalog)"...)
		}
		return dst
	case ValueBytes:
		b := t.ValueBytes(i)
		if n.Field == FieldMessageContent && utf8.Valid(b) {
			return pgvalue.AppendQuoted(dst, b)
		}
		return pgvalue.AppendHex(dst, b)
	case ValueColumn:
		b := t.ValueBytes(i)
		if v.ColumnKind == 'b' {
			if out, ok, _ := pgvalue.AppendBinary(dst, v.TypeOID, b); ok {
				return out
			}
			return pgvalue.AppendHex(dst, b)
		}
		return pgvalue.AppendQuoted(dst, b)
	}
	return dst
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
