package input

// Atoi reads a decimal integer as strconv.Atoi does: an optional sign, then one or more digits,
// within the range of int. ok is false where Atoi would return an error.
//
// The packages that go into the page's WASM use it instead of strconv's parse functions: their
// error type brings in strconv's quoting code and tables (15 KB of main.wasm).
func Atoi(s string) (n int, ok bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	const limit = 1 << 63 // the magnitude of the smallest int64; int is 64 bits on wasm too
	var u uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || u > limit/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if u > limit || (u == limit && !neg) {
		return 0, false
	}
	if neg {
		return int(-u), true
	}
	return int(u), true
}
