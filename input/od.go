package input

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// od and hexdump print rows of an offset and values: bytes or words in hex (od -x, -t x1,
// -t x2, hexdump, hexdump -x), octal (od, od -b), decimal (od -d, hexdump -d), or characters
// (od -c). Words of more than one byte are in the byte order of the machine that made the
// dump; they are read as little-endian, every machine people run these on, and a note says so.

// wordSpec is how a dump writes its values.
type wordSpec struct {
	radix   int  // of the offsets: 8, 10 or 16; 0 when the rows have none (od -A n)
	base    int  // of the values: 8, 10 or 16; 0 for characters (od -c)
	size    int  // bytes per value
	signed  bool // decimal values may be negative (od -t d)
	fixed   int  // digits of every value when zero-padded, 0 when not
	hexdump bool // hexdump's layout (7-digit hex offsets, no '>' column)
	big     bool // words are big-endian (a dump made on a big-endian machine)
}

// odToken is a value's text: [start, end) in the line.
type odToken struct{ start, end int }

// odSplit returns the offset's end and the value tokens of line (its ASCII column aside).
func odSplit(line []byte, spec *wordSpec, toks []odToken) (offEnd int, _ []odToken, ascii span, hasASCII bool) {
	toks = toks[:0]
	i := 0
	if spec.radix != 0 {
		for i < len(line) && line[i] != ' ' {
			i++
		}
	}
	offEnd = i
	end := len(line)
	if j := bytes.Index(line[i:], []byte("  >")); j >= 0 && spec.base != 0 {
		end = i + j
		if k := bytes.LastIndexByte(line, '<'); k > end {
			ascii, hasASCII = span{end + 3, k}, true
		}
	}
	if spec.base == 0 {
		// od -c and hexdump -c: fields four characters wide, right-aligned ("   D", "  \0",
		// " 006"). Blank fields at the end of a row are left out: hexdump pads its last row
		// with them, and a paste loses them; readDump tells space bytes among them from the
		// next row's offset.
		for end > i && line[end-1] == ' ' {
			end--
		}
		for j := i; j < end; {
			start := j
			for n := 0; n < 4 && j < end; n++ {
				if line[j] < utf8.RuneSelf {
					j++
					continue
				}
				_, w := utf8.DecodeRune(line[j:end])
				j += w
			}
			a := start
			for a < j && line[a] == ' ' {
				a++
			}
			if a == j && j-start == 4 {
				a = j - 1 // a space byte is a field of blanks
			}
			if a < j {
				toks = append(toks, odToken{a, j})
			}
		}
		return offEnd, toks, ascii, hasASCII
	}
	for j := i; j < end; {
		for j < end && line[j] == ' ' {
			j++
		}
		k := j
		for k < end && line[k] != ' ' {
			k++
		}
		if k > j {
			toks = append(toks, odToken{j, k})
		}
		j = k
	}
	return offEnd, toks, ascii, hasASCII
}

// odCharEscape returns the byte od -c writes as a backslash and c: \0, or one of C's
// letter escapes (\a \b \f \n \r \t \v).
func odCharEscape(c byte) (byte, bool) {
	if c == '0' {
		return 0, true
	}
	return cLetterEscape(c)
}

// sniffWords accepts a first line of od or hexdump output that is not hexdump -C or xxd: an
// offset of 6 or more digits (or none, with od -A n), then values.
func sniffWords(sm *sample) bool {
	_, ok := detectWords(sm.text)
	return ok
}

