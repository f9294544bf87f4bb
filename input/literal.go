package input

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Byte literals in source code: Go, C, Python, Elixir and JSON. Each literal is one message;
// the code around literals (declarations, comments) is skipped, but any character a reader
// does not expect there is an error, so that prose or a different language is not mistaken
// for code.

// lang selects a source language's rules for numbers and character literals.
type lang byte

const (
	langGo lang = iota
	langC
	langPython
	langElixir
	langJSON
)

func isIdent(c byte) bool { return c == '_' || isAlnum(c) }

// skipSpace skips blanks, line breaks and the comments of lang; it fails on an unterminated
// block comment.
func (s *state) skipSpace(i int, l lang) (int, *failure) {
	t := s.text
	for i < len(t) {
		c := t[i]
		switch {
		case isSpace(c) || c == '\n':
			i++
		case (l == langGo || l == langC) && c == '/' && i+1 < len(t) && t[i+1] == '/':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case (l == langGo || l == langC) && c == '/' && i+1 < len(t) && t[i+1] == '*':
			end := bytes.Index(t[i+2:], []byte("*/"))
			if end < 0 {
				return i, failf(i, "unterminated comment: expected \"*/\"")
			}
			i += 2 + end + 2
		case l == langElixir && c == '#':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		default:
			return i, nil
		}
	}
	return i, nil
}

// number reads an integer literal of lang at i, up to a limit that catches anything wider
// than 64 bits. It returns the value and the index after the literal.
func (s *state) number(i int, l lang) (uint64, int, *failure) {
	t := s.text
	start := i
	base := uint64(10)
	if i+1 < len(t) && t[i] == '0' && l != langJSON {
		switch t[i+1] {
		case 'x', 'X':
			base, i = 16, i+2
		case 'b', 'B':
			base, i = 2, i+2
		case 'o', 'O':
			if l != langC {
				base, i = 8, i+2
			}
		default:
			if (l == langGo || l == langC) && t[i+1] >= '0' && t[i+1] <= '9' || t[i+1] == '_' && l == langGo {
				base, i = 8, i+1 // a leading 0 means octal in Go and C
			}
		}
	}
	var v uint64
	digits := 0
	for ; i < len(t); i++ {
		c := t[i]
		if c == '_' && (l == langGo || l == langElixir) && digits > 0 {
			continue
		}
		d := uint64(hexVal(c))
		if d >= base {
			break
		}
		if v > (1<<64-1)/16 {
			return 0, i, failf(start, "the number does not fit in 64 bits")
		}
		v = v*base + d
		digits++
	}
	if digits == 0 {
		return 0, i, s.fail(i, "expected a digit")
	}
	if l == langJSON && t[start] == '0' && digits > 1 {
		return 0, i, failf(start, "JSON numbers have no leading zeros")
	}
	if l == langC {
		for i < len(t) && (t[i] == 'u' || t[i] == 'U' || t[i] == 'l' || t[i] == 'L') {
			i++
		}
	}
	if i < len(t) && (isIdent(t[i]) || t[i] == '.') {
		if l == langJSON && (t[i] == '.' || t[i] == 'e' || t[i] == 'E') {
			return 0, i, failf(start, "expected an integer from 0 to 255, found a number with a fraction or exponent")
		}
		return 0, i, s.fail(i, "expected the end of the number")
	}
	return v, i, nil
}

