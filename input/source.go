package input

import (
	"bytes"
	"strconv"
)

// sniffPython accepts text with a b'…' or b"…" literal, or starting with a quote (a str
// literal, so that the error names the missing b prefix).
func sniffPython(sm *sample) bool {
	t := sm.text
	if a, b := trimSpace(sm.first, 0); b > a && (sm.first[a] == '\'' || sm.first[a] == '"') {
		return true
	}
	for i := 1; i+1 < len(t); i++ {
		if (t[i] == 'b' || t[i] == 'B') && (t[i+1] == '\'' || t[i+1] == '"') {
			if p := t[i-1]; !isIdent(p) || p == 'r' || p == 'R' {
				return true
			}
		}
	}
	return len(t) > 1 && (t[0] == 'b' || t[0] == 'B') && (t[1] == '\'' || t[1] == '"')
}

// pyBytesPrefix reports whether word is the prefix of a bytes literal, and whether it is raw.
func pyBytesPrefix(word []byte) (ok, raw bool) {
	switch string(word) {
	case "b", "B":
		return true, false
	case "rb", "rB", "Rb", "RB", "br", "bR", "Br", "BR":
		return true, true
	}
	return false, false
}

// readPython reads Python bytes literals. Adjacent literals join as Python joins them (on one
// line, or anywhere inside brackets, or across a '+'), so a literal wrapped by a formatter
// stays one message; each other literal is a message.
func readPython(s *state) *failure {
	s.grow(len(s.text) / 4)
	t := s.text
	depth := 0
	joinable := false // a literal here would extend the previous message
	found := false
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case isSpace(c):
			i++
		case c == '\n':
			if depth == 0 {
				joinable = false
			}
			i++
		case c == '\\' && i+1 < len(t) && (t[i+1] == '\n' || t[i+1] == '\r'):
			i += 2
			if i < len(t) && t[i-1] == '\r' && t[i] == '\n' {
				i++
			}
		case c == '#':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			joinable = false
			i++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			joinable = false
			i++
		case c == '+':
			i++ // b'a' + b'b' is one value
		case c == '\'' || c == '"':
			return failf(i, "expected a bytes literal b'…', found a str literal (no b prefix)")
		case isIdent(c):
			j := i
			for j < len(t) && isIdent(t[j]) {
				j++
			}
			if j < len(t) && (t[j] == '\'' || t[j] == '"') {
				ok, raw := pyBytesPrefix(t[i:j])
				if !ok {
					return failf(i, "expected a bytes literal b'…', found a "+string(t[i:j])+"'…' literal")
				}
				if !joinable {
					s.begin(i)
				}
				var f *failure
				if i, f = s.pyBytes(j, raw); f != nil {
					return f
				}
				joinable, found = true, true
				continue
			}
			i = j
			joinable = false
		case bytes.IndexByte([]byte("=,:;."), c) >= 0:
			i++
			joinable = false
		default:
			return s.fail(i, "expected a bytes literal b'…'")
		}
	}
	if !found {
		return failf(0, "expected a bytes literal b'…'")
	}
	return nil
}

