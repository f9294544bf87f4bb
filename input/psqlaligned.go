package input

import (
	"strconv"
	"unicode/utf8"
)

// psql's aligned and wrapped tables, in each \pset linestyle (ascii, old-ascii, unicode) and
// border (0, 1, 2). The rule under the header gives the geometry: each run of '-' (or '─') is
// a column, and everything else is read by position, in characters:
//
//	border 0:  "lsn       xid data"      content [a, b), a continuation marker at b
//	border 1:  " lsn     | xid | data"   content [a+1, b-1), markers at a (left) and b-1 (right)
//	border 2:  "| lsn    | xid | data |" as border 1, the '|' at a-1 and b
//
// A value continues on the next line when the line breaks it (marker '+' in ascii, '↵' in
// unicode, ':' in old-ascii's separator) or when psql wrapped it ('.', '…', ';'); the other
// cells of a continuation line are blank.

// isHoriz reports whether r draws a rule.
func isHoriz(r rune) bool { return r == '-' || r == '─' || r == '═' || r == '━' }

// isJunction reports whether r joins rules and column separators.
func isJunction(r rune) bool {
	switch r {
	case '+', '┼', '├', '┤', '┌', '┐', '└', '┘', '┬', '┴', '╪', '╞', '╡', '╤', '╧', '╒', '╕', '╘', '╛', '╫', '╬', '╟', '╢', '╠', '╣':
		return true
	}
	return false
}

// isVert reports whether r separates columns.
func isVert(r rune) bool { return r == '|' || r == '│' || r == '║' || r == '┃' }

// psqlLayout is an aligned table's geometry, in characters, taken from its rule.
type psqlLayout struct {
	seg    []span // each column's run of rule characters
	border int
}

// parseRule reads a rule line: runs of '-' (or '─'), joined by '+' (or box junctions), or by
// single blanks in border 0. ok is false when line is not a rule.
func parseRule(line []byte) (l psqlLayout, ok bool) {
	for len(line) > 0 && isSpace(line[len(line)-1]) {
		line = line[:len(line)-1]
	}
	col, horiz, junctions := 0, 0, 0
	start := -1
	first := true
	for i := 0; i < len(line); {
		r, n := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(line[i:])
		}
		switch {
		case isHoriz(r):
			horiz++
			if start < 0 {
				start = col
			}
		case isJunction(r) || r == ' ':
			if r != ' ' {
				junctions++
				if first {
					l.border = 2
				}
			} else if start < 0 && !first {
				return l, false // two blanks: not a border-0 rule
			}
			if start >= 0 {
				l.seg = append(l.seg, span{start, col})
				start = -1
			}
		default:
			return l, false
		}
		first = false
		i += n
		col++
	}
	if start >= 0 {
		l.seg = append(l.seg, span{start, col})
	}
	if horiz < 3 || len(l.seg) == 0 {
		return l, false
	}
	if l.border == 0 && junctions > 0 {
		l.border = 1
	}
	return l, true
}

// isRuleLine reports whether line is a rule of an aligned table.
func isRuleLine(line []byte) bool {
	if len(line) < 3 {
		return false
	}
	switch line[0] {
	case '-', '+', 0xe2: // 0xe2 starts '─' and the box junctions
	default:
		return false
	}
	horiz, blanks := 0, 0
	for i := 0; i < len(line); {
		r, n := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(line[i:])
		}
		switch {
		case isHoriz(r):
			horiz++
			blanks = 0
		case r == ' ':
			if blanks++; blanks > 1 && horiz > 0 {
				// Two blanks: only the end of the line may have them.
				return isBlank(line[i:]) && horiz >= 3
			}
		case isJunction(r):
			blanks = 0
		default:
			return false
		}
		i += n
	}
	return horiz >= 3
}

// runeCols maps character columns of line to byte offsets: cols[i] is where character i starts
// (and cols[len] is len(line)). It returns nil for ASCII lines, where the two are the same.
func runeCols(line []byte, buf []int) []int {
	ascii := true
	for _, c := range line {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return nil
	}
	buf = buf[:0]
	for i := 0; i < len(line); {
		buf = append(buf, i)
		if line[i] < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRune(line[i:])
			i += n
		}
	}
	return append(buf, len(line))
}

// byteAt returns the byte offset in line of character column c (len(line) past the end).
func byteAt(line []byte, cols []int, c int) int {
	if c < 0 {
		return 0 // before a header line that lost its first blanks (see shifted)
	}
	if cols == nil {
		return min(c, len(line))
	}
	if c >= len(cols) {
		return len(line)
	}
	return cols[c]
}

// runeAt returns the character at column c of line, or 0 past its end.
func runeAt(line []byte, cols []int, c int) rune {
	if c < 0 {
		return 0
	}
	i := byteAt(line, cols, c)
	if i >= len(line) {
		return 0
	}
	if line[i] < utf8.RuneSelf {
		return rune(line[i])
	}
	r, _ := utf8.DecodeRune(line[i:])
	return r
}