// escape reads the escape sequence after a backslash at t[i-1], the rules of lang (Go, C,
// Python, Elixir), and appends the bytes it stands for.
func (s *state) escape(i int, l lang) (int, *failure) {
	t := s.text
	if i >= len(t) {
		return i, s.fail(i, "expected an escape sequence")
	}
	c := t[i]
	if v, ok := simpleEscape(c, l); ok {
		s.buf = append(s.buf, v)
		return i + 1, nil
	}
	switch {
	case c == 'x':
		j := i + 1
		var v uint64
		n := 0
		if l == langElixir && j < len(t) && t[j] == '{' {
			j++
			for j < len(t) && hexVal(t[j]) < 16 && n < 6 {
				v = v<<4 | uint64(hexVal(t[j]))
				j, n = j+1, n+1
			}
			if n == 0 || j >= len(t) || t[j] != '}' {
				return j, s.fail(j, "expected hex digits and '}' in \\x{…}")
			}
			s.buf = appendUTF8(s.buf, v)
			return j + 1, nil
		}
		max := 2
		if l == langC {
			max = 16
		}
		for j < len(t) && hexVal(t[j]) < 16 && n < max {
			v = v<<4 | uint64(hexVal(t[j]))
			j, n = j+1, n+1
		}
		if n == 0 || (n < 2 && (l == langGo || l == langPython)) {
			return j, s.fail(j, "expected two hex digits after \\x")
		}
		if v > 255 {
			return i, failf(i-1, "the escape \\x"+string(t[i+1:j])+" does not fit in a byte")
		}
		s.buf = append(s.buf, byte(v))
		return j, nil
	case c >= '0' && c <= '7' && l != langElixir:
		j := i
		var v uint64
		for j < len(t) && j < i+3 && t[j] >= '0' && t[j] <= '7' {
			v = v*8 + uint64(t[j]-'0')
			j++
		}
		if l == langGo && j-i != 3 {
			return j, s.fail(j, "expected three octal digits")
		}
		if v > 255 {
			return i, failf(i-1, "the escape \\"+string(t[i:j])+" does not fit in a byte")
		}
		s.buf = append(s.buf, byte(v))
		return j, nil
	case (c == 'u' || c == 'U') && l == langGo:
		n := 4
		if c == 'U' {
			n = 8
		}
		var v uint64
		j := i + 1
		for k := 0; k < n; k++ {
			if j >= len(t) || hexVal(t[j]) > 15 {
				return j, s.fail(j, "expected a hex digit")
			}
			v = v<<4 | uint64(hexVal(t[j]))
			j++
		}
		s.buf = appendUTF8(s.buf, v)
		return j, nil
	case c == '\n' && (l == langPython || l == langElixir):
		return i + 1, nil
	case l == langPython:
		s.buf = append(s.buf, '\\', c)
		return i + 1, nil // Python keeps unknown escapes as written
	}
	return i, s.fail(i, "expected an escape sequence")
}

// cLetterEscape returns the byte C's escape of a backslash and the letter c stands for
// (\a \b \f \n \r \t \v), which Go, Python and Elixir took over and od -c writes.
func cLetterEscape(c byte) (byte, bool) {
	switch c {
	case 'a':
		return 7, true
	case 'b':
		return 8, true
	case 'f':
		return 12, true
	case 'n':
		return 10, true
	case 'r':
		return 13, true
	case 't':
		return 9, true
	case 'v':
		return 11, true
	}
	return 0, false
}

// simpleEscape returns the byte a one-character escape stands for in lang.
func simpleEscape(c byte, l lang) (byte, bool) {
	if b, ok := cLetterEscape(c); ok {
		return b, true
	}
	switch {
	case c == '\\' || c == '\'' || c == '"':
		return c, true
	case l == langElixir && c == 'e':
		return 27, true
	case l == langElixir && c == 's':
		return ' ', true
	case l == langElixir && c == 'd':
		return 127, true
	case l == langElixir && c == '0':
		return 0, true
	case l == langC && c == '?':
		return '?', true
	}
	return 0, false
}

// appendUTF8 appends a code point in UTF-8.
func appendUTF8(b []byte, v uint64) []byte {
	if v > 0x10ffff {
		v = 0xfffd
	}
	return utf8.AppendRune(b, rune(v))
}

// charLit reads a Go or C character literal at i ('B', '\x42', '\n') and returns its value.
func (s *state) charLit(i int, l lang) (uint64, int, *failure) {
	t := s.text
	start := i
	i++
	if i >= len(t) || t[i] == '\n' || t[i] == '\'' {
		return 0, i, s.fail(i, "expected a character")
	}
	mark := len(s.buf)
	if t[i] == '\\' {
		var f *failure
		if i, f = s.escape(i+1, l); f != nil {
			return 0, i, f
		}
	} else {
		j := i + 1
		for j < len(t) && t[j]&0xc0 == 0x80 {
			j++
		}
		s.buf, i = append(s.buf, t[i:j]...), j
	}
	b := s.buf[mark:]
	s.buf = s.buf[:mark]
	if i >= len(t) || t[i] != '\'' {
		return 0, i, s.fail(i, "expected the closing quote of the character literal")
	}
	if len(b) == 1 {
		return uint64(b[0]), i + 1, nil
	}
	r, n := utf8.DecodeRune(b)
	if n != len(b) || r == utf8.RuneError || r > 255 {
		return 0, i, failf(start, "the character literal does not fit in a byte")
	}
	return uint64(r), i + 1, nil
}

