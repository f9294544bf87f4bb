package input

import (
	"strconv"
	"unicode/utf8"
)

// QuoteRune returns r as strconv.QuoteRune does for a valid rune: in single quotes, with a
// backslash before ' and \, and the escapes \a \b \f \n \r \t \v, \xXX, \uXXXX or \UXXXXXXXX
// for a rune that is not printable (strconv.IsPrint).
//
// The packages that go into the page's WASM use it instead of strconv.QuoteRune, whose escaping
// code serves every quoting function of strconv (8 KB of main.wasm).
func QuoteRune(r rune) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, 12)
	b = append(b, '\'')
	switch {
	case r == '\'' || r == '\\':
		b = append(b, '\\', byte(r))
	case strconv.IsPrint(r):
		b = utf8.AppendRune(b, r)
	case r >= '\a' && r <= '\r':
		b = append(b, '\\', "abtnvfr"[r-'\a'])
	case r < ' ' || r == 0x7f:
		b = append(b, '\\', 'x', hex[r>>4], hex[r&15])
	case r < 0x10000:
		b = append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	default:
		b = append(b, '\\', 'U')
		for shift := 28; shift >= 0; shift -= 4 {
			b = append(b, hex[r>>shift&15])
		}
	}
	return string(append(b, '\''))
}
