package pgvalue

import (
	"io"
	"math"
	"unicode"
	"unicode/utf8"
)

// HexDigits are the lower-case hexadecimal digits, the one table every hex form uses (bytea,
// escapes, the page's hex view and share links, the command line's dump).
const HexDigits = "0123456789abcdef"

// hexValues maps a character to its hex digit value plus one (either case), and every other
// character to zero, so that HexValue's subtraction turns non-digits into 0xff without an init
// function.
var hexValues = [256]byte{
	'0': 1, '1': 2, '2': 3, '3': 4, '4': 5, '5': 6, '6': 7, '7': 8, '8': 9, '9': 10,
	'a': 11, 'b': 12, 'c': 13, 'd': 14, 'e': 15, 'f': 16,
	'A': 11, 'B': 12, 'C': 13, 'D': 14, 'E': 15, 'F': 16,
}

// HexValue returns the value of the hex digit c (upper or lower case), or 0xff when c is not
// one: the one reading of hex digits, used by the input reader and the share links.
func HexValue(c byte) byte { return hexValues[c] - 1 }

// AppendText appends a text-format ('t') column value, or any other text from the wire, for
// display: the one escaping of display text, used for values, names and labels alike, so that
// what a message holds can never act on a terminal or reorder the text around it. Valid UTF-8 is
// copied as is, backslashes and quotes included; each byte that is not part of valid UTF-8
// becomes \xHH; control characters become \n, \t, \r or \xHH (C0 and DEL) or \uHHHH (C1
// controls); so do the characters that are invisible or change how the surrounding text is laid
// out: every format character (Unicode category Cf: the bidirectional marks, embeddings,
// overrides and isolates U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, the zero-width
// characters U+200B–U+200D, U+2060, U+FEFF, the soft hyphen, tags…), U+034F and the line and
// paragraph separators U+2028 and U+2029; above U+FFFF as \UHHHHHHHH. Nothing is dropped. It
// allocates only to grow dst.
func AppendText(dst []byte, b []byte) []byte {
	dst, _ = appendEscaped(dst, b, false, math.MaxInt)
	return dst
}

// AppendTextLimit appends at most limit bytes of what AppendText appends, cut before an escape or
// a character that would not fit, and reports whether it cut the text. It looks at no more of b
// than it shows.
func AppendTextLimit(dst []byte, b []byte, limit int) ([]byte, bool) {
	out, n := appendEscaped(dst, b, false, len(dst)+max(limit, 0))
	return out, n < len(b)
}

// AppendSafe appends the string s (a name, a label, a sentence holding names) escaped as
// AppendText escapes a value.
func AppendSafe(dst []byte, s string) []byte {
	dst, _ = appendEscaped(dst, []byte(s), false, math.MaxInt)
	return dst
}

// SafeText returns s escaped as AppendText escapes a value; s itself when nothing needs
// escaping (no allocation).
func SafeText(s string) string {
	if !needsEscape([]byte(s)) {
		return s
	}
	return string(AppendSafe(nil, s))
}

// AppendQuoted appends b between double quotes, escaped as AppendText escapes it and with the
// quote and the backslash escaped too (\" and \\), so the quoted text reads back unambiguously.
func AppendQuoted(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst, _ = appendEscaped(dst, b, true, math.MaxInt)
	return append(dst, '"')
}

// AppendQuotedLimit appends at most limit bytes (limit < 0: all) of what AppendQuoted appends,
// and reports whether it cut it; a cut text has no closing quote. It looks at no more of b than
// it shows.
func AppendQuotedLimit(dst []byte, b []byte, limit int) ([]byte, bool) {
	o := newOut(dst, limit)
	o.byte1('"')
	o.text(b, true)
	o.byte1('"')
	return o.b, o.cut
}

// WriteQuoted writes AppendQuoted's text to w in pieces.
func WriteQuoted(w io.Writer, b []byte) error {
	o := out{w: w, limit: -1, b: make([]byte, 0, min(len(b)+64, flushAt+64))}
	o.byte1('"')
	o.text(b, true)
	o.byte1('"')
	_, _, err := o.finish()
	return err
}

// EscapeTail escapes b[start:] in place as AppendText does, so that text appended to b
// unescaped (a name) can be escaped without a copy of its own.
func EscapeTail(b []byte, start int) []byte {
	if !needsEscape(b[start:]) {
		return b
	}
	// The source is b[start:end]; the escaped copy goes after it and then replaces it.
	// Appending never writes into the source, and if it moves to a new array the old one,
	// which the source still points into, is left as it was.
	end := len(b)
	b = AppendText(b, b[start:end])
	return b[:start+copy(b[start:], b[end:])]
}