// byteValue reads one element of a Go or C initializer and appends it.
func (s *state) byteValue(i int, l lang) (int, *failure) {
	start := i
	var v uint64
	var f *failure
	if s.text[i] == '\'' {
		v, i, f = s.charLit(i, l)
	} else if s.text[i] >= '0' && s.text[i] <= '9' {
		v, i, f = s.number(i, l)
	} else {
		return i, s.fail(i, "expected a byte value")
	}
	if f != nil {
		return i, f
	}
	if v > 255 {
		return i, failf(start, strconv.FormatUint(v, 10)+" does not fit in a byte")
	}
	s.buf = append(s.buf, byte(v))
	return i, nil
}

// braced reads a Go or C initializer's elements after its '{' at i-1: byte values, or, when
// the first element is itself an initializer, one message per inner initializer. prefix
// reports the length of an inner literal's type before its '{' ("[]byte" in Go), or 0.
func (s *state) braced(open int, l lang, prefix func(int) int) (int, *failure) {
	i, f := s.skipSpace(open+1, l)
	if f != nil {
		return i, f
	}
	nested := false
	if i < len(s.text) {
		if p := prefix(i); p > 0 || s.text[i] == '{' {
			nested = true
		}
	}
	if !nested {
		s.begin(open)
	}
	for n := 0; ; n++ {
		if i, f = s.skipSpace(i, l); f != nil {
			return i, f
		}
		if i >= len(s.text) {
			return i, s.fail(i, "unterminated literal: expected '}'")
		}
		if s.text[i] == '}' {
			if n == 0 {
				return i, failf(open, "the literal holds no bytes")
			}
			return i + 1, nil
		}
		if nested {
			i += prefix(i)
			if i >= len(s.text) || s.text[i] != '{' {
				return i, s.fail(i, "expected an inner '{'")
			}
			if i, f = s.braced(i, l, func(int) int { return 0 }); f != nil {
				return i, f
			}
		} else if i, f = s.byteValue(i, l); f != nil {
			return i, f
		}
		if i, f = s.skipSpace(i, l); f != nil {
			return i, f
		}
		if i < len(s.text) && s.text[i] == ',' {
			i++
		} else if i >= len(s.text) || s.text[i] != '}' {
			return i, s.fail(i, "expected ',' or '}'")
		}
	}
}

// skipQuoted skips a double-quoted string (code around literals), returning the index after it.
func (s *state) skipQuoted(i int) (int, *failure) {
	for j := i + 1; j < len(s.text); j++ {
		switch s.text[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		case '\n':
			return j, s.fail(j, "expected the closing '\"' of the string")
		}
	}
	return len(s.text), s.fail(len(s.text), "expected the closing '\"' of the string")
}

func sniffGo(sm *sample) bool {
	return bytes.Contains(sm.text, []byte("byte{")) || bytes.Contains(sm.text, []byte("uint8{"))
}

// goType reports the length of a Go byte slice or array type at i ("[]byte", "[4]uint8",
// "[...]byte"), or 0.
func goType(t []byte, i int) int {
	if i >= len(t) || t[i] != '[' {
		return 0
	}
	j := i + 1
	for j < len(t) && (t[j] == '.' || (t[j] >= '0' && t[j] <= '9')) {
		j++
	}
	if j >= len(t) || t[j] != ']' {
		return 0
	}
	j++
	for _, name := range []string{"byte", "uint8"} {
		if bytes.HasPrefix(t[j:], []byte(name)) {
			return j + len(name) - i
		}
	}
	return 0
}

// readGo reads Go []byte{…} literals (and [N]byte, uint8, [][]byte{{…}, …}).
func readGo(s *state) *failure {
	s.grow(len(s.text) / 4)
	t := s.text
	found := false
	for i := 0; ; {
		var f *failure
		if i, f = s.skipSpace(i, langGo); f != nil {
			return f
		}
		if i >= len(t) {
			break
		}
		if t[i] == '[' && i+1 < len(t) && t[i+1] == ']' && goType(t, i+2) > 0 {
			// [][]byte{ {…}, []byte{…} }
			i += 2 + goType(t, i+2)
			if i >= len(t) || t[i] != '{' {
				return s.fail(i, "expected '{'")
			}
			if i, f = s.braced(i, langGo, func(j int) int { return goType(t, j) }); f != nil {
				return f
			}
			found = true
			continue
		}
		if n := goType(t, i); n > 0 {
			i += n
			if i >= len(t) || t[i] != '{' {
				return s.fail(i, "expected '{' after the type")
			}
			if i, f = s.braced(i, langGo, func(int) int { return 0 }); f != nil {
				return f
			}
			found = true
			continue
		}
		switch c := t[i]; {
		case isIdent(c) || c == '.':
			for i < len(t) && (isIdent(t[i]) || t[i] == '.') {
				i++
			}
		case bytes.IndexByte([]byte("=:;,(){}"), c) >= 0:
			i++
		case c == '"':
			if i, f = s.skipQuoted(i); f != nil {
				return f
			}
		default:
			return s.fail(i, "expected a []byte{…} literal")
		}
	}
	if !found {
		return failf(0, "expected a []byte{…} literal")
	}
	return nil
}

