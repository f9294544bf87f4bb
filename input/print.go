package input

import (
	"bytes"
	"strconv"
)

// How programs print a byte slice: Go's fmt ("[66 0 0]", %q), Java's Arrays.toString (signed
// bytes), Rust's {:02x?}, Node's Buffer and Uint8Array inspection and C#'s
// BitConverter.ToString. One printed value per message; several may follow one another, one
// per line.

// listSpec is a bracketed list's syntax.
type listSpec struct {
	open, close string // "[" and "]", or "<Buffer " and ">"; "" and "\n": one list a line
	comma       bool   // values separated by commas (else by blanks)
	base        int    // 10 or 16
	fixed       int    // hex digits per value when fixed (Rust {:02x?}, Node Buffer), else 0
	signed      bool   // values may be -128..-1 (Java)
	tool        string // for errors
}

var (
	goPrint  = listSpec{open: "[", close: "]", base: 10, tool: "Go's fmt.Println (or %v, %d) of a []byte"}
	javaList = listSpec{open: "[", close: "]", comma: true, base: 10, signed: true, tool: "Java's Arrays.toString(byte[])"}
	// ktJoin has no brackets: a list ends with its line.
	ktJoin  = listSpec{close: "\n", comma: true, base: 10, signed: true, tool: "Kotlin's joinToString() of a ByteArray"}
	rustHex = listSpec{open: "[", close: "]", comma: true, base: 16, fixed: 2, tool: "Rust's {:02x?} of a &[u8]"}
	nodeBuf = listSpec{open: "<Buffer", close: ">", base: 16, fixed: 2, tool: "Node's inspection of a Buffer (console.log)"}
	nodeU8  = listSpec{open: "[", close: "]", comma: true, base: 10, tool: "Node's inspection of a Uint8Array (console.log)"}
)

// readList reads one bracketed list per message, lists apart by blanks and line breaks.
func (s *state) readList(spec *listSpec, prefix func(i int) int) *failure {
	s.grow(len(s.text) / 3)
	t := s.text
	found := false
	for i := 0; ; {
		for i < len(t) && (isSpace(t[i]) || t[i] == '\n') {
			i++
		}
		if i >= len(t) {
			break
		}
		if prefix != nil {
			n := prefix(i)
			if n < 0 {
				return s.fail(i, "expected "+spec.tool)
			}
			i += n
			for i < len(t) && isSpace(t[i]) {
				i++
			}
		}
		if !bytes.HasPrefix(t[i:], []byte(spec.open)) {
			return s.fail(i, "expected '"+spec.open+"' ("+spec.tool+")")
		}
		var f *failure
		if i, f = s.list(i, spec); f != nil {
			return f
		}
		found = true
	}
	if !found {
		return failf(0, "expected "+spec.tool)
	}
	return nil
}

// list reads the list at open.
func (s *state) list(open int, spec *listSpec) (int, *failure) {
	t := s.text
	s.begin(open)
	i := open + len(spec.open)
	eol := spec.close == "\n"
	for n := 0; ; n++ {
		for i < len(t) && (isSpace(t[i]) || t[i] == '\n' && !eol) {
			i++
		}
		if i >= len(t) {
			if eol {
				return i, nil
			}
			return i, s.fail(i, "unterminated list: expected '"+spec.close+"'")
		}
		if bytes.HasPrefix(t[i:], []byte(spec.close)) {
			if n == 0 {
				return i, failf(open, "the list holds no bytes")
			}
			return i + len(spec.close), nil
		}
		if bytes.HasPrefix(t[i:], []byte("...")) {
			return i, s.cutList(i, spec)
		}
		if n > 0 && spec.comma {
			if t[i] != ',' {
				return i, s.fail(i, "expected ',' or "+strconv.QuoteRune(rune(spec.close[0])))
			}
			i++
			for i < len(t) && (isSpace(t[i]) || t[i] == '\n' && !eol) {
				i++
			}
			if bytes.HasPrefix(t[i:], []byte("...")) {
				return i, s.cutList(i, spec)
			}
		}
		start := i
		neg := false
		if i < len(t) && t[i] == '-' && spec.signed {
			neg = true
			i++
		}
		var v uint64
		digits := 0
		for i < len(t) && hexVal(t[i]) < byte(spec.base) {
			v = v*uint64(spec.base) + uint64(hexVal(t[i]))
			i++
			digits++
			if v > 1<<16 {
				break
			}
		}
		if digits == 0 {
			return i, s.fail(i, "expected a byte value")
		}
		if i < len(t) && isIdent(t[i]) {
			return i, s.fail(i, "expected the end of the byte value")
		}
		if spec.fixed != 0 && digits != spec.fixed {
			return i, failf(start, "expected "+itoa(spec.fixed)+" hex digits, as "+spec.tool+" writes every byte")
		}
		switch {
		case neg && (v == 0 || v > 128):
			return i, failf(start, "-"+strconv.FormatUint(v, 10)+" is not a signed byte (-128 to -1)")
		case neg:
			v = 256 - v
		case v > 255 && spec.signed:
			return i, failf(start, strconv.FormatUint(v, 10)+" is not a signed byte (-128 to 127)")
		case v > 255:
			return i, failf(start, strconv.FormatUint(v, 10)+" does not fit in a byte")
		case spec.signed && v > 127:
			return i, failf(start, strconv.FormatUint(v, 10)+" is not a signed byte (-128 to 127): Java and Kotlin print bytes from 128 up as negative numbers")
		}
		s.buf = append(s.buf, byte(v))
	}
}

