package input

import (
	"bytes"
	"strconv"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// psql prints the rows of pg_logical_slot_peek_binary_changes (lsn, xid, data) in many
// forms; the readers of this file and of psql*.go find the rows and cells of each form, and
// share what comes after: which column is which, and how a cell's text becomes bytes.

// span is a piece of the text, [start, end) in byte offsets.
type span struct{ start, end int }

// piece is a piece of a value written over several lines; nl says that the value has a line
// break before it (psql's '+' / '↵' / ':' marker, or a raw line break), rather than being
// wrapped to fit the width.
type piece struct {
	span
	nl bool
}

// psqlRow is a result row being read: where it starts, its lsn and xid cells when the table has
// those columns, and the pieces of its data value (one per line it spans).
type psqlRow struct {
	at             int
	lsn, xid       span
	hasLSN, hasXid bool
	data           []piece
	// copyText says the cells carry COPY's text format escapes.
	copyText bool
	// scratch and offs are reused by cellValue for values written over several pieces.
	scratch []byte
	offs    []int
	// raw says the pieces are the text as it is (psql -A): blanks before a line break in the
	// value are its own, not padding.
	raw bool
	// display says psql's aligned display showed the value, where a tab byte is blanks.
	display bool
	// colBuf is reused by the aligned readers for the character columns of a line.
	colBuf []int
}

// newRow returns the state's one row, emptied: readers finish a row before they start the
// next, so one will do and rows cost no allocation.
func (s *state) newRow(at int) *psqlRow {
	s.marks.row(at)
	s.row = psqlRow{at: at, display: s.row.display, data: s.row.data[:0], scratch: s.row.scratch[:0], offs: s.row.offs[:0], colBuf: s.row.colBuf}
	return &s.row
}

// growPsqlRows makes room for the messages of a text whose rows take about perRow lines each,
// so that the common case allocates them once.
func (s *state) growPsqlRows(perRow int) {
	s.growMessages(bytes.Count(s.text, []byte{'\n'})/perRow + 1)
}

// addData appends a piece of the data value.
func (r *psqlRow) addData(c span, nl bool) { r.data = append(r.data, piece{c, nl}) }

// setData makes c the data value's only piece.
func (r *psqlRow) setData(c span) { r.data = append(r.data[:0], piece{c, false}) }

// psqlColumns says which columns hold lsn, xid and data (-1: none).
type psqlColumns struct{ lsn, xid, data int }

// findColumns finds the lsn, xid and data columns by name. Without a column named data, the
// value is the one named encode (encode(data, …) unnamed), or the only column, or the last
// column that is not lsn or xid. ok is false when no column can hold the value.
func findColumns(names [][]byte) (psqlColumns, bool) {
	c := psqlColumns{-1, -1, -1}
	encode := -1
	for i, n := range names {
		switch string(n) {
		case "lsn":
			c.lsn = i
		case "xid":
			c.xid = i
		case "data":
			c.data = i
		case "encode":
			encode = i
		}
	}
	if c.data < 0 {
		c.data = encode
	}
	if c.data < 0 {
		for i := len(names) - 1; i >= 0; i-- {
			if i != c.lsn && i != c.xid && !isKnownExtra(names[i]) {
				c.data = i
				break
			}
		}
	}
	return c, c.data >= 0
}

// isKnownExtra reports whether a column name is one people add beside the data and is not it.
func isKnownExtra(n []byte) bool {
	switch string(n) {
	case "len", "length", "octet_length", "size", "type", "kind", "get_byte", "?column?", "n", "i", "id":
		return true
	}
	return false
}

// headerName reports whether a lone field is a one-column result's header rather than its
// first value: a name as PostgreSQL folds an unquoted one, without capitals (base64 has them).
func headerName(f []byte) bool {
	if !isName(f) || looksLikeValue(f) {
		return false
	}
	for _, c := range f {
		if c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

// isColumnName reports whether b names a column of pg_logical_slot_peek_binary_changes.
func isColumnName(b []byte) bool {
	switch string(b) {
	case "lsn", "xid", "data":
		return true
	}
	return false
}

// finishRow turns a row into a message.
func (s *state) finishRow(r *psqlRow) *failure {
	n, buf, notes := len(s.msgs), len(s.buf), len(s.notes)
	f := s.beginRow(r)
	if f == nil {
		f = s.cellValue(r)
	}
	if f == nil || len(s.skipped) >= maxErrors {
		return f
	}
	// One bad row does not lose the others: it is left out, its failure kept, and reading goes on.
	s.msgs, s.starts, s.buf, s.notes = s.msgs[:n], s.starts[:n], s.buf[:buf], s.notes[:notes]
	s.skipped = append(s.skipped, f)
	return nil
}

// beginRow starts a row's message, with its lsn and xid.
func (s *state) beginRow(r *psqlRow) *failure {
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
	return nil
}

// xid reads a decimal xid below 2^32, naming the first non-digit (strconv cannot: docs/decoder.md).
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
func (s *state) cellValue(r *psqlRow) *failure {
	pieces, at, copyText := r.data, r.at, r.copyText
	n := 0
	for _, p := range pieces {
		n += p.end - p.start + 1
	}
	if n <= len(pieces) {
		if len(pieces) > 0 {
			at = pieces[0].start
		}
		return failf(at, "expected the data value, found an empty cell")
	}
	var tabs []span // blanks that may be a tab byte (see tabsShown)
	check := false
	if r.display {
		var f *failure
		if tabs, check, f = s.tabsShown(r); f != nil {
			return f
		}
	}
	if len(pieces) == 1 && !copyText && !check {
		return s.valueBytes(s.text[pieces[0].start:pieces[0].end], pieces[0].start)
	}
	// Join the pieces (a line break where the value had one), undo COPY's escapes, and map
	// offsets back to the text for errors.
	scratch, offs := r.scratch[:0], r.offs[:0]
	// A line break is part of an escape-format value; hex and base64 skip it.
	first := s.text[pieces[0].start:pieces[0].end]
	keepNL := bytes.IndexByte(first, '\\') >= 0 && !bytes.HasPrefix(bytes.TrimSpace(first), []byte(`\x`))
	defer func() { r.scratch, r.offs = scratch, offs }()
	var ed []displayEdit
	for i, p := range pieces {
		if p.nl && i > 0 && keepNL {
			if check {
				// psql shows no blank of the value's next to a line break.
				ed = append(ed, displayEdit{len(scratch), len(scratch), false}, displayEdit{len(scratch) + 1, len(scratch) + 1, false})
			}
			scratch = append(scratch, '\n')
			offs = append(offs, p.start)
		}
		end := p.end
		if i+1 < len(pieces) && !r.raw {
			// A line that continues on the next was padded to the column's width.
			for end > p.start && isSpace(s.text[end-1]) {
				end--
			}
		}
		for j := p.start; j < end; j++ {
			c := s.text[j]
			if copyText && c == '\\' && j+1 < end {
				j++
				c = copyEscape(s.text[j])
			}
			if len(tabs) > 0 && tabs[0].start == j {
				ed = append(ed, displayEdit{len(scratch), len(scratch) + tabs[0].end - j, true})
				tabs = tabs[1:]
			}
			scratch = append(scratch, c)
			offs = append(offs, j)
		}
	}
	offs = append(offs, pieces[len(pieces)-1].end)
	if check {
		return s.displayReadings(scratch, offs, ed)
	}
	return s.scratchValue(scratch, offs)
}

// displayEdit is one way psql's aligned display may have hidden a byte of a value: blanks
// that are a tab ([at, end) of the joined value read as one tab byte), or a blank of the
// value's own next to a line break, where the display shows none (inserted at at).
type displayEdit struct {
	at, end int
	tab     bool
}

// maxTabRuns bounds the edits tried on one value: each doubles the readings.
const maxTabRuns = 10

// displayReadings reads a value that psql's aligned display may have shown otherwise than its
// bytes (see displayEdit), trying every set of edits, fewest first, and keeping the first
// under which the message decodes whole, with a note; another that decodes too is noted.
func (s *state) displayReadings(scratch []byte, offs []int, ed []displayEdit) *failure {
	const why = "this encode(data, 'escape') value does not decode as psql's aligned display shows it (a blank may be a tab byte, " +
		"and blanks next to a line break are not shown); print the value with psql -A or --csv, or as encode(data, 'hex')"
	if len(ed) > maxTabRuns {
		return failf(offs[ed[0].at], why)
	}
	if s.tabSess == nil {
		s.tabSess = decoder.NewSession(decoder.Options{})
	}
	start := len(s.buf)
	alt := make([]byte, 0, len(scratch)+len(ed))
	found, also := -1, -1
	for mask := 0; mask < 1<<len(ed) && also < 0; mask = nextMask(mask, len(ed)) {
		alt = editedValue(alt[:0], scratch, ed, mask)
		s.buf = s.buf[:start]
		text, endName := s.text, s.endName
		s.text, s.endName = alt, "the end of the value"
		f := s.valueBytes(alt, 0)
		s.text, s.endName = text, endName
		if f == nil && s.tabSess.Check(s.buf[start:]) == nil {
			if found < 0 {
				found = mask
			} else {
				also = mask
			}
		}
	}
	if found < 0 {
		s.buf = s.buf[:start]
		if len(ed) > 0 {
			return failf(offs[ed[0].at], why)
		}
		return s.scratchValue(scratch, offs) // its error, or its bytes: nothing else to try
	}
	s.buf = s.buf[:start]
	if f := s.scratchValue(editedValue(alt[:0], scratch, ed, found), offs); f != nil {
		return f
	}
	if found != 0 {
		s.note(len(s.msgs)-1, "Read otherwise than psql's aligned display shows it (a run of blanks as a tab byte, or a blank next to a line break): only so does the message decode.")
	}
	if also >= 0 {
		s.note(len(s.msgs)-1, "Line "+itoa(s.lineAt(offs[ed[bitIndex(found^also)].at]))+" may also be read otherwise (a tab, blanks, or a blank at a line break) and the message decodes that way too; print the value with psql -A or --csv to be sure.")
	}
	return nil
}

// editedValue appends to dst the value v with the edits in mask made.
func editedValue(dst, v []byte, ed []displayEdit, mask int) []byte {
	prev := 0
	for i, e := range ed {
		if mask&(1<<i) == 0 || e.at < prev {
			continue
		}
		dst = append(dst, v[prev:e.at]...)
		if e.tab {
			dst = append(dst, '\t')
		} else {
			dst = append(dst, ' ')
		}
		prev = e.end
	}
	return append(dst, v[prev:]...)
}

// nextMask returns the mask after m among the masks of n bits ordered by how many bits are set,
// then by value: readings with fewer tabs first. It returns 1<<n after the last.
func nextMask(m, n int) int {
	k := bitCount(m)
	for v := m + 1; v < 1<<n; v++ {
		if bitCount(v) == k {
			return v
		}
	}
	if k == n {
		return 1 << n
	}
	return 1<<(k+1) - 1
}

func bitCount(v int) int {
	n := 0
	for ; v != 0; v &= v - 1 {
		n++
	}
	return n
}

func bitIndex(v int) int {
	i := 0
	for v > 1 {
		v >>= 1
		i++
	}
	return i
}

// scratchValue reads a value that had to be rewritten before reading (pieces joined, escapes
// undone); offs maps each byte of it (and its end) to the text.
func (s *state) scratchValue(scratch []byte, offs []int) *failure {
	// Read it as the text for a moment, so that errors describe what is in it.
	text, endName := s.text, s.endName
	s.text, s.endName = scratch, "the end of the value"
	f := s.valueBytes(scratch, 0)
	s.text, s.endName = text, endName
	if f != nil {
		f.off = offs[min(max(f.off, 0), len(offs)-1)]
	}
	return f
}

// tabsShown finds the blanks of a value of encode(data, 'escape') shown in psql's aligned
// display that may be a tab byte: encode leaves control bytes as they are, and psql shows a tab
// as blanks up to the next multiple of 8 columns of the value's line (\xHH for the other
// control bytes, four columns). Blanks that end elsewhere are blanks; each stretch of 8
// columns of a run that ends at a multiple of 8 may be one tab (displayReadings tries them).
// bytea_output = 'escape' writes every control byte in octal, so its blanks are blanks: a value
// with an octal escape of a control byte and no raw one is read as it is.
func (s *state) tabsShown(r *psqlRow) (tabs []span, check bool, f *failure) {
	first := bytes.TrimSpace(s.text[r.data[0].start:r.data[0].end])
	if bytes.IndexByte(first, '\\') < 0 || bytes.HasPrefix(first, []byte(`\x`)) {
		return nil, false, nil // not escape format
	}
	raw, octal, nl := false, false, false
	for i, p := range r.data {
		v := s.text[p.start:p.end]
		nl = nl || i > 0 && p.nl
		raw = raw || i+1 < len(r.data) && (p.nl || r.data[i+1].nl) || bytes.Contains(v, []byte(`\x`))
		octal = octal || octalControl(v)
		check = check || bytes.IndexByte(v, ' ') >= 0
	}
	if !raw && octal {
		return nil, false, nil
	}
	// A value with a blank, or a line break (blanks next to it are not shown), is read only
	// where it decodes.
	check = check || nl
	col := 0 // the column of the piece's start in its line of the value
	for i, p := range r.data {
		if i > 0 && p.nl {
			col = 0
		}
		v := s.text[p.start:p.end]
		if i+1 < len(r.data) {
			v = bytes.TrimRight(v, " ") // padding before a continuation
		}
		for j := 0; j < len(v); j++ {
			if v[j] != ' ' {
				continue
			}
			k := j
			for k < len(v) && v[k] == ' ' {
				k++
			}
			if end := col + k; end%8 == 0 {
				for m := (col+j)/8*8 + 8; m <= end; m += 8 {
					tabs = append(tabs, span{p.start + max(m-8, col+j) - col, p.start + m - col})
				}
			}
			j = k
		}
		col += len(v)
	}
	if len(tabs) > maxTabRuns {
		return nil, false, failf(tabs[0].start, "this blank in an encode(data, 'escape') value may be a tab byte: psql's aligned display shows a tab as blanks, "+
			"and the value has too many such blanks to try every reading; print the value with psql -A or --csv, or as encode(data, 'hex')")
	}
	return tabs, check, nil
}

// octalControl reports whether v holds an octal escape of a control byte ("\001" to "\037",
// "\177"), which only bytea_output = 'escape' writes.
func octalControl(v []byte) bool {
	for i := 0; i+3 < len(v); i++ {
		if v[i] == '\\' && v[i+1] == '\\' {
			i++
			continue
		}
		if v[i] == '\\' && isOctal(v[i+1]) && isOctal(v[i+2]) && isOctal(v[i+3]) {
			if c := (v[i+1]-'0')*64 + (v[i+2]-'0')*8 + v[i+3] - '0'; c != 0 && c < 0x20 || c == 0x7f {
				return true
			}
		}
	}
	return false
}

// copyEscape returns the byte COPY's text format writes as '\' and c.
func copyEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}

// valueBytes reads a bytea value as psql shows it: "\x" and hex (bytea_output = hex), the text
// of encode(data, 'hex'), bytea_output = escape or encode(data, 'escape') ("B\000\000…"), or
// encode(data, 'base64') (whose line breaks it skips).
func (s *state) valueBytes(v []byte, off int) *failure {
	if bytes.IndexByte(v, '\\') < 0 || bytes.HasPrefix(bytes.TrimSpace(v), []byte(`\x`)) {
		// Blanks around a value are padding; only an escape-format value can end in a
		// blank of its own, and readers hand those over untrimmed.
		a, b := trimSpace(v, 0)
		v, off = v[a:b], off+a
	}
	if len(v) >= 2 && v[0] == '\\' && v[1] == 'x' {
		return s.hexValue(v[2:], off+2)
	}
	hex, backslash := true, false
	for _, c := range v {
		if hexVal(c) > 15 {
			hex = false
		}
		if c == '\\' {
			backslash = true
			break
		}
	}
	switch {
	case backslash || (hex && len(v)%2 == 1 && (len(v) < 8 || s.endName != "" || off+len(v) != len(s.text))):
		// Escape format; a one-byte message (Stream Stop "E") has no backslash either.
		return s.escapeValue(v, off)
	case hex:
		return s.hexValue(v, off)
	}
	if bytes.IndexByte(v, '\n') >= 0 {
		// encode(data, 'base64') breaks its lines every 76 characters.
		joined := make([]byte, 0, len(v))
		offs := make([]int, 0, len(v)+1)
		for i, c := range v {
			if c != '\n' {
				joined = append(joined, c)
				offs = append(offs, off+i)
			}
		}
		offs = append(offs, off+len(v))
		f := s.base64Run(joined, 0, &b64Std, "base64")
		if f != nil {
			f.off = offs[min(max(f.off, 0), len(offs)-1)]
		}
		return f
	}
	return s.base64Run(v, off, &b64Std, "base64")
}

// hexValue reads the hex digits of a value. A value cut after an odd number of digits (a paste
// that ends in the middle of it) gives the whole bytes and a note.
func (s *state) hexValue(run []byte, off int) *failure {
	if len(run)%2 == 1 && hexVal(run[len(run)-1]) < 16 && off+len(run) == len(s.text) && s.endName == "" {
		if f := s.hexDigits(run[:len(run)-1], off); f != nil {
			return f
		}
		s.note(len(s.msgs)-1, "The value ends after an odd number of hex digits: the text was cut in the middle of it; the last digit is left out.")
		return nil
	}
	return s.hexDigits(run, off)
}

// escapeValue reads bytea's escape format: "\\" is a backslash, "\ooo" a byte in octal, any
// other character itself. psql's aligned forms also show control characters as "\xHH" and a
// carriage return as "\r"; encode(…, 'escape') leaves backslashes doubled, so neither is
// ambiguous.
func (s *state) escapeValue(v []byte, off int) *failure {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && v[i+1] == '\\':
			s.buf = append(s.buf, '\\')
			i++
		case c == '\\' && i+3 < len(v) && isOctal(v[i+1]) && isOctal(v[i+2]) && isOctal(v[i+3]):
			n := (v[i+1]-'0')*64 + (v[i+2]-'0')*8 + (v[i+3] - '0')
			if v[i+1] > '3' {
				return failf(off+i, "the escape \\"+string(v[i+1:i+4])+" does not fit in a byte")
			}
			s.buf = append(s.buf, n)
			i += 3
		case c == '\\' && i+3 < len(v) && v[i+1] == 'x' && hexVal(v[i+2]) < 16 && hexVal(v[i+3]) < 16:
			s.buf = append(s.buf, hexVal(v[i+2])<<4|hexVal(v[i+3]))
			i += 3
		case c == '\\' && i+1 < len(v) && v[i+1] == 'r':
			s.buf = append(s.buf, '\r')
			i++
		case c == '\\':
			if i+3 >= len(v) && off+len(v) == len(s.text) && s.endName == "" {
				s.note(len(s.msgs)-1, "The value ends in the middle of an escape: the text was cut in the middle of it; the escape is left out.")
				return nil
			}
			return s.fail(off+i+1, "expected \\\\, three octal digits or xHH after '\\' in an escape-format bytea value")
		case c >= 0x80:
			return s.fail(off+i, "expected an ASCII character in an escape-format bytea value (bytea escapes every other byte)")
		default:
			s.buf = append(s.buf, c)
		}
	}
	return nil
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

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

// footerNote says that a footer's count does not match the rows read, which happens when
// rows were left out of a paste; every row there was read.
func (s *state) footerNote(off, footer, rows int) {
	s.note(-1, "The footer on line "+strconv.Itoa(s.lineAt(off))+" says "+strconv.Itoa(footer)+pgvalue.Plural(footer, " row", " rows")+
		" but "+strconv.Itoa(rows)+pgvalue.Plural(rows, " row was", " rows were")+" read above it: rows were left out of the paste, or added.")
}

// psqlChatter is what psql prints around a result that is not part of it: its answers to
// \pset and \x, timing, the banner, and the command tags of statements.
var psqlChatter = [...]string{"Output format is ", "Border style is ", "Target width is ",
	"Expanded display is ", "Pager usage is ", "Timing is ", "Time: ", "Null display is ",
	"Line style is ", "Tuples only is ", "Field separator is ", "Record separator is ",
	"Default footer is ", "Title is ", "psql (", "Type \"help\" for help.", "WARNING: ",
	"Some psql features might not work.", "SSL connection (", "You are now connected",
	"COPY ", "SELECT ", "Unicode border", "Locale-adjusted"}

// psqlTags are command tags psql prints alone on a line after a statement.
var psqlTags = [...]string{"SET", "BEGIN", "COMMIT", "ROLLBACK", "SHOW", "RESET", "DO"}

// isPsqlChatter reports whether line is a psql prompt with its command ("postgres=# SELECT …")
// or one of psql's messages around a result; readers skip such lines.
func isPsqlChatter(line []byte) bool {
	if len(line) > 256 {
		line = line[:256] // prompts and messages are short; long lines are data
	}
	start, end := trimSpace(line, 0)
	l := line[start:end]
	if len(l) == 0 || l[0] == '\\' || l[0] == '|' || l[0] == '/' || l[0] >= 0x80 ||
		(l[0] >= '0' && l[0] <= '9' && len(l) > 1 && l[1] == '/') {
		return false // a value, a cell, an LSN: the rows themselves
	}
	for _, p := range psqlChatter {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	for _, p := range psqlTags {
		if string(l) == p {
			return true
		}
	}
	return isPrompt(l)
}

// isPrompt reports whether l starts with a psql prompt (%/%R%# of PROMPT1 and PROMPT2:
// "postgres=# ", "app-> ", "app(# ").
func isPrompt(l []byte) bool {
	i := 0
	for i < len(l) && (l[i] == '_' || l[i] == '-' || l[i] == '.' || l[i] == '@' || isAlnum(l[i])) {
		i++
	}
	if i == 0 || i+1 > len(l) {
		return false
	}
	// The prompt ends with '=', '-', '(', '\'', '"', '*' or '^' (%R) and '#' or '>' (%#).
	if l[i-1] == '-' && i < len(l) && (l[i] == '#' || l[i] == '>') {
		return i+1 == len(l) || l[i+1] == ' '
	}
	if i+1 >= len(l) {
		return false
	}
	switch l[i] {
	case '=', '(', '\'', '"', '*', '^', '!':
	default:
		return false
	}
	return (l[i+1] == '#' || l[i+1] == '>') && (i+2 == len(l) || l[i+2] == ' ')
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// firstContentLine returns the first line of text from off that is neither blank nor psql
// chatter.
func firstContentLine(text []byte, off int) (line []byte, at int) {
	for off < len(text) {
		l, next := nextLine(text, off)
		if !isBlank(l) && !isPsqlChatter(l) {
			return l, off
		}
		off = next
	}
	return nil, len(text)
}

// pieceOffset maps an offset in the joined text of pieces back to the text.
func pieceOffset(pieces []span, off int) int {
	for _, p := range pieces {
		if off < p.end-p.start {
			return p.start + off
		}
		off -= p.end - p.start
	}
	return pieces[len(pieces)-1].end
}