func sniffC(sm *sample) bool { return bytes.IndexByte(sm.text, '{') >= 0 }

// readC reads C initializers {0x42, …} with the declarations around them, as xxd -i writes.
func readC(s *state) *failure {
	s.grow(len(s.text) / 4)
	t := s.text
	found := false
	for i := 0; ; {
		var f *failure
		if i, f = s.skipSpace(i, langC); f != nil {
			return f
		}
		if i >= len(t) {
			break
		}
		switch c := t[i]; {
		case c == '{':
			if i, f = s.braced(i, langC, func(int) int { return 0 }); f != nil {
				return f
			}
			found = true
		case c == '#':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case isIdent(c):
			for i < len(t) && isIdent(t[i]) {
				i++
			}
		case bytes.IndexByte([]byte("[]=;*,()"), c) >= 0:
			i++
		default:
			return s.fail(i, "expected a {…} initializer")
		}
	}
	if !found {
		return failf(0, "expected a {…} initializer")
	}
	return nil
}

func sniffJSON(sm *sample) bool {
	a, b := trimSpace(sm.first, 0)
	return b > a && (sm.first[a] == '[' || bytes.HasPrefix(sm.first[a:], []byte(nodeBufferJSON)))
}

// nodeBufferJSON starts Node's JSON.stringify of a Buffer: {"type":"Buffer","data":[…]}.
const nodeBufferJSON = `{"type":"Buffer","data":`

// readJSON reads JSON arrays of numbers 0..255, several arrays apart by blanks or commas, or an
// array of such arrays; each array of numbers is a message.
func readJSON(s *state) *failure {
	s.grow(len(s.text) / 3)
	t := s.text
	found := false
	for i := 0; ; {
		var f *failure
		if i, f = s.skipSpace(i, langJSON); f != nil {
			return f
		}
		if i >= len(t) {
			break
		}
		if found && t[i] == ',' {
			i++
			continue
		}
		wrapped := false
		if bytes.HasPrefix(t[i:], []byte(nodeBufferJSON)) {
			i += len(nodeBufferJSON)
			wrapped = true
		}
		if i >= len(t) || t[i] != '[' {
			return s.fail(i, "expected '['")
		}
		if i, f = s.jsonArray(i, !wrapped); f != nil {
			return f
		}
		if wrapped {
			if i >= len(t) || t[i] != '}' {
				return s.fail(i, "expected the '}' that closes Node's {\"type\":\"Buffer\",…}")
			}
			i++
		}
		found = true
	}
	return nil
}

// jsonArray reads the array at open: numbers (a message) or, when outer, arrays of numbers.
func (s *state) jsonArray(open int, outer bool) (int, *failure) {
	t := s.text
	i, _ := s.skipSpace(open+1, langJSON)
	nested := outer && i < len(t) && t[i] == '['
	if !nested {
		s.begin(open)
	}
	for n := 0; ; n++ {
		i, _ = s.skipSpace(i, langJSON)
		if i >= len(t) {
			return i, s.fail(i, "unterminated array: expected ']'")
		}
		if t[i] == ']' {
			if n == 0 {
				return i, failf(open, "the array holds no bytes")
			}
			if n > 0 && t[i-1] == ',' {
				return i, s.fail(i, "expected a value after ','")
			}
			return i + 1, nil
		}
		var f *failure
		switch {
		case nested:
			if t[i] != '[' {
				return i, s.fail(i, "expected '['")
			}
			if i, f = s.jsonArray(i, false); f != nil {
				return i, f
			}
		case t[i] >= '0' && t[i] <= '9':
			start := i
			var v uint64
			if v, i, f = s.number(i, langJSON); f != nil {
				return i, f
			}
			if v > 255 {
				return i, failf(start, strconv.FormatUint(v, 10)+" does not fit in a byte")
			}
			s.buf = append(s.buf, byte(v))
		case t[i] == '-':
			return i, failf(i, "expected an integer from 0 to 255, found a negative number")
		default:
			return i, s.fail(i, "expected an integer from 0 to 255")
		}
		i, _ = s.skipSpace(i, langJSON)
		if i < len(t) && t[i] == ',' {
			i++
		} else if i >= len(t) || t[i] != ']' {
			return i, s.fail(i, "expected ',' or ']'")
		}
	}
}
