package input

import (
	"bytes"
	"strconv"
)

// dumpRow is one row of a hex dump: its offset, where its hex and ASCII columns are, or, for
// the last row of hexdump -C and od, only the offset (the dump's length).
type dumpRow struct {
	offset   uint64
	only     bool
	hex      span
	ascii    span
	hasASCII bool
	pre      int // unused
}

// maxRepeat bounds how many bytes a '*' line (rows equal to the one before) may stand for, so
// a few characters of text cannot ask for gigabytes.
const maxRepeat = 16 << 20

// dumpOffset reads the hex digits at the start of line: the value and how many digits.
func dumpOffset(line []byte) (uint64, int) {
	var v uint64
	n := 0
	for n < len(line) && n < 16 && hexVal(line[n]) < 16 {
		v = v<<4 | uint64(hexVal(line[n]))
		n++
	}
	return v, n
}

// hexField returns the end of the hex column that starts at i: the first stop character, or,
// when stop is 0, the first double blank; or the end of the line.
func hexField(line []byte, i int, stop byte) int {
	if stop != 0 {
		if j := bytes.IndexByte(line[i:], stop); j >= 0 {
			return i + j
		}
		return len(line)
	}
	for j := i; j+1 < len(line); j++ {
		if line[j] == ' ' && line[j+1] == ' ' {
			return j
		}
	}
	return len(line)
}

// readDump reads a hex dump: rows of offset, hex bytes and an optional ASCII column, checked
// to be continuous. A dump is one message; a row at offset 0 after it starts another.
func (s *state) readDump(row func(s *state, line []byte, off int) (dumpRow, *failure)) *failure {
	s.grow(len(s.text) / 3)
	if cap(s.rows) == 0 {
		s.rows = make([]dumpRowRef, 0, bytes.Count(s.text, []byte{'\n'})+1)
	}
	inMessage := false
	var want uint64 // the offset the next row must have
	prevStart, prevEnd := 0, 0
	repeat := -1 // the offset of a pending '*' line
	rows := 0
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		a, b := trimSpace(line, off)
		cur := off
		off = next
		if a == b {
			continue
		}
		if s.labels && bytes.HasSuffix(s.text[a:b], []byte(" bytes):")) {
			// tshark -x names the data sources of a frame: "Frame (263 bytes):", then
			// "Reassembled TCP (80 bytes):" and the like, whose bytes are in the frames too.
			if !bytes.HasPrefix(s.text[a:b], []byte("Frame (")) {
				for off < len(s.text) {
					l, nx := nextLine(s.text, off)
					if isBlank(l) {
						break
					}
					off = nx
				}
			}
			continue
		}
		if b-a == 1 && s.text[a] == '*' {
			if !inMessage || prevEnd == prevStart {
				return failf(a, "a '*' line repeats the row before it, and there is none")
			}
			repeat = a
			continue
		}
		r, f := row(s, line, cur)
		if f != nil {
			return f
		}
		rows++
		if !inMessage || (r.offset == 0 && want != 0 && repeat < 0) {
			if r.only {
				return failf(cur, "expected a row of hex bytes, found only an offset")
			}
			s.begin(cur)
			inMessage, want = true, r.offset
			prevStart, prevEnd = len(s.buf), len(s.buf)
		}
		if repeat >= 0 {
			width := uint64(prevEnd - prevStart)
			if r.offset <= want || (r.offset-want)%width != 0 {
				return failf(cur, "offset "+strconv.FormatUint(r.offset, 16)+" does not end the rows the '*' on line "+
					strconv.Itoa(lineOf(s.text, repeat))+" repeats, which start at "+strconv.FormatUint(want, 16)+" and are "+
					strconv.FormatUint(width, 10)+" bytes each")
			}
			if r.offset-want > maxRepeat {
				return failf(repeat, "the '*' stands for "+strconv.FormatUint(r.offset-want, 10)+" bytes, more than this reader expands")
			}
			for n := (r.offset - want) / width; n > 0; n-- {
				s.buf = append(s.buf, s.buf[prevStart:prevEnd]...)
			}
			want = r.offset
			repeat = -1
		}
		if r.only && s.words != nil && r.offset < want && want-r.offset < uint64(s.words.size) {
			// A word dump of an odd length: the last word holds fewer bytes than its size.
			if f := s.trimWord(int(want-r.offset), cur); f != nil {
				return f
			}
			want = r.offset
		}
		if s.words != nil && s.words.base == 0 && r.offset > want && prevEnd > prevStart &&
			uint64(prevEnd-prevStart)+(r.offset-want) <= 16 && repeat < 0 {
			// od -c shows a space byte as a field of blanks, lost when a row's trailing blanks
			// are: the bytes missing at the end of the row before are spaces.
			for n := r.offset - want; n > 0; n-- {
				s.buf = append(s.buf, ' ')
			}
			want = r.offset
		}
		if r.offset != want {
			radix := 16
			if s.words != nil && s.words.radix != 0 {
				radix = s.words.radix
			}
			return failf(cur, "offset "+strconv.FormatUint(r.offset, radix)+" does not follow the previous row, which ends at "+
				strconv.FormatUint(want, radix))
		}
		if r.only {
			inMessage = false
			s.wordLength = true
			continue
		}
		start := len(s.buf)
		s.rows = append(s.rows, dumpRowRef{start - s.starts[len(s.starts)-1], cur})
		if s.words != nil {
			if f := s.wordValues(line, cur); f != nil {
				return f
			}
		} else if f := s.hexGroups(s.text[r.hex.start:r.hex.end], r.hex.start); f != nil {
			return f
		}
		if len(s.buf) == start {
			return failf(r.hex.start, "expected the row's hex bytes")
		}
		if r.hasASCII {
			if f := s.checkASCII(s.buf[start:], r.ascii); f != nil {
				return f
			}
		}
		prevStart, prevEnd = start, len(s.buf)
		want = r.offset + uint64(len(s.buf)-start)
	}
	if repeat >= 0 {
		return failf(repeat, "a '*' line must be followed by the offset where the repeated rows end")
	}
	if rows == 0 {
		return failf(0, "expected dump rows")
	}
	return nil
}

