package decoder

import (
	"strconv"
	"unicode/utf8"
)

// pgEpochUnix is the PostgreSQL epoch, 2000-01-01 00:00:00 UTC, in Unix seconds.
const pgEpochUnix = 946684800

// AppendLSN appends an LSN the way PostgreSQL's pg_lsn prints it: high/low 32 bits in upper-case
// hex, "16/B374D848".
func AppendLSN(dst []byte, lsn uint64) []byte {
	dst = appendUpperHex(dst, lsn>>32)
	dst = append(dst, '/')
	return appendUpperHex(dst, lsn&0xffffffff)
}

func appendUpperHex(dst []byte, v uint64) []byte {
	const digits = "0123456789ABCDEF"
	var tmp [16]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = digits[v&15]
		v >>= 4
		if v == 0 {
			break
		}
	}
	return append(dst, tmp[i:]...)
}

// FormatLSN returns the LSN as PostgreSQL prints it.
func FormatLSN(lsn uint64) string { return string(AppendLSN(nil, lsn)) }

// AppendTime appends a protocol timestamp as RFC 3339 in UTC with microseconds,
// "2024-05-06T07:08:09.123456Z". PostgreSQL's infinity values print as "infinity"/"-infinity";
// years outside 0000-9999, which RFC 3339 cannot write, print with their sign and all digits.
func AppendTime(dst []byte, us int64) []byte {
	switch us {
	case 1<<63 - 1:
		return append(dst, "infinity"...)
	case -1 << 63:
		return append(dst, "-infinity"...)
	}
	// Split into days since 2000-01-01 and microseconds of the day, flooring for times before.
	const usPerDay = 86400 * 1e6
	days, rem := us/usPerDay, us%usPerDay
	if rem < 0 {
		days--
		rem += usPerDay
	}
	y, m, d := civil(days + 10957) // days from 1970-01-01
	switch {
	case y < 0:
		dst = append(dst, '-')
		dst = appendPad(dst, -y, 4)
	case y > 9999:
		dst = append(dst, '+')
		dst = appendPad(dst, y, 4)
	default:
		dst = appendPad(dst, y, 4)
	}
	dst = append(dst, '-')
	dst = appendPad(dst, m, 2)
	dst = append(dst, '-')
	dst = appendPad(dst, d, 2)
	dst = append(dst, 'T')
	secs := rem / 1e6
	dst = appendPad(dst, secs/3600, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs/60%60, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs%60, 2)
	dst = append(dst, '.')
	dst = appendPad(dst, rem%1e6, 6)
	return append(dst, 'Z')
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
// days_from_civil inverse), exact for every int64 timestamp.
func civil(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

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
				dst = appendTypmod(dst, uint32(t.ValueOf(j).Num), int32(v.Num))
			}
		}
		return dst
	case ValueLSN:
		return AppendLSN(dst, v.Num)
	case ValueTime:
		return AppendTime(dst, int64(v.Num))
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
		dst = AppendQuoted(dst, b)
		if len(b) == 0 && (n.Field == FieldRelationNamespace || n.Field == FieldTypeNamespace) {
			dst = append(dst, " (pg_catalog)"...)
		}
		return dst
	case ValueBytes:
		b := t.ValueBytes(i)
		if n.Field == FieldMessageContent && utf8.Valid(b) {
			return AppendQuoted(dst, b)
		}
		return AppendHex(dst, b)
	case ValueColumn:
		b := t.ValueBytes(i)
		if v.ColumnKind == 'b' {
			if out, ok, _ := AppendBinary(dst, v.TypeOID, b); ok {
				return out
			}
			return AppendHex(dst, b)
		}
		return AppendQuoted(dst, b)
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

// AppendHex appends b as PostgreSQL's bytea hex form, "\x0a1b".
func AppendHex(dst, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// appendTypmod appends what a type modifier means for the built-in types that use one:
// " (length 20)" for varchar and bpchar, " (precision 6, scale 2)" for numeric, " (precision 3)"
// for the time types. It appends nothing for -1 or other types.
func appendTypmod(dst []byte, oid uint32, typmod int32) []byte {
	if typmod < 0 {
		return dst
	}
	switch oid {
	case 1042, 1043: // bpchar, varchar: the length plus the 4-byte varlena header
		if typmod >= 4 {
			dst = append(dst, " (length "...)
			return append(appendInt(dst, int(typmod-4)), ')')
		}
	case 1700: // numeric: ((precision << 16) | scale) + 4
		if typmod >= 4 {
			m := typmod - 4
			dst = append(dst, " (precision "...)
			dst = appendInt(dst, int(m>>16&0xffff))
			dst = append(dst, ", scale "...)
			return append(appendInt(dst, int(int16(m&0xffff))), ')')
		}
	case 1083, 1114, 1184, 1266: // time, timestamp, timestamptz, timetz: the precision
		dst = append(dst, " (precision "...)
		return append(appendInt(dst, int(typmod)), ')')
	}
	return dst
}
