package input

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// psql's expanded display (\x), in each linestyle and border:
//
//	border 0:  "* Record 1"               then "lsn  0/1522A60"
//	border 1:  "-[ RECORD 1 ]----"        then "lsn  | 0/1522A60"  ('─' and '│' in unicode)
//	border 2:  "+-[ RECORD 1 ]----+"      then "| lsn  | 0/1522A60 |", and "+------+---…+" after the last
//
// Values continue on lines with an empty name, after the markers of the aligned table.

// recordHeader reads a record's heading and returns its number, or -1.
func recordHeader(line []byte) int {
	l := line
	if bytes.HasPrefix(l, []byte("* Record ")) {
		n, ok := Atoi(string(bytes.TrimSpace(l[len("* Record "):])))
		if !ok {
			return -1
		}
		return n
	}
	// Skip the border and rule characters before "[ RECORD ".
	i := 0
	for i < len(l) && i < 8 {
		r, n := utf8.DecodeRune(l[i:])
		if !isHoriz(r) && !isJunction(r) {
			break
		}
		i += n
	}
	const open = "[ RECORD "
	if i == 0 || !bytes.HasPrefix(l[i:], []byte(open)) {
		return -1
	}
	rest := l[i+len(open):]
	sp := bytes.IndexByte(rest, ' ')
	if sp < 1 || sp+1 >= len(rest) || rest[sp+1] != ']' {
		return -1
	}
	n, ok := Atoi(string(rest[:sp]))
	if !ok {
		return -1
	}
	return n
}

// sniffPsqlExpanded accepts text with a record heading among its first lines, or lines
// "lsn | X/X" as a record without its heading starts.
func sniffPsqlExpanded(sm *sample) bool {
	off := 0
	for n := 0; n < 40 && off < len(sm.text); n++ {
		line, next := nextLine(sm.text, off)
		if recordHeader(line) >= 0 {
			return true
		}
		off = next
	}
	return false
}

// expandedGeometry is where a record's value column starts and what borders it has.
type expandedGeometry struct {
	border int
	sep    int // character column of the separator between name and value (border 1, 2)
	value  int // character column where the value's margin (border 1, 2) or text (border 0) starts
}

// fieldGeometry finds the geometry from a record's first field line.
func fieldGeometry(line []byte, cols []int, border int) (expandedGeometry, bool) {
	g := expandedGeometry{border: border}
	n := utf8.RuneCount(line)
	if border == 0 {
		c := 0
		for c < n && runeAt(line, cols, c) != ' ' {
			c++
		}
		for c < n && runeAt(line, cols, c) == ' ' {
			c++
		}
		if c == 0 || c >= n {
			return g, false
		}
		g.sep, g.value = c-1, c
		return g, true
	}
	start := 0
	if border == 2 {
		start = 1
	}
	for c := start; c < n; c++ {
		if r := runeAt(line, cols, c); isVert(r) {
			g.sep, g.value = c, c+1
			return g, c > start
		}
	}
	return g, false
}