// pyBytes reads the body of a bytes literal whose opening quote is at q.
func (s *state) pyBytes(q int, raw bool) (int, *failure) {
	t := s.text
	quote := t[q]
	triple := q+2 < len(t) && t[q+1] == quote && t[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(t) {
		c := t[i]
		switch {
		case c == quote && (!triple || (i+2 < len(t) && t[i+1] == quote && t[i+2] == quote)):
			if triple {
				return i + 3, nil
			}
			return i + 1, nil
		case c == '\n' && !triple:
			return i, s.fail(i, "unterminated bytes literal: expected the closing "+strconv.QuoteRune(rune(quote)))
		case c == '\\' && raw:
			s.buf = append(s.buf, c)
			if i+1 < len(t) && t[i+1] != '\n' {
				s.buf = append(s.buf, t[i+1])
			}
			i += 2
		case c == '\\':
			var f *failure
			if i, f = s.escape(i+1, langPython); f != nil {
				return i, f
			}
		case c >= 0x80:
			return i, failf(i, "bytes literals hold only ASCII characters, found "+describe(t, i))
		default:
			s.buf = append(s.buf, c)
			i++
		}
	}
	return i, s.fail(i, "unterminated bytes literal: expected the closing "+strconv.QuoteRune(rune(quote)))
}

// sniffElixir accepts text with "<<".
func sniffElixir(sm *sample) bool { return bytes.Contains(sm.text, []byte("<<")) }

// readElixir reads Elixir binaries <<…>>: integer segments (decimal, 0x, 0b, 0o, ?c, with
// ::size, signed/unsigned, big/little, utf8) and string segments "…".
func readElixir(s *state) *failure {
	s.grow(len(s.text) / 3)
	t := s.text
	found := false
	for i := 0; ; {
		var f *failure
		if i, f = s.skipSpace(i, langElixir); f != nil {
			return f
		}
		if i >= len(t) {
			break
		}
		switch c := t[i]; {
		case c == '<' && i+1 < len(t) && t[i+1] == '<':
			if i, f = s.elixirBinary(i); f != nil {
				return f
			}
			found = true
		case isIdent(c):
			for i < len(t) && (isIdent(t[i]) || t[i] == '?' || t[i] == '!') {
				i++
			}
		case c == '"':
			if i, f = s.skipQuoted(i); f != nil {
				return f
			}
		case bytes.IndexByte([]byte("=,()[]{}:|>.%@"), c) >= 0:
			i++
		default:
			return s.fail(i, "expected a binary <<…>>")
		}
	}
	if !found {
		return failf(0, "expected a binary <<…>>")
	}
	return nil
}

// elixirSpec is a segment's type: its size in bits, byte order, signedness and type.
type elixirSpec struct {
	bits, unit   int
	sized        bool // a size was given
	little       bool
	signed       bool
	binary, utf8 bool
	integer      bool // "integer" was given
	start        int  // the segment's offset, for errors
}

// elixirBinary reads the binary at open ("<<").
func (s *state) elixirBinary(open int) (int, *failure) {
	t := s.text
	s.begin(open)
	i := open + 2
	for n := 0; ; n++ {
		var f *failure
		if i, f = s.skipSpace(i, langElixir); f != nil {
			return i, f
		}
		if i+1 < len(t) && t[i] == '>' && t[i+1] == '>' {
			if n == 0 {
				return i, failf(open, "the binary holds no bytes")
			}
			return i + 2, nil
		}
		if bytes.HasPrefix(t[i:], []byte("...")) {
			return i, &failure{off: i, cut: true, msg: "the binary was cut short (\"...\": inspect's :limit), so its bytes are not all here; print it whole with IO.inspect(bin, limit: :infinity)"}
		}
		if i >= len(t) {
			return i, s.fail(i, "unterminated binary: expected \">>\"")
		}
		segStart := i
		str := false
		mark := len(s.buf)
		var v uint64
		neg := false
		switch c := t[i]; {
		case c == '"':
			str = true
			if i, f = s.elixirString(i); f != nil {
				return i, f
			}
		case c == '?':
			i++
			if i >= len(t) {
				return i, s.fail(i, "expected a character after '?'")
			}
			if t[i] == '\\' {
				if i, f = s.escape(i+1, langElixir); f != nil {
					return i, f
				}
			} else {
				j := i + 1
				for j < len(t) && t[j]&0xc0 == 0x80 {
					j++
				}
				s.buf, i = append(s.buf, t[i:j]...), j
			}
			r := []rune(string(s.buf[mark:]))
			s.buf = s.buf[:mark]
			if len(r) != 1 {
				return i, failf(segStart, "expected one character after '?'")
			}
			v = uint64(r[0])
		case c == '-' || (c >= '0' && c <= '9'):
			if c == '-' {
				neg = true
				i++
			}
			if v, i, f = s.number(i, langElixir); f != nil {
				return i, f
			}
		default:
			return i, s.fail(i, "expected a segment: an integer, ?c or a \"string\"")
		}
		spec := elixirSpec{bits: 8, unit: 1, start: segStart}
		if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' {
			if i, f = s.elixirSpec(i+2, &spec); f != nil {
				return i, f
			}
		}
		if str {
			if spec.integer || spec.sized {
				return i, failf(segStart, "a string segment takes no size or integer type here")
			}
		} else if f = s.elixirInt(v, neg, &spec); f != nil {
			return i, f
		}
		if i, f = s.skipSpace(i, langElixir); f != nil {
			return i, f
		}
		if i < len(t) && t[i] == ',' {
			i++
		} else if !(i+1 < len(t) && t[i] == '>' && t[i+1] == '>') {
			return i, s.fail(i, "expected ',' or \">>\"")
		}
	}
}