// cell returns column i's content on line (at byte offset off of the text), trimmed, with the
// characters in its left and right margins and in the separator before it.
func (l *psqlLayout) cell(i int, line []byte, cols []int, off int) (content span, left, right, sep rune) {
	a, b := l.seg[i].start, l.seg[i].end
	cs, ce := a, b
	rightAt := b
	if l.border > 0 {
		cs, ce = a+1, b-1
		rightAt = b - 1
		left = runeAt(line, cols, a)
	}
	if l.border == 2 || i > 0 {
		sep = runeAt(line, cols, a-1)
	}
	last := i == len(l.seg)-1
	ce = max(ce, cs) // a column one character wide has no room between its margins
	right = runeAt(line, cols, rightAt)
	s, e := byteAt(line, cols, cs), byteAt(line, cols, ce)
	st, en := trimSpace(line[s:e], off+s)
	if last && l.border < 2 && rightCont(right) == contNone {
		// Not padded: blanks after the text are the value's own (escape format) or an
		// editor's, and valueBytes tells which.
		st, _ = trimSpace(line[s:], off+s)
		en = off + len(line)
		if st > en {
			st = en
		}
	}
	return span{st, en}, left, right, sep
}

// cells returns the trimmed text of each column of line (at offset off of the text).
func (l *psqlLayout) cells(s *state, line []byte, cols []int, off int) [][]byte {
	out := make([][]byte, len(l.seg))
	for i := range l.seg {
		c, _, _, _ := l.cell(i, line, cols, off)
		out[i] = s.text[c.start:c.end]
	}
	return out
}

// shifted returns the layout of a header line that lost blanks at its start (a selection
// that began at its first visible character): its bars stand that many characters left of
// the rule's junctions, every one of them.
func (l *psqlLayout) shifted(header []byte) *psqlLayout {
	if l.border == 0 || len(l.seg) < 2 {
		return l
	}
	cols := runeCols(header, nil)
	bar := -1
	for c := 0; c < l.seg[1].start; c++ {
		if isVert(runeAt(header, cols, c)) {
			bar = c
			break
		}
	}
	d := l.seg[1].start - 1 - bar
	if bar < 0 || d <= 0 {
		return l
	}
	m := &psqlLayout{border: l.border, seg: make([]span, len(l.seg))}
	for i, sg := range l.seg {
		if i > 0 && !isVert(runeAt(header, cols, sg.start-1-d)) {
			return l
		}
		m.seg[i] = span{sg.start - d, sg.end - d}
	}
	return m
}

// rowLine reports whether line, between two rules, is a row rather than a header: its cells
// name no column pg_logical_slot_peek_binary_changes has, and one holds an lsn or a value.
func (s *state) rowLine(rule, line []byte, off int) bool {
	l, ok := parseRule(rule)
	if !ok {
		return false
	}
	cells := l.cells(s, line, runeCols(line, nil), off)
	for _, c := range cells {
		if isColumnName(c) || string(c) == "encode" {
			return false
		}
	}
	if c := headerlessColumns(cells); c.lsn >= 0 {
		return true
	}
	for _, c := range cells {
		if looksLikeValue(c) {
			return true
		}
	}
	return false
}

// lineEnd is what ends a value's line: nothing, a line break in the value, or a wrap.
const (
	contNone = iota
	contNewline
	contWrap
)

// rightCont reads the marker psql puts after a value's line that continues.
func rightCont(r rune) int {
	switch r {
	case '+', '↵':
		return contNewline
	case '.', '…':
		return contWrap
	}
	return contNone
}

// sniffPsqlAligned accepts text with a rule line among its first lines.
func sniffPsqlAligned(sm *sample) bool {
	off := 0
	for n := 0; n < 40 && off < len(sm.text); n++ {
		line, next := nextLine(sm.text, off)
		if isRuleLine(line) {
			return true
		}
		off = next
	}
	return false
}

// readPsqlAligned reads one or more aligned psql tables, wrapped or not, in any linestyle and
// border, with psql's prompts and messages around them.
func readPsqlAligned(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(1)
	tables := 0
	pending := -1 // a line that may be a title above the next table
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		if isBlank(line) || isPsqlChatter(line) {
			off = next
			continue
		}
		after, _ := nextLine(s.text, next)
		if !isRuleLine(line) && !isRuleLine(after) {
			if pending < 0 && next < len(s.text) {
				pending = off // \pset title: one line above the table
				off = next
				continue
			}
			if pending >= 0 {
				off = pending
			}
			return s.fail(off, "expected a psql table: a header line and a rule of '-' and '+'")
		}
		pending = -1
		var f *failure
		off, f = s.psqlTable(off)
		if f != nil {
			return f
		}
		tables++
	}
	if tables == 0 {
		return failf(0, "expected a psql table: a header line and a rule of '-' and '+'")
	}
	return nil
}

