package input

import (
	"bytes"
	"strconv"
)

// psql's unaligned output (-A) with any field separator (-F '|', '\t', ',', ';', -z for a zero
// byte), with or without the header (-t) and footer, and -A -x ("name|value" lines); rows cut
// from an aligned table without its header read the same way, blanks and borders around the
// fields dropped. COPY … TO STDOUT's text format and CSV (psql --csv, COPY … (FORMAT csv))
// have readers of their own below, for their escapes and quotes.

// isNameChar reports whether c may be part of a column name as people write them.
func isNameChar(c byte) bool { return isIdent(c) || c == '?' || c >= 0x80 }

// unalignedSeparator finds the field separator of a first line: after a header's first
// name, or after a row's first field (an lsn, an xid). It returns "" when the line has a
// single field.
func unalignedSeparator(line []byte) []byte {
	i := 0
	if i < len(line) && (line[i] == ' ' || line[i] == '|' || isVertStart(line[i:])) {
		// A row cut from a border-1 or border-2 table.
		for i < len(line) && (line[i] == ' ' || line[i] == '|') {
			i++
		}
		if isVertStart(line[i:]) {
			i += 3
		}
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	for i < len(line) && (isNameChar(line[i]) || line[i] == '/') {
		i++
	}
	j := i
	for j < len(line) && ((!isNameChar(line[j]) && line[j] != '\\' && line[j] != '/') || isVertStart(line[j:])) {
		if isVertStart(line[j:]) {
			j += len("│") - 1
		}
		j++
	}
	sep := line[i:j]
	if t := bytes.TrimSpace(sep); len(t) > 0 && !bytes.Equal(t, []byte{0}) {
		sep = t
	} else if len(sep) > 0 && (sep[0] == '\t' || sep[0] == 0) {
		sep = sep[:1]
	}
	return sep
}

// isName reports whether line is one column name (of a one-column result's header).
func isName(line []byte) bool {
	if len(line) == 0 || len(line) > 63 {
		return false
	}
	for _, c := range line {
		if !isNameChar(c) {
			return false
		}
	}
	return true
}

func isVertStart(b []byte) bool { return bytes.HasPrefix(b, []byte("│")) }

// sniffPsqlUnaligned accepts a first line "lsn|xid|data" (any separator), a row "X/X|…", or a
// record line "lsn|X/X".
func sniffPsqlUnaligned(sm *sample) bool {
	line, _ := firstContentLine(sm.text, 0)
	if len(line) == 0 {
		return false
	}
	sep := unalignedSeparator(line)
	if len(sep) == 0 || len(bytes.Trim(sep, " ")) == 0 {
		// One column: a name, then values ("\x…", or under the name data or encode, or
		// with a footer).
		if rawEscapeText(sm.text) {
			return true // encode(data, 'escape') in one column, without a header (-At)
		}
		second, _ := firstContentLine(sm.text, len(line)+1)
		if !isName(line) || looksLikeValue(line) {
			return false
		}
		return bytes.HasPrefix(second, []byte(`\x`)) || string(line) == "data" || string(line) == "encode" ||
			bytes.Contains(sm.text, []byte(" rows)\n")) || bytes.Contains(sm.text, []byte("(1 row)\n"))
	}
	f := splitFields(line, sep, -1)
	if len(f) < 2 {
		return false
	}
	first := bytes.TrimSpace(f[0])
	if isColumnName(first) || (len(f) > 1 && isColumnName(bytes.TrimSpace(f[1]))) ||
		bytes.HasPrefix(bytes.TrimSpace(f[len(f)-1]), []byte(`\x`)) {
		return true
	}
	s := &state{text: first}
	_, n, fl := s.lsn(first, 0)
	return fl == nil && n == len(first)
}

// splitFields splits line at sep into at most n fields (n < 0: all); the last holds the rest.
func splitFields(line, sep []byte, n int) [][]byte { return appendFields(nil, line, sep, n) }

// appendFields is splitFields into out's storage.
func appendFields(out [][]byte, line, sep []byte, n int) [][]byte {
	out = out[:0]
	for n < 0 || len(out) < n-1 {
		i := bytes.Index(line, sep)
		if i < 0 {
			break
		}
		out = append(out, line[:i])
		line = line[i+len(sep):]
	}
	return append(out, line)
}

// trimBorders drops the blanks and the '|' / '│' border around a row cut from an aligned
// table ("| 0/1 | 5 | \x42 |"), when the separator is such a bar and the table has borders
// (border2). Without them, a bar after the blanks separates blank cells: a continuation
// line of border 1 ("          |     | Y2Ua…").
func trimBorders(line []byte, off int, sep []byte, border2 bool) ([]byte, int) {
	a, b := trimSpace(line, 0)
	if a == b {
		return line[a:a], off + a
	}
	l := line[a:]
	if border2 && (string(sep) == "|" || string(sep) == "│") && bytes.HasPrefix(l, sep) {
		// Border 2: a bar at both ends. Blanks at the end of other lines stay: in -A output
		// they may be the value's own.
		l, a = l[len(sep):b-a], a+len(sep)
		if bytes.HasSuffix(l, sep) {
			l = l[:len(l)-len(sep)]
		}
	}
	return l, off + a
}

// readPsqlUnaligned reads psql -A output and rows cut from aligned tables.
func readPsqlUnaligned(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(1)
	first, off := firstContentLine(s.text, 0)
	if first == nil {
		return failf(0, "expected psql rows")
	}
	sep := unalignedSeparator(first)
	if len(sep) == 0 {
		sep = []byte{'|'}
	}
	// Border 2 puts a bar before a row's first cell; border 1 and psql -A put none there.
	border2 := bytes.HasPrefix(bytes.TrimLeft(first, " "), sep)
	fl, _ := trimBorders(first, off, sep, border2)
	fields := splitFields(fl, sep, -1)
	for i, f := range fields {
		a, b := trimSpace(f, 0)
		fields[i] = f[a:b]
	}
	// Rows cut from an aligned table have blanks around the separator, and may carry its
	// continuation markers; psql -A's rows have neither, and a '.' or '+' at their end is
	// the value's own.
	aligned := bytes.Contains(first, append(append([]byte{' '}, sep...), ' ')) || (len(first) > 0 && first[0] == ' ')
	if len(fields) == 2 && isColumnName(fields[0]) && !isColumnName(fields[1]) {
		if aligned {
			s.named = PsqlExpanded // a record's field lines without its heading
		}
		return s.readUnalignedExpanded(off, sep)
	}
	var cols psqlColumns
	ncols := len(fields)
	header := false
	if isColumnName(fields[0]) || (len(fields) > 1 && isColumnName(fields[1])) || (len(fields) == 1 && !looksLikeValue(fields[0])) {
		var ok bool
		if cols, ok = findColumns(fields); !ok {
			return failf(off, "expected a column named data in the header")
		}
		header = true
		_, off = nextLine(s.text, off)
	} else {
		if aligned {
			s.named = PsqlAligned // psql -t, or rows selected from a table
		}
		cols = headerlessColumns(fields)
		if cols.data < 0 {
			return failf(off, "expected rows lsn"+string(sep)+"xid"+string(sep)+"data, or a header line naming the columns")
		}
	}
	// A carriage return before a line end is the value's own (encode(data, 'escape') leaves
	// it raw) unless the text's lines end in CRLF.
	ownCR := !aligned && cols.data == ncols-1 && !crlfText(s.text)
	if ncols == 1 && !aligned && rawEscapeText(s.text[off:]) {
		return s.readEscapeRows(off)
	}
	rows := 0
	var row *psqlRow
	var fs [][]byte
	firstRow := true
	cont := contNone // how the previous line's data ended: a marker of an aligned table
	for next := off; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		if isBlank(line) && row != nil && !aligned && s.escapeRow(row) {
			// A blank line inside a row of psql -A: encode(…, 'escape') leaves a newline byte
			// as it is, so a value ending in one, or in one and blanks, has such a line.
			row.addData(span{off, off + len(line)}, true)
			row.raw = true
			continue
		}
		if isBlank(line) || isPsqlChatter(line) || (header && bytes.Equal(line, first)) {
			continue // the header line again: the next query's result
		}
		if n, ok := psqlFooter(line); ok {
			if row != nil {
				if f := s.finishRow(row); f != nil {
					return f
				}
				row = nil
			}
			if n != rows {
				s.footerNote(off, n, rows)
			}
			rows = 0
			continue
		}
		l, loff := trimBorders(line, off, sep, border2)
		fs = appendFields(fs, l, sep, ncols)
		blankOthers := len(fs) == ncols
		for i, f := range fs {
			if i != cols.data && len(bytes.TrimSpace(f)) > 0 {
				blankOthers = false
			}
		}
		cutRow := aligned && blankOthers && ncols > 1
		if row != nil && (cutRow || (ncols == 1 && (cont != contNone || !aligned && s.base64Full(row))) || !s.rowStart(fs, cols, ncols, sep)) {
			// A line of the previous row's value: a line break in it (encode()'s base64, an
			// escape-format value with a newline byte), or an aligned table's continuation.
			var c span
			nl := cont != contWrap
			if cutRow {
				c = s.trimMarkers(fieldSpan(l, loff, sep, cols.data, ncols), true)
				last := &row.data[len(row.data)-1]
				if cont == contNone && last.end > last.start && s.text[last.end-1] == '+' {
					last.end-- // the aligned table's line break marker
				}
			} else {
				c = span{off, off + len(line)} // the raw text: a line break inside the value
				if ownCR {
					c.end = crEnd(s.text, c.end)
				}
				row.raw = true
				if ncols == 1 {
					c = s.trimMarkers(span{loff, loff + len(l)}, true)
				}
			}
			row.addData(c, nl)
			if aligned {
				cont = s.endMarker(&row.data[len(row.data)-1].span, ncols)
			}
			continue
		}
		if row != nil {
			if f := s.finishRow(row); f != nil {
				return f
			}
		}
		rows++
		row = s.newRow(off)
		for i := 0; i < ncols && i < len(fs); i++ {
			c := fieldSpan(l, loff, sep, i, ncols)
			switch i {
			case cols.lsn:
				row.lsn, row.hasLSN = c, true
			case cols.xid:
				row.xid, row.hasXid = c, true
			case cols.data:
				if ownCR && i == ncols-1 {
					c.end = crEnd(s.text, c.end)
				}
				row.setData(c)
			}
		}
		if firstRow && !header && row.hasLSN {
			// A paste that starts in the middle of the first row's lsn cell.
			lc := s.text[row.lsn.start:row.lsn.end]
			if _, n, f := s.lsn(lc, row.lsn.start); f != nil || n != len(lc) {
				row.hasLSN = false
				s.note(-1, "The first row's lsn cell (line "+strconv.Itoa(s.lineAt(off))+") is cut: \""+string(lc)+"\"; its message has no LSN.")
			}
		}
		if firstRow && !header && row.hasXid && row.xid.start == row.xid.end {
			row.hasXid = false
		}
		firstRow = false
		if len(row.data) == 0 {
			return s.fail(off+len(line), "expected "+strconv.Itoa(ncols)+" fields separated by "+strconv.QuoteRune(rune(sep[0])))
		}
		if aligned {
			cont = s.endMarker(&row.data[0].span, ncols)
		}
	}
	if row != nil {
		return s.finishRow(row)
	}
	return nil
}