// cutList is the error for a list that Node cut short ("... 181 more bytes>", "... 142 more
// items"): the rest of the bytes are not in the text.
func (s *state) cutList(at int, spec *listSpec) *failure {
	t := s.text
	i := at + 3
	for i < len(t) && t[i] == ' ' {
		i++
	}
	j := i
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	more := string(t[i:j])
	how := "print it whole: console.log(buf.toString('hex')), or set require('buffer').INSPECT_MAX_BYTES = Infinity first"
	what := "bytes"
	if spec == &nodeU8 {
		how = "print it whole: console.log(Buffer.from(arr).toString('hex')), or util.inspect(arr, {maxArrayLength: null})"
		what = "items"
	}
	if more == "" {
		more = "some"
	}
	return &failure{off: at, cut: true, msg: spec.tool + " cut it short after " + itoa(len(s.buf)-s.starts[len(s.starts)-1]) + " bytes (\"... " + more + " more " + what +
		"\"): the rest is not in the text, and decoding the start alone would mislead; " + how}
}

func sniffGoPrint(sm *sample) bool {
	a, b := trimSpace(sm.first, 0)
	l := sm.first[a:b]
	if len(l) < 3 || l[0] != '[' || bytes.IndexByte(l, ',') >= 0 {
		return false
	}
	return l[1] >= '0' && l[1] <= '9'
}

func readGoPrint(s *state) *failure { return s.readList(&goPrint, nil) }

// sniffBracketList accepts a first line starting with '[' and a value, as Java, Rust and
// Python print byte arrays.
func sniffBracketList(sm *sample) bool {
	a, b := trimSpace(sm.first, 0)
	l := sm.first[a:b]
	return len(l) >= 2 && l[0] == '[' && (l[1] == '-' || hexVal(l[1]) < 16 || l[1] == ' ')
}

func readJava(s *state) *failure    { return s.readList(&javaList, nil) }
func readRustHex(s *state) *failure { return s.readList(&rustHex, nil) }

// sniffKotlinJoin accepts a first line of signed decimal bytes apart by commas and nothing else.
func sniffKotlinJoin(sm *sample) bool {
	commas := 0
	for _, c := range sm.first {
		if c == ',' {
			commas++
		} else if (c < '0' || c > '9') && c != '-' && c != ' ' {
			return false
		}
	}
	return commas > 0
}

// readKotlinJoin reads one list a line: byte values apart by commas, no brackets.
func readKotlinJoin(s *state) *failure { return s.readList(&ktJoin, nil) }

// arrayIdentity is the error for Java's or Kotlin's default printing of a byte array,
// "[B@45ee12a7": the array's type and hash code, which hold none of its bytes.
func arrayIdentity(text []byte, tried []Format) *Error {
	l, off := firstContentLine(text, 0)
	a, _ := trimSpace(l, 0)
	if !bytes.HasPrefix(l[a:], []byte("[B@")) {
		return nil
	}
	e := newError(text, off+a, Java, "\"[B@…\" is a byte array printed as itself (println(bytes) in Java or Kotlin): its type and hash code, none of its bytes; print Arrays.toString(bytes) in Java, bytes.contentToString() in Kotlin")
	e.Tried = tried
	return e
}

func sniffNodeBuffer(sm *sample) bool { return bytes.Contains(sm.text, []byte("<Buffer")) }

