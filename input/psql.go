package input

import (
	"bytes"
	"strconv"
)

// span is a piece of the text, [start, end) in byte offsets.
type span struct{ start, end int }

// psqlRow is a result row being read: where it starts, its lsn and xid cells when the table has
// those columns, and the pieces of its data value (one per line it spans).
type psqlRow struct {
	at             int
	lsn, xid       span
	hasLSN, hasXid bool
	data           []span
}

// newRow returns the state's one row, emptied: readers finish a row before they start the
// next, so one will do and rows cost no allocation.
func (s *state) newRow(at int) *psqlRow {
	s.row = psqlRow{at: at, data: s.row.data[:0]}
	return &s.row
}

// psqlColumns says which columns hold lsn, xid and data (-1: none).
type psqlColumns struct{ lsn, xid, data int }

// findColumns finds the lsn, xid and data columns by name. A table with a single column holds
// data whatever its name. It returns the index of the first name it cannot use, or -1.
func findColumns(names [][]byte) (psqlColumns, bool) {
	c := psqlColumns{-1, -1, -1}
	for i, n := range names {
		switch string(n) {
		case "lsn":
			c.lsn = i
		case "xid":
			c.xid = i
		case "data":
			c.data = i
		}
	}
	if c.data < 0 && len(names) == 1 {
		c.data = 0
	}
	return c, c.data >= 0
}

// finishRow turns a row into a message.
func (s *state) finishRow(r *psqlRow) *failure {
	m := s.begin(r.at)
	if r.hasLSN {
		c := s.text[r.lsn.start:r.lsn.end]
		v, n, f := s.lsn(c, r.lsn.start)
		if f != nil {
			return f
		}
		if n != len(c) {
			return s.fail(r.lsn.start+n, "expected the end of the lsn")
		}
		m = &s.msgs[len(s.msgs)-1]
		m.LSN, m.HasLSN = v, true
	}
	if r.hasXid {
		v, f := s.xid(r.xid)
		if f != nil {
			return f
		}
		m.Xid, m.HasXid = v, true
	}
	return s.cellValue(r.data, r.at)
}

// xid reads a transaction id: a decimal number below 2^32.
func (s *state) xid(c span) (uint32, *failure) {
	if c.start == c.end {
		return 0, s.fail(c.start, "expected the xid")
	}
	var v uint64
	for i := c.start; i < c.end; i++ {
		d := s.text[i] - '0'
		if d > 9 {
			return 0, s.fail(i, "expected a decimal digit in the xid")
		}
		v = v*10 + uint64(d)
		if v > 1<<32-1 {
			return 0, failf(c.start, "the xid does not fit in 32 bits")
		}
	}
	return uint32(v), nil
}

// cellValue appends the bytes of a data value written over one or more pieces of the text.
func (s *state) cellValue(pieces []span, at int) *failure {
	n := 0
	for _, p := range pieces {
		n += p.end - p.start
	}
	if n == 0 {
		if len(pieces) > 0 {
			at = pieces[0].start
		}
		return failf(at, "expected the data value, found an empty cell")
	}
	if len(pieces) == 1 {
		return s.valueBytes(s.text[pieces[0].start:pieces[0].end], pieces[0].start)
	}
	scratch := make([]byte, 0, n)
	for _, p := range pieces {
		scratch = append(scratch, s.text[p.start:p.end]...)
	}
	sub := &state{text: scratch, buf: s.buf, endName: "the end of the value"}
	f := sub.valueBytes(scratch, 0)
	s.buf = sub.buf
	if f != nil {
		f.off = pieceOffset(pieces, f.off)
	}
	return f
}

// pieceOffset maps an offset in the joined pieces back to the text.
func pieceOffset(pieces []span, off int) int {
	for _, p := range pieces {
		if off < p.end-p.start {
			return p.start + off
		}
		off -= p.end - p.start
	}
	return pieces[len(pieces)-1].end
}