// rawEscapeText reports whether text is values of encode(data, 'escape'), which writes only
// zero bytes, backslashes and bytes from 0x80 as escapes and leaves every other byte as it is,
// newlines among them: the text has such escapes ("\000", "\\", "\200" to "\377") and none
// of a control byte, which bytea_output = 'escape' writes ("\001" to "\037", "\177"), and no
// zero byte.
func rawEscapeText(text []byte) bool {
	if len(text) > sniffWindow {
		text = text[:sniffWindow]
	}
	if bytes.IndexByte(text, 0) >= 0 || bytes.HasPrefix(text, []byte(`\x`)) {
		return false
	}
	seen := false
	for i := bytes.IndexByte(text, '\\'); i >= 0 && i+1 < len(text); {
		c := text[i+1]
		switch {
		case c == '\\':
			seen = true
			i += 2
		case i+3 < len(text) && isOctal(c) && isOctal(text[i+2]) && isOctal(text[i+3]):
			if v := (c-'0')*64 + (text[i+2]-'0')*8 + text[i+3] - '0'; v != 0 && v < 0x80 {
				return false
			}
			seen = true
			i += 4
		default:
			return false
		}
		j := bytes.IndexByte(text[i:], '\\')
		if j < 0 {
			break
		}
		i += j
	}
	return seen
}