// readPsqlExpanded reads psql's expanded display. Records are numbered from any number (a
// paste may start at any record) and must then run on; a paste of one record's field lines
// without its heading reads too.
func readPsqlExpanded(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(4)
	want := -1 // the next record number
	records := 0
	border := 1
	var g expandedGeometry
	haveGeometry := false
	var row *psqlRow
	var field []byte // the name of the field the previous line belongs to
	prev := contNone
	tentative := -1 // the end of a value whose last '+' may be its own, not a marker
	colBuf := s.row.colBuf
	var dataName []byte // the field holding the value: data, or encode, or an alias
	// restore gives back a '+' that a value ended with when no continuation line followed.
	restore := func() {
		if tentative < 0 || row == nil {
			return
		}
		switch string(field) {
		case "lsn":
			row.lsn.end = tentative
		case "xid":
			row.xid.end = tentative
		default:
			if len(row.data) > 0 && bytes.Equal(field, dataName) {
				row.data[len(row.data)-1].end = tentative
			}
		}
		tentative = -1
	}
	finish := func() *failure {
		if prev != contNone {
			restore()
		}
		prev, tentative = contNone, -1
		if row == nil {
			return nil
		}
		r := row
		row = nil
		if len(r.data) == 0 {
			return failf(r.at, "the record has no data field")
		}
		return s.finishRow(r)
	}
	off := 0
	footer := -1
	for next := 0; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		if isBlank(line) || isPsqlChatter(line) {
			continue
		}
		if n, ok := psqlFooter(line); ok {
			if f := finish(); f != nil {
				return f
			}
			footer = n
			if n != records {
				s.footerNote(off, n, records)
			}
			continue
		}
		if n := recordHeader(line); n >= 0 {
			if f := finish(); f != nil {
				return f
			}
			switch {
			case want < 0 && n != 1:
				s.note(-1, "The text starts at record "+strconv.Itoa(n)+" (line "+strconv.Itoa(s.lineAt(off))+"): records before it were left out of the paste.")
			case want >= 0 && n != want:
				if n == 1 {
					want = 1 // the next result set
					break
				}
				return failf(off, "expected record "+strconv.Itoa(want)+", found record "+strconv.Itoa(n))
			}
			want = n + 1
			records++
			switch {
			case line[0] == '*':
				border = 0
			case line[0] == '-' || bytes.HasPrefix(line, []byte("─")):
				border = 1
			default:
				border = 2
			}
			if g.border != border {
				haveGeometry = false
			}
			row = s.newRow(off)
			row.display = true
			continue
		}
		if isRuleLine(line) {
			if f := finish(); f != nil { // border 2: the line under the last record
				return f
			}
			continue
		}
		cols := runeCols(line, colBuf)
		if cols != nil {
			colBuf = cols
		}
		if !haveGeometry {
			b := border
			if want < 0 {
				// A record pasted without its heading: the line says which border.
				switch r := runeAt(line, cols, 0); {
				case isVert(r):
					b = 2
				case bytes.IndexByte(line, '|') >= 0 || bytes.Contains(line, []byte("│")):
					b = 1
				default:
					b = 0
				}
				border = b
			}
			var ok bool
			if g, ok = fieldGeometry(line, cols, b); !ok {
				return s.fail(off, "expected \"name | value\" or a record heading \"-[ RECORD 1 ]\"")
			}
			haveGeometry = true
		}
		if row == nil {
			if want >= 0 {
				return s.fail(off, "expected a record heading \"-[ RECORD "+strconv.Itoa(want)+" ]\"")
			}
			s.note(-1, "The record on line "+strconv.Itoa(s.lineAt(off))+" has no \"-[ RECORD n ]\" heading; its fields are read as one record.")
			want = 0
			records++
			row = s.newRow(off)
			row.display = true
		}
		// The name, and the value's margins.
		nameStart := 0
		if g.border == 2 {
			nameStart = 1
		}
		ns, ne := byteAt(line, cols, nameStart), byteAt(line, cols, g.sep)
		if g.border > 0 && g.sep < len(line) {
			if r := runeAt(line, cols, g.sep); !isVert(r) && r != ':' && r != ';' && r != ' ' {
				return s.fail(off+ne, "expected '|' between the field's name and value")
			}
		}
		if g.border == 0 {
			ne = byteAt(line, cols, g.value)
		}
		name := bytes.TrimSpace(line[min(ns, len(line)):min(ne, len(line))])
		sep := runeAt(line, cols, g.sep)
		vs := g.value
		left := rune(0)
		if g.border > 0 {
			left = runeAt(line, cols, vs)
			vs++
		}
		ve := utf8.RuneCount(line)
		if cols == nil {
			ve = len(line)
		}
		right := rune(0)
		if g.border == 2 {
			ve-- // the right border
			right = runeAt(line, cols, ve-1)
			ve--
		} else if ve > vs {
			right = runeAt(line, cols, ve-1)
			if rightCont(right) != contNone {
				ve--
			} else {
				right = 0
			}
		}
		a, b := byteAt(line, cols, vs), byteAt(line, cols, max(ve, vs))
		if g.border == 2 || right != 0 {
			a, b = trimSpace(line[a:b], off+a)
		} else {
			// Not padded: a blank at the end may be the value's own (see valueBytes).
			a, _ = trimSpace(line[a:b], off+a)
			b += off
			a = min(a, b)
		}
		value := span{a, b}
		if len(name) == 0 {
			leftCont := left == '.' || left == '…' || sep == ':' || sep == ';'
			if prev == contNone && !leftCont {
				return s.fail(off, "expected a field name: the previous value has no continuation marker")
			}
			tentative = -1
			if bytes.Equal(field, dataName) {
				row.addData(value, prev == contNewline || sep == ':')
			}
		} else {
			if prev != contNone {
				restore()
			}
			tentative = -1
			field = name
			switch string(name) {
			case "lsn":
				row.lsn, row.hasLSN = value, true
			case "xid":
				row.xid, row.hasXid = value, true
			default:
				if dataName == nil && (string(name) == "data" || string(name) == "encode" || !isKnownExtra(name)) ||
					(string(name) == "data" && string(dataName) != "data") {
					dataName = name // a column named data wins over an alias seen first
				}
				if bytes.Equal(name, dataName) {
					row.setData(value)
				}
			}
		}
		prev = rightCont(right)
		if g.border < 2 && (right == '+' || right == '.') {
			// Border 0 and 1 do not pad a value: a '+' or '.' after it is a marker only when a
			// continuation line follows (restore gives it back otherwise).
			tentative = b + 1
			for tentative < len(s.text) && s.text[tentative-1] != byte(right) {
				tentative++
			}
		}
	}
	if row != nil && len(s.text) > 0 && s.text[len(s.text)-1] != '\n' && footer < 0 && g.border < 2 {
		if f := finish(); f != nil {
			return f
		}
		s.note(len(s.msgs)-1, "The text ends in the middle of this record (no line end after it), so its value may be cut short.")
	}
	if f := finish(); f != nil {
		return f
	}
	if records == 0 {
		return failf(0, "expected \"-[ RECORD 1 ]\"")
	}
	return nil
}