// valueBytes reads a bytea value as psql shows it ("\x" then hex), or the text of
// encode(data, 'hex') or encode(data, 'base64') (its line breaks already removed).
func (s *state) valueBytes(v []byte, off int) *failure {
	if len(v) >= 2 && v[0] == '\\' && v[1] == 'x' {
		return s.hexDigits(v[2:], off+2)
	}
	hex := true
	for _, c := range v {
		if hexVal(c) > 15 {
			hex = false
			break
		}
	}
	if hex {
		return s.hexDigits(v, off)
	}
	return s.base64Run(v, off, &b64Std, "base64")
}

// psqlFooter reads psql's "(N rows)" / "(1 row)" footer.
func psqlFooter(line []byte) (int, bool) {
	start, end := trimSpace(line, 0)
	l := line[start:end]
	if len(l) < 7 || l[0] != '(' || l[len(l)-1] != ')' {
		return 0, false
	}
	l = l[1 : len(l)-1]
	sp := bytes.IndexByte(l, ' ')
	if sp < 1 {
		return 0, false
	}
	n, ok := Atoi(string(l[:sp]))
	if !ok || n < 0 {
		return 0, false
	}
	word := string(l[sp+1:])
	if (n == 1 && word != "row") || (n != 1 && word != "rows") {
		return 0, false
	}
	return n, true
}

// psqlChatter is what psql prints around a result that is not part of it: its answers to
// \pset and \x, and timing.
var psqlChatter = [...]string{"Output format is ", "Border style is ", "Target width is ",
	"Expanded display is ", "Pager usage is ", "Timing is ", "Time: ", "Null display is "}