// elixirString reads "…" at q, appending its bytes.
func (s *state) elixirString(q int) (int, *failure) {
	t := s.text
	for i := q + 1; i < len(t); {
		switch c := t[i]; {
		case c == '"':
			return i + 1, nil
		case c == '#' && i+1 < len(t) && t[i+1] == '{':
			return i, failf(i, "string interpolation #{…} has no value here")
		case c == '\\':
			var f *failure
			if i, f = s.escape(i+1, langElixir); f != nil {
				return i, f
			}
		default:
			s.buf = append(s.buf, c)
			i++
		}
	}
	return len(t), s.fail(len(t), "unterminated string: expected '\"'")
}

// elixirSpec reads a segment's type after "::": parts joined by '-'.
func (s *state) elixirSpec(i int, spec *elixirSpec) (int, *failure) {
	t := s.text
	for {
		if i < len(t) && t[i] >= '0' && t[i] <= '9' {
			v, j, f := s.number(i, langElixir)
			if f != nil {
				return j, f
			}
			spec.bits, spec.sized = int(min(v, 1<<20)), true
			i = j
		} else {
			j := i
			for j < len(t) && isIdent(t[j]) {
				j++
			}
			word := string(t[i:j])
			switch word {
			case "size", "unit":
				if j >= len(t) || t[j] != '(' {
					return j, s.fail(j, "expected '(' after "+word)
				}
				v, k, f := s.number(j+1, langElixir)
				if f != nil {
					return k, f
				}
				if k >= len(t) || t[k] != ')' {
					return k, s.fail(k, "expected ')'")
				}
				if word == "size" {
					spec.bits, spec.sized = int(min(v, 1<<20)), true
				} else {
					spec.unit = int(min(v, 256))
				}
				j = k + 1
			case "integer", "unsigned", "big":
				spec.integer = spec.integer || word == "integer"
			case "signed":
				spec.signed = true
			case "little":
				spec.little = true
			case "binary", "bytes", "bitstring", "bits":
				spec.binary = true
			case "utf8":
				spec.utf8 = true
			case "":
				return j, s.fail(j, "expected a segment type (size, integer, signed, big, little, binary, utf8)")
			default:
				return i, failf(i, "the segment type "+word+" is not read here")
			}
			i = j
		}
		if i < len(t) && t[i] == '-' {
			i++
			continue
		}
		return i, nil
	}
}

// elixirInt appends an integer segment.
func (s *state) elixirInt(v uint64, neg bool, spec *elixirSpec) *failure {
	if spec.binary {
		return failf(spec.start, "an integer cannot be a binary segment")
	}
	if spec.utf8 {
		if neg || v > 0x10ffff {
			return failf(spec.start, "not a Unicode code point")
		}
		s.buf = appendUTF8(s.buf, v)
		return nil
	}
	bits := spec.bits * spec.unit
	if bits%8 != 0 || bits == 0 || bits > 64 {
		return failf(spec.start, "the segment is "+strconv.Itoa(bits)+" bits; only whole bytes up to 64 bits are read")
	}
	if bits < 64 {
		limit := uint64(1) << bits
		switch {
		case neg && v > limit/2:
			return failf(spec.start, "-"+strconv.FormatUint(v, 10)+" does not fit in "+strconv.Itoa(bits)+" bits")
		case !neg && v >= limit:
			return failf(spec.start, strconv.FormatUint(v, 10)+" does not fit in "+strconv.Itoa(bits)+
				" bits (Elixir would keep only the low bits)")
		}
	} else if neg && v > 1<<63 {
		return failf(spec.start, "-"+strconv.FormatUint(v, 10)+" does not fit in 64 bits")
	}
	if neg {
		v = -v
	}
	n := bits / 8
	for k := 0; k < n; k++ {
		shift := uint(8 * (n - 1 - k))
		if spec.little {
			shift = uint(8 * k)
		}
		s.buf = append(s.buf, byte(v>>shift))
	}
	return nil
}