// detectWords works out a word dump's layout from its first row; the offsets' radix is a
// first guess (readWords tries the others).
func detectWords(text []byte) (wordSpec, bool) {
	var spec wordSpec
	var first []byte
	for off := 0; off < len(text); {
		line, next := nextLine(text, off)
		off = next
		if t := bytes.TrimSpace(line); len(t) > 0 {
			first = bytes.TrimRight(line, " ")
			break
		}
	}
	if len(first) == 0 {
		return spec, false
	}
	digits := 0
	if first[0] != ' ' { // od -A n rows start with a blank
		for digits < len(first) && hexVal(first[digits]) < 16 {
			digits++
		}
		if digits < 6 || digits > 16 || digits == len(first) || first[digits] != ' ' {
			return spec, false
		}
		spec.radix = 8
		if digits == 6 || digits > 7 {
			spec.radix = 16 // od -A x writes 6 digits; -A o and -A d 7, hexdump 7 in hex
		}
		spec.hexdump = digits == 7 && !bytes.Contains(first, []byte("  >"))
	}
	var buf [64]odToken
	_, toks, _, _ := odSplit(first, &wordSpec{radix: spec.radix, base: 16}, buf[:0])
	if len(toks) == 0 {
		return spec, false
	}
	char := false
	sameLen := true
	allHex, allOct, allDec := true, true, true
	w := toks[0].end - toks[0].start
	for _, t := range toks {
		v := first[t.start:t.end]
		if len(v) != w {
			sameLen = false
		}
		if v[0] == '\\' || (len(v) == 1 && hexVal(v[0]) > 15) || (len(v) == 2 && v[0] == '*' && v[1] == '*') {
			char = true
		}
		for j, c := range v {
			if hexVal(c) > 15 {
				allHex = false
			}
			if c < '0' || c > '7' {
				allOct = false
			}
			if (c < '0' || c > '9') && !(c == '-' && j == 0) {
				allDec = false
			}
		}
	}
	if char {
		// od -c: every field ends on a multiple of four columns after the offset, and holds
		// one character, an escape or three octal digits.
		for _, t := range toks {
			if (t.end-digits)%4 != 0 || t.end-t.start > 3 {
				return spec, false
			}
		}
	}
	if !char && !allHex && !allDec {
		// od -c of a row of letters and digits only: fields four wide, one character each.
		if w == 1 && len(toks) > 1 && toks[1].end-toks[0].end == 4 {
			char = true
		}
	}
	switch {
	case char:
		spec.base, spec.size = 0, 1
	case sameLen && allOct && w == 3:
		spec.base, spec.size, spec.fixed = 8, 1, 3
	case sameLen && allOct && w == 6:
		spec.base, spec.size, spec.fixed = 8, 2, 6
	case sameLen && allOct && w == 11:
		spec.base, spec.size, spec.fixed = 8, 4, 11
	case sameLen && allHex && w == 2:
		spec.base, spec.size, spec.fixed = 16, 1, 2
	case sameLen && allHex && w == 4:
		spec.base, spec.size, spec.fixed = 16, 2, 4
	case sameLen && allHex && w == 8:
		spec.base, spec.size, spec.fixed = 16, 4, 8
	case sameLen && allHex && w == 16:
		spec.base, spec.size, spec.fixed = 16, 8, 16
	case sameLen && allDec && w == 5 && spec.hexdump:
		spec.base, spec.size, spec.fixed = 10, 2, 5 // hexdump -d
	case allDec && len(toks) > 1:
		spec.base = 10
		spec.signed = bytes.IndexByte(first, '-') >= 0
		// The value size from the field width: od pads each value to one width per type.
		switch toks[1].end - toks[0].end {
		case 4, 5:
			spec.size = 1 // -t u1 "%3u ", -t d1 "%4d "
		case 6, 7:
			spec.size = 2 // -t u2 (od -d), -t d2
		case 11, 12:
			spec.size = 4
		default:
			return spec, false
		}
	default:
		return spec, false
	}
	return spec, true
}

// offLen is the length of the offset at the start of line.
func offLen(line []byte) int {
	n := 0
	for n < len(line) && line[n] != ' ' {
		n++
	}
	return n
}

// parseOffset reads the offset at the start of line in radix r.
func parseOffset(line []byte, r int) (uint64, bool) {
	n := offLen(line)
	if n == 0 || n > 22 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(line[:n]), r, 64)
	return v, err == nil
}