// hexGroups reads groups of hex digits separated by blanks, each group an even number of digits.
func (s *state) hexGroups(area []byte, off int) *failure {
	i := 0
	for i < len(area) {
		if area[i] == ' ' || area[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(area) && area[j] != ' ' && area[j] != '\t' {
			j++
		}
		if f := s.hexDigits(area[i:j], off+i); f != nil {
			return f
		}
		i = j
	}
	return nil
}

// printable is how dumps show a byte in their ASCII column.
func printable(b byte) byte {
	if b >= 0x20 && b <= 0x7e {
		return b
	}
	return '.'
}

// checkASCII compares a row's ASCII column with its bytes. Blanks at either end of the
// column are not compared, since pasting often loses them.
func (s *state) checkASCII(row []byte, col span) *failure {
	i, j := 0, len(row)
	for i < j && printable(row[i]) == ' ' {
		i++
	}
	for j > i && printable(row[j-1]) == ' ' {
		j--
	}
	a, b := trimSpace(s.text[col.start:col.end], col.start)
	if b-a != j-i {
		return failf(a, "the ASCII column shows "+strconv.Itoa(b-a)+" characters for "+strconv.Itoa(j-i)+" bytes")
	}
	for k := 0; k < j-i; k++ {
		if want := printable(row[i+k]); s.text[a+k] != want {
			return failf(a+k, "the ASCII column shows "+strconv.QuoteRune(rune(s.text[a+k]))+" where the byte 0x"+
				strconv.FormatUint(uint64(row[i+k]), 16)+" shows as "+strconv.QuoteRune(rune(want)))
		}
	}
	return nil
}

// sniffXxd accepts a first line "HEX: HEX".
func sniffXxd(sm *sample) bool {
	_, n := dumpOffset(sm.first)
	return n >= 4 && n+2 < len(sm.first) && sm.first[n] == ':' && sm.first[n+1] == ' ' && hexVal(sm.first[n+2]) < 16
}

// xxdRow reads "00000000: 4200 0000 …  B...".
func xxdRow(s *state, line []byte, off int) (dumpRow, *failure) {
	v, n := dumpOffset(line)
	if n == 0 {
		return dumpRow{}, s.fail(off, "expected the row's offset in hex")
	}
	if n >= len(line) || line[n] != ':' {
		return dumpRow{}, s.fail(off+n, "expected ':' after the offset")
	}
	if n+1 >= len(line) || line[n+1] != ' ' {
		return dumpRow{}, s.fail(off+n+1, "expected a space after the offset's ':'")
	}
	start := n + 2
	end := hexField(line, start, 0)
	r := dumpRow{offset: v, hex: span{off + start, off + end}}
	if end < len(line) {
		r.ascii, r.hasASCII = span{off + end, off + len(line)}, true
	}
	return r, nil
}

func readXxd(s *state) *failure { return s.readDump(xxdRow) }

// sniffHexdumpC accepts a first line "HEX  HEX …|".
func sniffHexdumpC(sm *sample) bool {
	_, n := dumpOffset(sm.first)
	return n >= 4 && n+2 < len(sm.first) && sm.first[n] == ' ' && sm.first[n+1] == ' ' &&
		hexVal(sm.first[n+2]) < 16 && bytes.IndexByte(sm.first, '|') > 0
}

// hexdumpCRow reads "00000000  42 00 …  |B...|" or the closing "00000015".
func hexdumpCRow(s *state, line []byte, off int) (dumpRow, *failure) {
	v, n := dumpOffset(line)
	if n == 0 {
		return dumpRow{}, s.fail(off, "expected the row's offset in hex")
	}
	if isBlank(line[n:]) {
		return dumpRow{offset: v, only: true}, nil
	}
	if n+1 >= len(line) || line[n] != ' ' || line[n+1] != ' ' {
		return dumpRow{}, s.fail(off+n, "expected two spaces after the offset")
	}
	end := hexField(line, n+2, '|')
	r := dumpRow{offset: v, hex: span{off + n + 2, off + end}}
	if end < len(line) {
		last := bytes.LastIndexByte(line, '|')
		if last == end {
			return dumpRow{}, s.fail(off+len(line), "expected the closing '|' of the ASCII column")
		}
		if !isBlank(line[last+1:]) {
			return dumpRow{}, s.fail(off+last+1, "expected the end of the line after the ASCII column")
		}
		r.ascii, r.hasASCII = span{off + end + 1, off + last}, true
	}
	return r, nil
}

func readHexdumpC(s *state) *failure { return s.readDump(hexdumpCRow) }

// sniffWiresharkDump accepts a first line "0000  HH".
func sniffWiresharkDump(sm *sample) bool {
	v, n := dumpOffset(sm.first)
	if n != 4 || v != 0 || n+2 >= len(sm.first) || sm.first[n] != ' ' || sm.first[n+1] != ' ' {
		return false
	}
	i := n + 2
	for i < len(sm.first) && sm.first[i] == ' ' {
		i++
	}
	return i+1 < len(sm.first) && hexVal(sm.first[i]) < 16 && hexVal(sm.first[i+1]) < 16
}

// wiresharkRow reads "0000   42 00 …   B..." (Hex + ASCII Dump) or "0000   42 00 …" (Hex Dump).
func wiresharkRow(s *state, line []byte, off int) (dumpRow, *failure) {
	v, n := dumpOffset(line)
	if n == 0 {
		return dumpRow{}, s.fail(off, "expected the row's offset in hex")
	}
	if n+1 >= len(line) || line[n] != ' ' || line[n+1] != ' ' {
		return dumpRow{}, s.fail(off+n, "expected two spaces after the offset")
	}
	start := n + 2
	for start < len(line) && line[start] == ' ' {
		start++
	}
	end := hexField(line, start, 0)
	r := dumpRow{offset: v, hex: span{off + start, off + end}}
	if end < len(line) {
		r.ascii, r.hasASCII = span{off + end, off + len(line)}, true
	}
	return r, nil
}

func readWiresharkDump(s *state) *failure {
	s.labels = true
	defer func() { s.labels = false }()
	return s.readDump(wiresharkRow)
}