// readEscapeRows reads psql -A or -At output of encode(data, 'escape') in one column from
// off, after any header: the values' newline bytes are raw, so a row ends at the first line
// break where a message that decodes ends, as in a pg_recvlogical -f file (splitRecvLogical).
func (s *state) readEscapeRows(off int) *failure {
	end := len(s.text)
	for end > off {
		a := bytes.LastIndexByte(s.text[off:end-1], '\n') + 1 + off
		if !isBlank(s.text[a:end]) {
			if n, ok := psqlFooter(bytes.TrimRight(s.text[a:end], "\r\n")); ok {
				defer func() {
					if n != len(s.msgs) {
						s.footerNote(a, n, len(s.msgs))
					}
				}()
				end = a
			}
			break
		}
		end = a
	}
	// Each line's bytes, and where they start in the bytes and in the text.
	start := len(s.buf)
	var lines []dumpRowRef
	for o := off; o < end; {
		lineEnd, next := end, end
		if i := bytes.IndexByte(s.text[o:end], '\n'); i >= 0 {
			lineEnd, next = o+i, o+i+1
		}
		lines = append(lines, dumpRowRef{out: len(s.buf) - start, text: o})
		if f := s.escapeValue(s.text[o:lineEnd], o); f != nil {
			return f
		}
		s.buf = append(s.buf, '\n')
		o = next
	}
	b := append([]byte(nil), s.buf[start:]...)
	s.buf = s.buf[:start]
	cuts, bad := splitRecvLogical(b)
	if bad >= 0 {
		cuts = append(cuts, cut{bad, len(b) - 1})
	}
	l := 0
	for _, c := range cuts {
		for l+1 < len(lines) && lines[l+1].out <= c.start {
			l++
		}
		s.begin(lines[l].text)
		s.buf = append(s.buf, b[c.start:c.end]...)
	}
	if bad >= 0 {
		s.note(len(s.msgs)-1, "No line break after this row ends a message that decodes: the rest of the text is this one message.")
	}
	s.note(-1, "Read as encode(data, 'escape') values one a row: newline bytes in them are left as they are, so a row ends at the first line break where its message decodes whole.")
	return nil
}