// readWords reads od or hexdump output of any value kind (see wordSpec).
func readWords(s *state, hexdump bool) *failure {
	spec, ok := detectWords(s.text)
	if !ok {
		return failf(0, "expected od or hexdump rows: an offset, then bytes or words")
	}
	if hexdump {
		if !spec.hexdump {
			return failf(0, "expected hexdump's rows: a 7-digit hexadecimal offset, then words")
		}
		spec.radix = 16
	}
	s.words = &spec
	defer func() { s.words = nil }()
	s.grow(len(s.text) / 2) // hexdump's words take 2.5 characters a byte, od's -b 4
	radixes := []int{spec.radix, 8, 10, 16}
	if hexdump || spec.radix == 0 {
		radixes = radixes[:1]
	}
	var f *failure
	for i, r := range radixes {
		if i > 0 && r == radixes[0] {
			continue
		}
		spec.radix, spec.big = r, false
		s.reset()
		if f = s.readDump(wordRow); f != nil && s.wordOdd && spec.size > 1 {
			// The last word's padding is not zero little-endian: try the other order.
			s.reset()
			spec.big = true
			f = s.readDump(wordRow)
		}
		if f == nil {
			break
		}
	}
	if f != nil && len(radixes) > 1 {
		// Report the failure of the most likely radix, with what it read.
		spec.radix, spec.big = radixes[0], false
		s.reset()
		if f = s.readDump(wordRow); f != nil && s.wordOdd && spec.size > 1 {
			s.reset()
			spec.big = true
			f = s.readDump(wordRow)
		}
	}
	if f != nil {
		return f
	}
	if spec.size > 1 && !s.wordLength {
		s.oddWithoutLength()
	}
	if spec.size > 1 {
		order := "little-endian: each word's low byte comes first, as od and hexdump print words in the byte order of the machine that ran them (x86 and ARM are little-endian)"
		if spec.big {
			order = "big-endian: read as made on a big-endian machine, since the little-endian reading does not fit the dump's length"
		}
		s.notes = append([]Note{{Message: -1, Text: "The dump shows " + itoa(spec.size*8) + "-bit words, read as " + order + "."}}, s.notes...)
	}
	return nil
}

func readOdWords(s *state) *failure      { return readWords(s, false) }
func readHexdumpWords(s *state) *failure { return readWords(s, true) }

func sniffOdWords(sm *sample) bool {
	_, ok := detectWords(sm.text)
	return ok
}

func sniffHexdumpWords(sm *sample) bool {
	spec, ok := detectWords(sm.text)
	return ok && spec.hexdump
}

// wordRow reads one row of a word dump, appending its bytes; the returned row's hex span is
// empty (readDump then reads nothing more from it).
func wordRow(s *state, line []byte, off int) (dumpRow, *failure) {
	spec := s.words
	var r dumpRow
	offEnd, toks, ascii, hasASCII := odSplit(line, spec, s.wordToks)
	if spec.radix != 0 {
		if offEnd == 0 {
			return r, s.fail(off, "expected the row's offset")
		}
		v, err := strconv.ParseUint(string(line[:offEnd]), spec.radix, 64)
		if err != nil {
			for i := 0; i < offEnd; i++ {
				if _, err := strconv.ParseUint(string(line[i:i+1]), spec.radix, 8); err != nil {
					return r, s.fail(off+i, "expected a digit of the offset in base "+itoa(spec.radix))
				}
			}
			return r, failf(off, "the offset does not fit in 64 bits")
		}
		r.offset = v
	} else {
		r.offset = s.wordNext
	}
	if len(toks) == 0 {
		if spec.radix == 0 {
			return r, s.fail(off, "expected values")
		}
		r.only = true
		return r, nil
	}
	r.ascii, r.hasASCII = span{off + ascii.start, off + ascii.end}, hasASCII
	s.wordToks = toks
	if spec.radix == 0 {
		s.wordNext = r.offset + uint64(len(toks)*spec.size)
	}
	return r, nil
}

// wordValues appends the values wordRow found on the line at off.
func (s *state) wordValues(line []byte, off int) *failure {
	for _, t := range s.wordToks {
		if f := s.wordValue(line[t.start:t.end], off+t.start); f != nil {
			return f
		}
	}
	return nil
}

// trimWord drops the n bytes of the last word that lie beyond the dump's length: they must be
// zero, as od and hexdump pad the last word with zeros.
func (s *state) trimWord(n, at int) *failure {
	tail := s.buf[len(s.buf)-n:]
	for _, b := range tail {
		if b != 0 {
			s.wordOdd = true
			return failf(at, "the dump ends inside its last word, but the word's bytes beyond the end are not zero in "+
				map[bool]string{false: "little-endian", true: "big-endian"}[s.words.big]+" order")
		}
	}
	s.buf = s.buf[:len(s.buf)-n]
	s.note(-1, "The dump is "+itoa(n)+" byte"+map[bool]string{true: "", false: "s"}[n == 1]+" short of whole words: its last word's padding (zero) is not part of the data.")
	return nil
}

