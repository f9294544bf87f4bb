package pgvalue

import "strconv"

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