// crlfText reports whether the text's lines end in CRLF (the first eight of them): a text
// pasted with Windows line ends, whose carriage returns are not part of any value.
func crlfText(text []byte) bool {
	off, n := 0, 0
	for ; n < 8; n++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		if i == 0 || text[off+i-1] != '\r' {
			return false
		}
		off += i + 1
	}
	return n > 0
}

// crEnd extends a value that ends at a line's end over the carriage return nextLine dropped.
func crEnd(text []byte, end int) int {
	if end+1 < len(text) && text[end] == '\r' && text[end+1] == '\n' {
		return end + 1
	}
	return end
}

// base64Full reports whether a one-column row's value so far is encode(data, 'base64') whose
// last line is full (76 characters): the value goes on on the next line.
func (s *state) base64Full(r *psqlRow) bool {
	last := r.data[len(r.data)-1]
	if last.end-last.start != 76 {
		return false
	}
	for _, c := range s.text[last.start:last.end] {
		if b64Std[c] == 0 {
			return false
		}
	}
	return true
}

// escapeRow reports whether a row's value is in bytea's escape format so far.
func (s *state) escapeRow(r *psqlRow) bool {
	if len(r.data) == 0 {
		return false
	}
	v := s.text[r.data[0].start:r.data[0].end]
	return bytes.IndexByte(v, '\\') >= 0 && !bytes.HasPrefix(v, []byte(`\x`))
}