// wordValue appends the bytes of one value.
func (s *state) wordValue(v []byte, off int) *failure {
	spec := s.words
	if spec.base == 0 {
		switch {
		case len(v) == 2 && v[0] == '*' && v[1] == '*':
			return nil // a continuation byte of the character before, already appended
		case len(v) == 2 && v[0] == '\\':
			b, ok := odCharEscape(v[1])
			if !ok {
				return failf(off, "unknown escape "+string(v)+" in od -c output")
			}
			s.buf = append(s.buf, b)
		case len(v) == 3 && v[0] >= '0' && v[0] <= '3' && v[1] >= '0' && v[1] <= '7' && v[2] >= '0' && v[2] <= '7':
			s.buf = append(s.buf, (v[0]-'0')<<6|(v[1]-'0')<<3|(v[2]-'0'))
		case len(v) == 1 && v[0] < utf8.RuneSelf || utf8.RuneCount(v) == 1:
			s.buf = append(s.buf, v...)
		default:
			return s.fail(off, "expected a character, an escape such as \\0 or three octal digits")
		}
		return nil
	}
	neg := false
	if spec.signed && len(v) > 0 && v[0] == '-' {
		neg, v, off = true, v[1:], off+1
	}
	if spec.fixed != 0 && len(v) != spec.fixed {
		return failf(off, "expected "+itoa(spec.fixed)+" digits, as the other values have, found "+itoa(len(v)))
	}
	// Fifteen digits cannot overflow the accumulator, so the size is checked only from the
	// sixteenth digit on (before a long value wraps) and once at the end.
	base := uint64(spec.base)
	var x uint64
	for i, c := range v {
		d := uint64(hexVal(c))
		if d >= base {
			return s.fail(off+i, "expected a digit in base "+itoa(spec.base))
		}
		x = x*base + d
		if i >= 15 && x>>(8*spec.size) != 0 && !(neg && x == 1<<(8*spec.size-1)) {
			return failf(off, string(v)+" does not fit in "+itoa(spec.size)+" bytes")
		}
	}
	if x>>(8*spec.size) != 0 && !(neg && x == 1<<(8*spec.size-1)) {
		return failf(off, string(v)+" does not fit in "+itoa(spec.size)+" bytes")
	}
	if neg {
		x = -x
	}
	switch {
	case spec.size == 1:
		s.buf = append(s.buf, byte(x))
	case spec.size == 2 && !spec.big:
		s.buf = append(s.buf, byte(x), byte(x>>8))
	default:
		for k := 0; k < spec.size; k++ {
			shift := 8 * k
			if spec.big {
				shift = 8 * (spec.size - 1 - k)
			}
			s.buf = append(s.buf, byte(x>>shift))
		}
	}
	return nil
}

// odNoOffsets reports text that starts like od -A n output: rows of a blank and values, each
// value after one blank, the first row full (16 bytes).
func odNoOffsets(text []byte) bool {
	line, _ := nextLine(text, 0)
	if len(line) < 4 || line[0] != ' ' || line[1] == ' ' {
		return false
	}
	spec, ok := detectWords(text)
	if !ok || spec.radix != 0 || spec.base == 0 {
		return false
	}
	var buf [32]odToken
	_, toks, _, _ := odSplit(line, &spec, buf[:0])
	return len(toks)*spec.size == 16
}

// oddWithoutLength handles a word dump without its length line (od -A n, a paste cut before
// it): a message of an odd length shows its last byte in a word padded with a zero byte, and
// only decoding can tell that padding from data. A message whose last byte is zero and that
// decodes only without it loses it, with a note.
func (s *state) oddWithoutLength() {
	sess := decoder.NewSession(decoder.Options{})
	var t decoder.Tree
	for i := range s.msgs {
		end := len(s.buf)
		if i+1 < len(s.starts) {
			end = s.starts[i+1]
		}
		m := s.buf[s.starts[i]:end]
		if len(m) < 2 || m[len(m)-1] != 0 {
			continue
		}
		sess.DecodeInto(&t, m)
		if t.Err == nil {
			continue
		}
		if sess.DecodeInto(&t, m[:len(m)-1]); t.Err != nil {
			continue
		}
		// Drop the byte: move the messages after it down by one.
		copy(s.buf[end-1:], s.buf[end:])
		s.buf = s.buf[:len(s.buf)-1]
		for j := i + 1; j < len(s.starts); j++ {
			s.starts[j]--
		}
		s.note(i, "The dump has no length line, so its last word may hold one byte and a zero of padding: read so, since the message decodes only without that zero byte.")
	}
}
