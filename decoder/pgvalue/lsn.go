package pgvalue

import (
	"strconv"
	"strings"
)

// AppendLSN appends an LSN (a pg_lsn value) the way PostgreSQL prints it: the high and the low
// 32 bits in upper-case hex, "16/B374D848".
func AppendLSN(dst []byte, lsn uint64) []byte {
	dst = appendUpperHex(dst, lsn>>32)
	dst = append(dst, '/')
	return appendUpperHex(dst, lsn&0xffffffff)
}

// appendUpperHex appends v in hex with upper-case letters, as pg_lsn_out's %X does.
func appendUpperHex(dst []byte, v uint64) []byte {
	start := len(dst)
	dst = strconv.AppendUint(dst, v, 16)
	for i := start; i < len(dst); i++ {
		if c := dst[i]; c >= 'a' {
			dst[i] = c - 'a' + 'A'
		}
	}
	return dst
}

// FormatLSN returns the LSN as PostgreSQL prints it.
func FormatLSN(lsn uint64) string { return string(AppendLSN(nil, lsn)) }

// ParseLSN reads an LSN as AppendLSN writes it (and as pg_lsn_in reads it): the high and the
// low 32 bits in hex, one to eight digits each, either case, separated by a slash
// ("16/B374D848", "0/1773fe8"). ok is false for anything else.
func ParseLSN(s string) (lsn uint64, ok bool) {
	hi, lo, found := strings.Cut(s, "/")
	if !found || len(hi) == 0 || len(hi) > 8 || len(lo) == 0 || len(lo) > 8 {
		return 0, false
	}
	// Base 16 (not 0) admits no sign, prefix or underscore: hex digits only.
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return h<<32 | l, true
}