// appendEscaped is the one body of the display escaping (AppendText, AppendSafe, AppendQuoted,
// and capped and streamed values); quoted also escapes '"' and '\\'. It appends while dst stays
// within max bytes, never splitting a character or an escape, and returns how many bytes of b it
// consumed; it reads no further into b than it writes.
func appendEscaped(dst []byte, b []byte, quoted bool, max int) ([]byte, int) {
	i := 0
	for i < len(b) {
		room := max - len(dst)
		if room <= 0 {
			return dst, i
		}
		// Copy the longest run that needs no escaping, and fits, in one append.
		j := i
		for j < len(b) && j-i < room {
			c := b[j]
			if c >= 0x20 && c < 0x7F {
				if quoted && (c == '"' || c == '\\') {
					break
				}
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n == 1 || escapedRune(r) {
				break
			}
			j += n
		}
		if j-i > room {
			// The last character crosses the limit: stop before it.
			j = i + room
			for j > i && !utf8.RuneStart(b[j]) {
				j--
			}
			return append(dst, b[i:j]...), j
		}
		dst = append(dst, b[i:j]...)
		if j == len(b) || j-i == room {
			i = j
			continue
		}
		c := b[j]
		var esc [10]byte
		e := esc[:0]
		n := 1
		switch {
		case c == '\n':
			e = append(e, '\\', 'n')
		case c == '\t':
			e = append(e, '\\', 't')
		case c == '\r':
			e = append(e, '\\', 'r')
		case c == '"' || c == '\\':
			e = append(e, '\\', c)
		case c < utf8.RuneSelf:
			e = append(e, '\\', 'x', HexDigits[c>>4], HexDigits[c&15])
		default:
			var r rune
			r, n = utf8.DecodeRune(b[j:])
			switch {
			case r == utf8.RuneError && n == 1:
				e = append(e, '\\', 'x', HexDigits[c>>4], HexDigits[c&15])
			case r > 0xFFFF:
				e = append(e, '\\', 'U')
				for shift := 28; shift >= 0; shift -= 4 {
					e = append(e, HexDigits[r>>shift&15])
				}
			default:
				e = append(e, '\\', 'u', HexDigits[r>>12&15], HexDigits[r>>8&15], HexDigits[r>>4&15], HexDigits[r&15])
			}
		}
		if len(e) > max-len(dst) {
			return dst, j
		}
		dst = append(dst, e...)
		i = j + n
	}
	return dst, i
}

// escapedRune reports whether AppendText escapes a valid non-ASCII rune.
func escapedRune(r rune) bool {
	switch {
	case r <= 0x9F: // C1 controls (ASCII is handled before)
		return true
	case r < 0xAD: // no format character below the soft hyphen
		return false
	case r == 0x034F, // combining grapheme joiner: invisible
		r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// needsEscape reports whether AppendText would change b.
func needsEscape(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7F {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return true
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || escapedRune(r) {
			return true
		}
		i += n
	}
	return false
}

// AppendJSONString appends b as a JSON string, escaped as encoding/json escapes it (without its
// HTML escaping): '"' and '\\', the control characters (\b \f \n \r \t, others \u00XX),
// U+2028 and U+2029; a byte that is not UTF-8 becomes U+FFFD.
func AppendJSONString(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst, _ = appendJSONEscaped(dst, b, math.MaxInt)
	return append(dst, '"')
}

// appendJSONEscaped is AppendJSONString's body without the quotes, with the limit and the result
// of appendEscaped.
func appendJSONEscaped(dst []byte, b []byte, max int) ([]byte, int) {
	i := 0
	for i < len(b) {
		room := max - len(dst)
		if room <= 0 {
			return dst, i
		}
		j := i
		for j < len(b) && j-i < room {
			c := b[j]
			if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n == 1 || r == 0x2028 || r == 0x2029 {
				break
			}
			j += n
		}
		if j-i > room {
			j = i + room
			for j > i && !utf8.RuneStart(b[j]) {
				j--
			}
			return append(dst, b[i:j]...), j
		}
		dst = append(dst, b[i:j]...)
		if j == len(b) || j-i == room {
			i = j
			continue
		}
		c := b[j]
		var esc [6]byte
		e := esc[:0]
		n := 1
		switch c {
		case '"', '\\':
			e = append(e, '\\', c)
		case '\b':
			e = append(e, '\\', 'b')
		case '\f':
			e = append(e, '\\', 'f')
		case '\n':
			e = append(e, '\\', 'n')
		case '\r':
			e = append(e, '\\', 'r')
		case '\t':
			e = append(e, '\\', 't')
		default:
			if c < utf8.RuneSelf {
				e = append(e, '\\', 'u', '0', '0', HexDigits[c>>4], HexDigits[c&15])
				break
			}
			var r rune
			r, n = utf8.DecodeRune(b[j:])
			if r == utf8.RuneError {
				e = append(e, "\\ufffd"...)
			} else {
				e = append(e, '\\', 'u', '2', '0', '2', HexDigits[r&15])
			}
		}
		if len(e) > max-len(dst) {
			return dst, j
		}
		dst = append(dst, e...)
		i = j + n
	}
	return dst, i
}

// Plural returns one when n is 1 and many otherwise: the one helper for a word that follows a
// count, in every package.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