// psqlTable reads one aligned table starting at off and returns where the text after it starts.
func (s *state) psqlTable(off int) (int, *failure) {
	s.marks.context(off)
	line, next := nextLine(s.text, off)
	header, headerOff := line, off
	ruleOff := next
	if isRuleLine(line) {
		// Border 2's rule above the header, or a paste that starts at the rule under it.
		h, n2 := nextLine(s.text, next)
		if r2, _ := nextLine(s.text, n2); isRuleLine(r2) && !s.rowLine(r2, h, next) {
			header, headerOff, ruleOff = h, next, n2
		} else {
			header, ruleOff = nil, off
		}
	}
	rule, next := nextLine(s.text, ruleOff)
	l, ok := parseRule(rule)
	if !ok {
		return 0, s.fail(ruleOff, "expected the rule under the header, made of '-' and '+'")
	}
	colBuf := s.row.colBuf
	defer func() { s.row.colBuf = colBuf }()
	var cols psqlColumns
	if header == nil {
		// No header: the columns are told by the first row's look.
		first, at := firstContentLine(s.text, next)
		cols = headerlessColumns(l.cells(s, first, runeCols(first, colBuf), at))
		if cols.data < 0 {
			return 0, s.fail(at, "expected a row of lsn, xid and data under the rule (the paste has no header line)")
		}
		s.note(-1, "The paste starts at the rule under the header: the columns are told by the first row's values.")
	} else if cols, ok = findColumns(l.shifted(header).cells(s, header, runeCols(header, colBuf), headerOff)); !ok {
		return 0, failf(headerOff, "expected a column named data in the header")
	}
	if l.border == 0 && len(l.seg) == 1 && len(header) > 0 {
		// One column: border 1 also has no junction in its rule, but a margin of one blank.
		if r, _ := nextLine(s.text, next); len(r) > 0 && r[0] == ' ' {
			l.border = 1
		}
	}
	rows := 0
	var row *psqlRow
	prev := contNone // how the data cell's previous line ended
	finish := func() *failure {
		if row == nil {
			return nil
		}
		r := row
		row = nil
		return s.finishRow(r)
	}
	for off = next; off < len(s.text); off = next {
		line, next = nextLine(s.text, off)
		if isBlank(line) {
			break
		}
		if n, ok := psqlFooter(line); ok {
			if f := finish(); f != nil {
				return 0, f
			}
			if n != rows {
				s.footerNote(off, n, rows)
			}
			return next, nil
		}
		if isRuleLine(line) {
			continue // border 2: the bottom rule
		}
		lc := runeCols(line, colBuf)
		if lc != nil {
			colBuf = lc
		}
		data, left, right, sep := l.cell(cols.data, line, lc, off)
		blank := true
		for i := range l.seg {
			if i == cols.data {
				continue
			}
			if c, _, _, _ := l.cell(i, line, lc, off); c.end > c.start {
				blank = false
				break
			}
		}
		if l.border > 0 {
			// Every column after the first (and the first, in border 2) has its separator
			// where the rule has its junction; old-ascii blanks it on continuation lines.
			for i := range l.seg {
				if i == 0 && l.border < 2 {
					continue
				}
				p := l.seg[i].start - 1
				r := runeAt(line, lc, p)
				if !isVert(r) && r != ':' && r != ';' && !(r == ' ' && blank) {
					return 0, s.fail(off+byteAt(line, lc, p), "expected '|' below the rule's '+'")
				}
			}
		}
		leftCont := left == '.' || left == '…' || sep == ':' || sep == ';'
		if row != nil && blank && (len(l.seg) > 1 || prev != contNone || leftCont) {
			row.addData(data, prev == contNewline || sep == ':')
		} else {
			if f := finish(); f != nil {
				return 0, f
			}
			rows++
			row = s.newRow(off)
			row.display = true
			row.setData(data)
			if cols.lsn >= 0 {
				row.lsn, _, _, _ = l.cell(cols.lsn, line, lc, off)
				row.hasLSN = true
			}
			if cols.xid >= 0 {
				row.xid, _, _, _ = l.cell(cols.xid, line, lc, off)
				row.hasXid = true
			}
		}
		prev = rightCont(right)
	}
	if row != nil && off >= len(s.text) && len(s.text) > 0 && s.text[len(s.text)-1] != '\n' {
		if f := finish(); f != nil {
			return 0, f
		}
		s.note(len(s.msgs)-1, "The text ends in the middle of this row (line "+strconv.Itoa(s.lineAt(len(s.text)))+
			", no line end and no footer after it), so its value may be cut short.")
	}
	if f := finish(); f != nil {
		return 0, f
	}
	return off, nil
}
