package pgvalue

// AppendLSN appends an LSN (a pg_lsn value) the way PostgreSQL's pg_lsn prints it: high/low 32 bits in upper-case
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
