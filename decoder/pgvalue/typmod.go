package pgvalue

import "strconv"

// AppendTypmod appends what a type modifier means for the built-in types that use one:
// " (length 20)" for varchar and bpchar, " (precision 6, scale 2)" for numeric, " (precision 3)"
// for the time types, and for an array of those what its element's means (varchar(20)[] has
// varchar(20)'s modifier). It appends nothing for -1 or other types.
func AppendTypmod(dst []byte, oid uint32, typmod int32) []byte {
	if typmod < 0 {
		return dst
	}
	if elem := arrayElem(oid); elem != 0 {
		oid = elem
	}
	switch oid {
	case oidBPChar, oidVarchar: // the length plus the 4-byte varlena header
		if typmod >= 4 {
			dst = append(dst, " (length "...)
			return append(strconv.AppendInt(dst, int64(typmod-4), 10), ')')
		}
	case oidNumeric: // ((precision << 16) | scale) + 4
		if typmod >= 4 {
			m := typmod - 4
			dst = append(dst, " (precision "...)
			dst = strconv.AppendInt(dst, int64(m>>16&0xffff), 10)
			dst = append(dst, ", scale "...)
			return append(strconv.AppendInt(dst, int64(int16(m&0xffff)), 10), ')')
		}
	case oidTime, oidTimestamp, oidTimestampTZ, oidTimeTZ: // the precision
		dst = append(dst, " (precision "...)
		return append(strconv.AppendInt(dst, int64(typmod), 10), ')')
	}
	return dst
}