// rowStart reports whether fields start a row: as many as the columns, an lsn and an xid
// where the table has them.
func (s *state) rowStart(fs [][]byte, cols psqlColumns, ncols int, sep []byte) bool {
	if len(fs) < ncols {
		return false
	}
	if cols.lsn >= 0 {
		f := bytes.TrimSpace(fs[cols.lsn])
		if _, n, fl := s.lsn(f, 0); fl != nil || n != len(f) {
			return false
		}
	}
	if cols.xid >= 0 && !isDigits(bytes.TrimSpace(fs[cols.xid])) {
		return false
	}
	return true
}

// looksLikeValue reports whether a lone field is a value rather than a column name.
func looksLikeValue(f []byte) bool {
	if bytes.HasPrefix(f, []byte(`\x`)) || len(f) > 63 || bytes.IndexByte(f, '\\') >= 0 {
		return true // no column name holds a backslash: an escape-format value
	}
	for _, c := range f {
		if hexVal(c) > 15 {
			return false
		}
	}
	return len(f) >= 12
}

// headerlessColumns names the fields of a row without a header by their look: an lsn, an xid,
// and the value.
func headerlessColumns(fields [][]byte) psqlColumns {
	if len(fields) == 3 && looksLikeValue(fields[2]) {
		return psqlColumns{0, 1, 2} // the columns of pg_logical_slot_peek_binary_changes
	}
	c := psqlColumns{-1, -1, -1}
	for i, f := range fields {
		switch {
		case c.lsn < 0 && bytes.IndexByte(f, '/') > 0 && len(f) <= 17 && !bytes.HasPrefix(f, []byte(`\x`)):
			c.lsn = i
		case c.xid < 0 && len(f) > 0 && len(f) <= 10 && isDigits(f):
			c.xid = i
		case c.data < 0 && len(f) > 0:
			c.data = i
		}
	}
	if c.data < 0 && c.lsn < 0 && c.xid < 0 && len(fields) == 3 {
		return psqlColumns{0, 1, 2}
	}
	return c
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// fieldSpan returns field i of line (at offset off), trimmed, the last field holding the rest.
func fieldSpan(line []byte, off int, sep []byte, i, n int) span {
	start := 0
	for k := 0; k < i; k++ {
		j := bytes.Index(line[start:], sep)
		if j < 0 {
			return span{off + len(line), off + len(line)}
		}
		start += j + len(sep)
	}
	end := len(line)
	if i < n-1 {
		if j := bytes.Index(line[start:], sep); j >= 0 {
			end = start + j
		}
	}
	a, b := trimSpace(line[start:end], off+start)
	if i == n-1 {
		// The last field runs to the end of the line: a blank there may be the value's own
		// (see valueBytes).
		b = off + end
	}
	return span{a, b}
}

// trimMarkers drops a wrapped continuation's left marker ('.' or '…') from a piece cut from an
// aligned table.
func (s *state) trimMarkers(c span, left bool) span {
	t := s.text[c.start:c.end]
	if left && len(t) > 0 && t[0] == '.' {
		c.start++
	} else if left && bytes.HasPrefix(t, []byte("…")) {
		c.start += len("…")
	}
	return c
}

// endMarker drops an aligned table's continuation marker from the end of a piece and says
// what it was. Only rows cut from aligned tables have them: '.', '…', '↵' always are markers
// (no value ends in them); a '+' only when the piece is in a table of several columns, where
// the next line shows whether it continues (see readPsqlUnaligned).
func (s *state) endMarker(c *span, ncols int) int {
	t := s.text[c.start:c.end]
	switch {
	case bytes.HasSuffix(t, []byte("↵")):
		c.end -= len("↵")
		return contNewline
	case bytes.HasSuffix(t, []byte("…")):
		c.end -= len("…")
		return contWrap
	case len(t) > 0 && t[len(t)-1] == '.':
		c.end--
		return contWrap
	}
	return contNone
}

// readUnalignedExpanded reads psql -A -x output ("name|value" lines, records apart by blank
// lines), or field lines of an expanded record pasted without the record's heading.
func (s *state) readUnalignedExpanded(off int, sep []byte) *failure {
	var row *psqlRow
	var field []byte
	var dataName, firstName []byte
	// blanks counts blank lines inside an encode(data, 'escape') value, whose newline bytes
	// are raw: all but the last before the next record are the value's.
	blanks := 0
	finish := func() *failure {
		if row == nil {
			return nil
		}
		for ; blanks > 0; blanks-- {
			row.addData(span{off, off}, true)
		}
		r := row
		row = nil
		if len(r.data) == 0 {
			return failf(r.at, "the record has no data field")
		}
		return s.finishRow(r)
	}
	for next := off; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		inValue := row != nil && len(row.data) > 0 && bytes.Equal(field, dataName) && s.escapeRow(row)
		if isBlank(line) && inValue && len(line) == 0 {
			blanks++
			continue
		}
		if inValue {
			bar := bytes.Index(line, sep)
			if blanks == 0 || bar < 0 || !bytes.Equal(bytes.TrimSpace(line[:bar]), firstName) {
				// A line of the value: after a newline byte, whatever it holds.
				for ; blanks > 0; blanks-- {
					row.addData(span{off, off}, true)
				}
				row.addData(span{off, off + len(line)}, true)
				row.raw = true
				continue
			}
			blanks-- // the blank line between records
		}
		if isBlank(line) {
			if f := finish(); f != nil {
				return f
			}
			continue
		}
		if isPsqlChatter(line) {
			continue
		}
		if _, ok := psqlFooter(line); ok && row == nil {
			continue
		}
		bar := bytes.Index(line, sep)
		if bar < 0 {
			if row == nil || !bytes.Equal(field, dataName) {
				return s.fail(off+len(line), "expected \"name"+string(sep)+"value\"")
			}
			row.addData(span{off, off + len(line)}, true)
			continue
		}
		name := bytes.TrimSpace(line[:bar])
		c := span{off + bar + len(sep), off + len(line)}
		a, b := trimSpace(s.text[c.start:c.end], c.start)
		c = span{a, b}
		if row == nil || (row.hasLSN && string(name) == "lsn") || (row.hasXid && string(name) == "xid") ||
			(len(row.data) > 0 && bytes.Equal(name, dataName)) {
			// psql --csv -x writes no blank line between records: a name seen again starts one.
			if f := finish(); f != nil {
				return f
			}
			row = s.newRow(off)
			if firstName == nil {
				firstName = name
			}
		}
		field = name
		switch string(name) {
		case "lsn":
			row.lsn, row.hasLSN = c, true
		case "xid":
			row.xid, row.hasXid = c, true
		default:
			if dataName == nil && (string(name) == "data" || !isKnownExtra(name)) {
				dataName = name
			}
			if bytes.Equal(name, dataName) {
				c.end = off + len(line) // psql -A pads nothing: a blank at the end is the value's
				row.setData(c)
			}
		}
	}
	return finish()
}