func readNodeBuffer(s *state) *failure { return s.readList(&nodeBuf, nil) }

func sniffNodeUint8Array(sm *sample) bool { return bytes.Contains(sm.text, []byte("Uint8Array(")) }

// readNodeUint8Array reads "Uint8Array(21) [ 66, 0, … ]", as console.log prints it (over
// several lines from 7 values on).
func readNodeUint8Array(s *state) *failure {
	return s.readList(&nodeU8, func(i int) int {
		t := s.text
		if !bytes.HasPrefix(t[i:], []byte("Uint8Array(")) {
			return -1
		}
		j := i + len("Uint8Array(")
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j >= len(t) || t[j] != ')' {
			return -1
		}
		return j + 1 - i
	})
}

// sniffGoString accepts a first line that starts with a double quote: Go's %q.
func sniffGoString(sm *sample) bool {
	a, b := trimSpace(sm.first, 0)
	return b-a >= 2 && sm.first[a] == '"' && sm.first[b-1] == '"'
}

// readGoString reads Go string literals as %q prints a []byte, one per line.
func readGoString(s *state) *failure {
	s.grow(len(s.text) / 2)
	t := s.text
	for off := 0; off < len(t); {
		line, next := nextLine(t, off)
		a, b := trimSpace(line, off)
		off = next
		if a == b {
			continue
		}
		if t[a] != '"' {
			return s.fail(a, "expected a Go string literal \"…\" (%q of a []byte)")
		}
		s.begin(a)
		i := a + 1
		for {
			if i >= b {
				return s.fail(i, "unterminated string: expected the closing '\"'")
			}
			c := t[i]
			if c == '"' {
				i++
				break
			}
			if c == '\\' {
				var f *failure
				if i, f = s.escape(i+1, langGo); f != nil {
					return f
				}
				continue
			}
			s.buf = append(s.buf, c)
			i++
		}
		if i != b {
			return s.fail(i, "expected the end of the line after the string")
		}
	}
	return nil
}

// sniffCSharp accepts a first line of two-digit hex groups joined by '-': 42-00-FF.
func sniffCSharp(sm *sample) bool {
	a, b := trimSpace(sm.first, 0)
	l := sm.first[a:b]
	if len(l) < 5 || (len(l)+1)%3 != 0 {
		return false
	}
	for i, c := range l {
		if i%3 == 2 {
			if c != '-' {
				return false
			}
		} else if hexVal(c) > 15 {
			return false
		}
	}
	return true
}

// readCSharp reads BitConverter.ToString output, one message a line: "42-00-FF".
func readCSharp(s *state) *failure {
	s.grow(len(s.text) / 3)
	t := s.text
	for off := 0; off < len(t); {
		line, next := nextLine(t, off)
		a, b := trimSpace(line, off)
		off = next
		if a == b {
			continue
		}
		s.begin(a)
		for i := a; i < b; i += 3 {
			if i+2 > b || hexVal(t[i]) > 15 || hexVal(t[i+1]) > 15 {
				return s.fail(i, "expected two hex digits (BitConverter.ToString: 42-00-FF)")
			}
			s.buf = append(s.buf, hexVal(t[i])<<4|hexVal(t[i+1]))
			if i+2 < b && t[i+2] != '-' {
				return s.fail(i+2, "expected '-' between bytes")
			}
		}
	}
	return nil
}

// sniffHexItems accepts tshark -T fields output of a bytes field: hex, items apart by commas.
func sniffHexItems(sm *sample) bool {
	comma := false
	for _, c := range sm.text {
		switch {
		case c == ',':
			comma = true
		case hexVal(c) < 16 || c == '\n' || c == '\r':
		default:
			return false
		}
	}
	return comma
}

// readHexItems reads lines of hex items apart by commas (tshark -T fields -e pgsql.copydata,
// several CopyData messages of a frame on one line); each item is a message.
func readHexItems(s *state) *failure {
	s.grow(len(s.text) / 2)
	t := s.text
	for off := 0; off < len(t); {
		line, next := nextLine(t, off)
		a, b := trimSpace(line, off)
		off = next
		for i := a; i < b; {
			j := i
			for j < b && t[j] != ',' {
				j++
			}
			if j == i {
				return s.fail(i, "expected hex digits between commas")
			}
			s.begin(i)
			if f := s.hexDigits(t[i:j], i); f != nil {
				return f
			}
			i = j + 1
			if j < b && i == b {
				return s.fail(i, "expected hex digits after ','")
			}
		}
	}
	return nil
}