// isPsqlChatter reports whether line is a psql prompt with its command ("postgres=# SELECT …")
// or one of psql's messages around a result; readers skip such lines.
func isPsqlChatter(line []byte) bool {
	if len(line) > 256 {
		line = line[:256] // prompts and messages are short; long lines are data
	}
	start, end := trimSpace(line, 0)
	l := line[start:end]
	for _, p := range psqlChatter {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	i := 0
	for i < len(l) && (l[i] == '_' || l[i] == '-' || l[i] == '.' || isAlnum(l[i])) {
		i++
	}
	if i == 0 || i+1 >= len(l) {
		return false
	}
	// The prompt ends with '=', '-', '(', '\'', '"' or '*' (%R) and '#' or '>' (%#).
	if i > 0 && (l[i-1] == '-') && (l[i] == '#' || l[i] == '>') {
		return i+1 == len(l) || l[i+1] == ' '
	}
	switch l[i] {
	case '=', '(', '\'', '"', '*':
	default:
		return false
	}
	return (l[i+1] == '#' || l[i+1] == '>') && (i+2 == len(l) || l[i+2] == ' ')
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isRule reports whether line is an aligned table's rule: only '-' and '+', at least one '-'.
func isRule(line []byte) bool {
	dash := false
	for _, c := range line {
		switch c {
		case '-':
			dash = true
		case '+':
		default:
			return false
		}
	}
	return dash
}

// sniffPsqlAligned accepts text with a rule line among its first lines.
func sniffPsqlAligned(sm *sample) bool {
	off := 0
	for n := 0; n < 12 && off < len(sm.text); n++ {
		line, next := nextLine(sm.text, off)
		if isRule(line) {
			return true
		}
		off = next
	}
	return false
}

// readPsqlAligned reads one or more aligned psql tables (border 1, psql's default, or 2),
// wrapped or not, with psql's prompts and messages around them.
func readPsqlAligned(s *state) *failure {
	s.grow(len(s.text) / 2)
	tables := 0
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		if isBlank(line) || isPsqlChatter(line) {
			off = next
			continue
		}
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

// psqlLayout is an aligned table's geometry, taken from its rule: where the '|' separators
// stand and where each column's cell (with its one-character margins) starts and ends.
type psqlLayout struct {
	seps    []int
	cells   []span // end -1: the last cell runs to the end of the line
	border2 bool
}

func newPsqlLayout(rule []byte) psqlLayout {
	var l psqlLayout
	l.border2 = rule[0] == '+'
	prev := -1
	for i, c := range rule {
		if c != '+' {
			continue
		}
		l.seps = append(l.seps, i)
		if i > 0 {
			l.cells = append(l.cells, span{prev + 1, i})
		}
		prev = i
	}
	if !l.border2 {
		l.cells = append(l.cells, span{prev + 1, -1})
	}
	return l
}

// checkSeps fails unless line, at byte offset off, has '|' where the rule has '+'.
func (s *state) checkSeps(l *psqlLayout, line []byte, off int) *failure {
	for _, p := range l.seps {
		if p >= len(line) || line[p] != '|' {
			return s.fail(off+p, "expected '|' below the rule's '+'")
		}
	}
	return nil
}

// cell returns column i's content on line (at offset off), trimmed, and the continuation
// marker in its right margin: '+' (the value has a line break), '.' (psql wrapped it) or 0.
// For the last column of a border-1 table the marker is the line's last character and only
// tentative: a value may itself end in '+'.
func (l *psqlLayout) cell(i int, line []byte, off int) (content span, marker byte) {
	c := l.cells[i]
	start := c.start + 1
	if start > len(line) {
		return span{off + len(line), off + len(line)}, 0
	}
	if c.end < 0 {
		a, b := trimSpace(line[start:], off+start)
		if b > a && (line[b-1-off] == '+' || line[b-1-off] == '.') {
			marker = line[b-1-off]
			a, b = trimSpace(line[a-off:b-1-off], a)
		}
		return span{a, b}, marker
	}
	end := c.end - 1
	if end > len(line) {
		end = len(line)
	}
	if end < start {
		end = start
	}
	if c.end-1 < len(line) && (line[c.end-1] == '+' || line[c.end-1] == '.') {
		marker = line[c.end-1]
	}
	a, b := trimSpace(line[start:end], off+start)
	return span{a, b}, marker
}

// psqlTable reads one aligned table starting at off and returns where the text after it starts.
func (s *state) psqlTable(off int) (int, *failure) {
	line, next := nextLine(s.text, off)
	header, headerOff := line, off
	if isRule(line) && line[0] == '+' {
		header, headerOff = nil, next
		header, next = nextLine(s.text, next)
	}
	ruleOff := next
	rule, next := nextLine(s.text, ruleOff)
	for i, c := range rule {
		if c != '-' && c != '+' {
			return 0, s.fail(ruleOff+i, "expected the rule under the header, made of '-' and '+'")
		}
	}
	if !isRule(rule) {
		return 0, s.fail(ruleOff, "expected the rule under the header, made of '-' and '+'")
	}
	l := newPsqlLayout(rule)
	if l.border2 && (len(l.cells) == 0 || rule[len(rule)-1] != '+') {
		return 0, failf(ruleOff+len(rule), "a border-2 rule ends with '+'")
	}
	if f := s.checkSeps(&l, header, headerOff); f != nil {
		return 0, f
	}
	names := make([][]byte, len(l.cells))
	for i := range l.cells {
		c, _ := l.cell(i, header, headerOff)
		names[i] = s.text[c.start:c.end]
	}
	cols, ok := findColumns(names)
	if !ok {
		return 0, failf(headerOff, "expected a column named data in the header")
	}
	lastData := !l.border2 && cols.data == len(l.cells)-1
	rows := 0
	var row *psqlRow
	var cont byte   // the data cell's marker on the previous line
	markerEnd := -1 // where the previous line's tentative '+' marker stood
	finish := func() *failure {
		if row == nil {
			return nil
		}
		r := row
		row = nil
		return s.finishRow(r)
	}
	// endValue ends the last row's value where the table ends at off: a '.' or a certain '+'
	// promised a continuation line; a tentative '+' was the value's own last character.
	endValue := func(off int) *failure {
		if cont == '.' || (cont == '+' && markerEnd < 0) {
			return failf(off, "the value's continuation marker ('"+string(cont)+"') is not followed by a continuation line")
		}
		if cont == '+' {
			row.data[len(row.data)-1].end = markerEnd
		}
		cont = 0
		return nil
	}
	for off = next; off < len(s.text); off = next {
		line, next = nextLine(s.text, off)
		if isBlank(line) {
			break
		}
		if n, ok := psqlFooter(line); ok {
			if f := endValue(off); f != nil {
				return 0, f
			}
			if f := finish(); f != nil {
				return 0, f
			}
			if n != rows {
				return 0, failf(off, "the footer says "+strconv.Itoa(n)+" rows but the table has "+strconv.Itoa(rows))
			}
			return next, nil
		}
		if l.border2 && isRule(line) {
			continue
		}
		if f := s.checkSeps(&l, line, off); f != nil {
			if cont == '.' {
				return 0, failf(off, "the wrapped value ('.') continues on no further line")
			}
			return 0, f
		}
		data, marker := l.cell(cols.data, line, off)
		continues := cont != 0
		if continues && len(l.cells) > 1 {
			for i := range l.cells {
				if i == cols.data {
					continue
				}
				if c, _ := l.cell(i, line, off); c.end > c.start {
					continues = false
				}
			}
		}
		if cont != 0 && !continues {
			if cont == '.' || markerEnd < 0 {
				return 0, failf(off, "the value's continuation marker ('"+string(cont)+"') is not followed by a continuation line")
			}
			// The '+' ended the value itself.
			row.data[len(row.data)-1].end = markerEnd
		}
		if continues {
			row.data = append(row.data, data)
		} else {
			if f := finish(); f != nil {
				return 0, f
			}
			rows++
			row = s.newRow(off)
			row.data = append(row.data, data)
			if cols.lsn >= 0 {
				row.lsn, _ = l.cell(cols.lsn, line, off)
				row.hasLSN = true
			}
			if cols.xid >= 0 {
				row.xid, _ = l.cell(cols.xid, line, off)
				row.hasXid = true
			}
		}
		cont, markerEnd = marker, -1
		if marker == '+' && lastData {
			markerEnd = bytes.LastIndexByte(line, '+') + off + 1
		}
	}
	if f := endValue(off); f != nil {
		return 0, f
	}
	if f := finish(); f != nil {
		return 0, f
	}
	return off, nil
}

// sniffPsqlExpanded accepts text whose first line opens an expanded record.
func sniffPsqlExpanded(sm *sample) bool {
	off := 0
	for n := 0; n < 12 && off < len(sm.text); n++ {
		line, next := nextLine(sm.text, off)
		if bytes.HasPrefix(line, []byte("-[ RECORD ")) {
			return true
		}
		off = next
	}
	return false
}

// recordNumber reads "-[ RECORD N ]---…" and returns N, or -1.
func recordNumber(line []byte) int {
	const open = "-[ RECORD "
	if !bytes.HasPrefix(line, []byte(open)) {
		return -1
	}
	rest := line[len(open):]
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

// readPsqlExpanded reads psql's expanded display: "-[ RECORD N ]" then "name | value" lines,
// values continued on lines with an empty name after a '+' or '.' marker.
func readPsqlExpanded(s *state) *failure {
	s.grow(len(s.text) / 2)
	want := 1
	var row *psqlRow
	var field []byte // the name of the field the previous line belongs to
	var cont byte
	markerEnd := -1
	// restore gives back the '+' a value ended with when no continuation line followed it.
	restore := func() {
		switch string(field) {
		case "lsn":
			row.lsn.end = markerEnd
		case "xid":
			row.xid.end = markerEnd
		case "data":
			row.data[len(row.data)-1].end = markerEnd
		}
	}
	finish := func(at int) *failure {
		if cont == '.' || (cont == '+' && markerEnd < 0) {
			return failf(at, "the value's continuation marker ('"+string(cont)+"') is not followed by a continuation line")
		}
		if cont == '+' {
			restore()
		}
		cont = 0
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
	for next := 0; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		if isBlank(line) || isPsqlChatter(line) {
			continue
		}
		if n, ok := psqlFooter(line); ok {
			if f := finish(off); f != nil {
				return f
			}
			if n != want-1 {
				return failf(off, "the footer says "+strconv.Itoa(n)+" rows but there are "+strconv.Itoa(want-1)+" records")
			}
			continue
		}
		if n := recordNumber(line); n >= 0 {
			if f := finish(off); f != nil {
				return f
			}
			if n != want {
				return failf(off+len("-[ RECORD "), "expected record "+strconv.Itoa(want)+", found record "+strconv.Itoa(n))
			}
			want++
			row = s.newRow(off)
			continue
		}
		if row == nil {
			return s.fail(off, "expected \"-[ RECORD 1 ]\"")
		}
		bar := bytes.IndexByte(line, '|')
		if bar < 0 {
			return s.fail(off+len(line), "expected \"name | value\"")
		}
		ns, ne := trimSpace(line[:bar], off)
		a, b := trimSpace(line[bar+1:], off+bar+1)
		if b > a && bar+1 < len(line) && line[bar+1] == '.' {
			a++ // a wrapped continuation's left margin
		}
		marker := byte(0)
		if b > a && (s.text[b-1] == '+' || s.text[b-1] == '.') {
			marker = s.text[b-1]
			a, b = trimSpace(s.text[a:b-1], a)
		}
		if ns == ne {
			if cont == 0 {
				return s.fail(off, "expected a field name: the previous value has no continuation marker")
			}
			if string(field) == "data" {
				row.data = append(row.data, span{a, b})
			}
		} else {
			if cont != 0 {
				if cont == '.' {
					return failf(off, "the value's continuation marker ('.') is not followed by a continuation line")
				}
				restore()
			}
			field = s.text[ns:ne]
			switch string(field) {
			case "lsn":
				row.lsn, row.hasLSN = span{a, b}, true
			case "xid":
				row.xid, row.hasXid = span{a, b}, true
			case "data":
				row.data = append(row.data[:0], span{a, b})
			}
		}
		cont, markerEnd = marker, -1
		if marker == '+' {
			markerEnd = b + 1
			for markerEnd <= len(s.text) && s.text[markerEnd-1] != '+' {
				markerEnd++
			}
		}
	}
	if f := finish(off); f != nil {
		return f
	}
	if want == 1 {
		return failf(0, "expected \"-[ RECORD 1 ]\"")
	}
	return nil
}

// isColumnName reports whether b names a column of pg_logical_slot_peek_binary_changes.
func isColumnName(b []byte) bool {
	switch string(b) {
	case "lsn", "xid", "data":
		return true
	}
	return false
}

// firstContentLine returns the first line of text that is neither blank nor psql chatter.
func firstContentLine(text []byte) (line []byte, off int) {
	for off < len(text) {
		l, next := nextLine(text, off)
		if !isBlank(l) && !isPsqlChatter(l) {
			return l, off
		}
		off = next
	}
	return nil, len(text)
}

// sniffPsqlUnaligned accepts a first line "lsn|xid|data" or "LSN|…".
func sniffPsqlUnaligned(sm *sample) bool {
	line, _ := firstContentLine(sm.text)
	bar := bytes.IndexByte(line, '|')
	if bar < 0 {
		return false
	}
	a, b := trimSpace(line[:bar], 0)
	if isColumnName(line[a:b]) {
		return true
	}
	s := &state{text: line}
	_, n, f := s.lsn(line[a:b], a)
	return f == nil && n == b-a
}

// readPsqlUnaligned reads psql -A output: rows of '|'-separated fields, with or without the
// header line and the "(N rows)" footer; a header-less row has the fields lsn|xid|data. Blanks
// around fields are dropped, so rows cut from an aligned table read too. A line
// without '|' continues the previous row's last field (a line break inside encode()'s base64).
// psql -A -x output ("name|value" lines, records apart by blank lines) is read too.
func readPsqlUnaligned(s *state) *failure {
	s.grow(len(s.text) / 2)
	first, off := firstContentLine(s.text)
	if first == nil {
		return failf(0, "expected psql rows")
	}
	fields := bytes.Split(first, []byte{'|'})
	for i, f := range fields {
		a, b := trimSpace(f, 0)
		fields[i] = f[a:b]
	}
	if len(fields) == 2 && isColumnName(fields[0]) && !isColumnName(fields[1]) {
		return s.readUnalignedExpanded(off)
	}
	cols := psqlColumns{0, 1, 2}
	ncols := 3
	header := false
	if isColumnName(fields[0]) || (len(fields) > 1 && isColumnName(fields[1])) {
		var ok bool
		cols, ok = findColumns(fields)
		if !ok {
			return failf(off, "expected a column named data in the header")
		}
		ncols, header = len(fields), true
		_, off = nextLine(s.text, off)
	} else if len(fields) != 3 {
		return failf(off, "without a header line, rows must be lsn|xid|data")
	}
	rows := 0
	var row *psqlRow
	for next := off; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
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
				return failf(off, "the footer says "+strconv.Itoa(n)+" rows but there are "+strconv.Itoa(rows))
			}
			rows = 0
			continue
		}
		if bytes.IndexByte(line, '|') < 0 && ncols > 1 && row != nil && cols.data == ncols-1 {
			row.data = append(row.data, span{off, off + len(line)})
			continue
		}
		if row != nil {
			if f := s.finishRow(row); f != nil {
				return f
			}
		}
		rows++
		row = s.newRow(off)
		start, col := off, 0
		for i := 0; i <= len(line); i++ {
			if i < len(line) && line[i] != '|' {
				continue
			}
			if col == ncols {
				return failf(off+i, "expected "+strconv.Itoa(ncols)+" fields separated by '|', found more")
			}
			a, b := trimSpace(s.text[start:off+i], start)
			c := span{a, b}
			switch col {
			case cols.lsn:
				row.lsn, row.hasLSN = c, true
			case cols.xid:
				row.xid, row.hasXid = c, true
			case cols.data:
				row.data = append(row.data[:0], c)
			}
			col++
			start = off + i + 1
		}
		if col < ncols {
			return s.fail(off+len(line), "expected "+strconv.Itoa(ncols)+" fields separated by '|'")
		}
	}
	if row != nil {
		return s.finishRow(row)
	}
	return nil
}

// readUnalignedExpanded reads psql -A -x output from off.
func (s *state) readUnalignedExpanded(off int) *failure {
	var row *psqlRow
	var field []byte
	finish := func() *failure {
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
	for next := off; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		if isBlank(line) {
			if f := finish(); f != nil {
				return f
			}
			continue
		}
		if _, ok := psqlFooter(line); ok && row == nil {
			continue
		}
		bar := bytes.IndexByte(line, '|')
		if bar < 0 {
			if row == nil || string(field) != "data" {
				return s.fail(off+len(line), "expected \"name|value\"")
			}
			row.data = append(row.data, span{off, off + len(line)})
			continue
		}
		if row == nil {
			row = s.newRow(off)
		}
		field = line[:bar]
		c := span{off + bar + 1, off + len(line)}
		switch string(field) {
		case "lsn":
			row.lsn, row.hasLSN = c, true
		case "xid":
			row.xid, row.hasXid = c, true
		case "data":
			row.data = append(row.data[:0], c)
		}
	}
	return finish()
}
