package input

import (
	"bytes"
	"strconv"
)

// psql -H (\pset format html) and \pset format asciidoc, tables and expanded records.

// markupCell is one cell of a markup table: a header cell (<th>, or a name in an expanded
// record), where its text is, and for a record heading its number.
type markupCell struct {
	th     bool
	text   span
	record int // > 0: "Record N" heading
	// more are the lines the text continues on (asciidoc writes a value's line breaks as
	// they are).
	more []span
}

// setData makes the cell the row's value.
func (c *markupCell) setData(r *psqlRow) {
	r.setData(c.text)
	for _, m := range c.more {
		r.addData(m, true)
	}
}

// markupRows turns the rows of a markup table into messages: a row of header cells names the
// columns, a record heading starts a record, a row of one header and one data cell is a field
// of an expanded record, and a row of data cells is a row. unescape rewrites a cell's text.
type markupReader struct {
	s        *state
	names    [][]byte
	cols     psqlColumns
	haveCols bool
	row      *psqlRow
	dataName []byte
	records  int
	rows     int
	unescape func(c span) ([]byte, []int)
}

func (m *markupReader) add(cells []markupCell, at int) *failure {
	s := m.s
	switch {
	case len(cells) == 0:
		return nil
	case cells[0].record > 0:
		if f := m.finish(); f != nil {
			return f
		}
		m.records++
		m.row = s.newRow(at)
		return nil
	case len(cells) == 2 && cells[0].th != cells[1].th:
		// A field of an expanded record.
		if m.row == nil {
			m.records++
			m.row = s.newRow(at)
		}
		name := s.text[cells[0].text.start:cells[0].text.end]
		v := cells[1].text
		switch string(name) {
		case "lsn":
			m.row.lsn, m.row.hasLSN = v, true
		case "xid":
			m.row.xid, m.row.hasXid = v, true
		default:
			if m.dataName == nil && (string(name) == "data" || !isKnownExtra(name)) {
				m.dataName = name
			}
			if bytes.Equal(name, m.dataName) {
				cells[1].setData(m.row)
			}
		}
		return nil
	case cells[0].th:
		m.names = m.names[:0]
		for _, c := range cells {
			m.names = append(m.names, s.text[c.text.start:c.text.end])
		}
		var ok bool
		if m.cols, ok = findColumns(m.names); !ok {
			return failf(cells[0].text.start, "expected a column named data in the header")
		}
		m.haveCols = true
		return nil
	}
	if !m.haveCols {
		m.cols, m.haveCols = psqlColumns{0, 1, 2}, true
		if len(cells) == 1 {
			m.cols = psqlColumns{-1, -1, 0}
		}
	}
	if len(cells) != len(m.names) && len(m.names) > 0 {
		return failf(at, "expected "+strconv.Itoa(len(m.names))+" cells in the row, found "+strconv.Itoa(len(cells)))
	}
	r := s.newRow(at)
	for i, c := range cells {
		switch i {
		case m.cols.lsn:
			r.lsn, r.hasLSN = c.text, true
		case m.cols.xid:
			r.xid, r.hasXid = c.text, true
		case m.cols.data:
			c.setData(r)
		}
	}
	m.rows++
	return m.finishRow(r)
}

func (m *markupReader) finish() *failure {
	if m.row == nil {
		return nil
	}
	r := m.row
	m.row = nil
	if len(r.data) == 0 {
		return failf(r.at, "the record has no data field")
	}
	return m.finishRow(r)
}

// finishRow reads a row whose data cell may need unescaping first.
func (m *markupReader) finishRow(r *psqlRow) *failure {
	s := m.s
	if len(r.data) != 1 {
		return s.finishRow(r)
	}
	c := r.data[0].span
	scratch, offs := m.unescape(c)
	if scratch == nil {
		return s.finishRow(r)
	}
	if f := s.beginRow(r); f != nil {
		return f
	}
	if len(scratch) == 0 {
		return failf(c.start, "expected the data value, found an empty cell")
	}
	return s.scratchValue(scratch, offs)
}

// htmlEntities are what psql's html_escaped_print writes for special characters.
var htmlEntities = [...]struct {
	name string
	c    byte
}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&nbsp;", ' '}, {"&#39;", '\''}}

// htmlUnescape undoes psql's HTML escaping of a cell: entities, and "<br />" before each line
// break. It returns nil when the cell has neither.
func (s *state) htmlUnescape(c span) ([]byte, []int) {
	t := s.text[c.start:c.end]
	if bytes.IndexByte(t, '&') < 0 && bytes.IndexByte(t, '<') < 0 {
		return nil, nil
	}
	out := make([]byte, 0, len(t))
	offs := make([]int, 0, len(t)+1)
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '&':
			done := false
			for _, e := range htmlEntities {
				if bytes.HasPrefix(t[i:], []byte(e.name)) {
					out, offs = append(out, e.c), append(offs, c.start+i)
					i += len(e.name) - 1
					done = true
					break
				}
			}
			if !done {
				out, offs = append(out, '&'), append(offs, c.start+i)
			}
		case bytes.HasPrefix(t[i:], []byte("<br />")):
			i += len("<br />") - 1
			if i+1 < len(t) && t[i+1] == '\n' {
				i++
			}
			out, offs = append(out, '\n'), append(offs, c.start+i)
		default:
			out, offs = append(out, t[i]), append(offs, c.start+i)
		}
	}
	return out, append(offs, c.end)
}

func sniffPsqlHTML(sm *sample) bool {
	line, _ := firstContentLine(sm.text, 0)
	return bytes.HasPrefix(bytes.TrimSpace(line), []byte("<table"))
}

// readPsqlHTML reads psql's HTML tables: <tr> rows of <th> and <td> cells; in expanded mode a
// "Record N" row and rows of a <th> name and a <td> value.
func readPsqlHTML(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(5)
	t := s.text
	m := &markupReader{s: s, unescape: s.htmlUnescape}
	var cells []markupCell
	rowAt := -1
	tables := 0
	for i := 0; i < len(t); {
		lt := bytes.IndexByte(t[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		gt := bytes.IndexByte(t[i:], '>')
		if gt < 0 {
			return s.fail(len(t), "expected '>' closing the tag")
		}
		tag := t[i+1 : i+gt]
		end := i + gt + 1
		name := tag
		if sp := bytes.IndexAny(tag, " \t\n"); sp >= 0 {
			name = tag[:sp]
		}
		switch string(name) {
		case "table":
			tables++
		case "tr":
			cells, rowAt = cells[:0], i
		case "/tr":
			if rowAt < 0 {
				return failf(i, "expected <tr> before </tr>")
			}
			if f := m.add(cells, rowAt); f != nil {
				return f
			}
			rowAt = -1
		case "th", "td":
			close := []byte("</" + string(name) + ">")
			k := bytes.Index(t[end:], close)
			if k < 0 {
				return s.fail(len(t), "expected "+string(close))
			}
			c := markupCell{th: name[1] == 'h', text: span{end, end + k}}
			if bytes.Contains(tag, []byte("colspan")) {
				txt := t[end : end+k]
				if n, ok := Atoi(string(bytes.TrimPrefix(txt, []byte("Record ")))); ok && bytes.HasPrefix(txt, []byte("Record ")) {
					c.record = n
				}
			}
			cells = append(cells, c)
			end += k + len(close)
		case "/table":
			if f := m.finish(); f != nil {
				return f
			}
		case "p":
			k := bytes.Index(t[end:], []byte("</p>"))
			if k >= 0 {
				line := bytes.TrimSpace(bytes.ReplaceAll(t[end:end+k], []byte("<br />"), nil))
				if n, ok := psqlFooter(line); ok && n != m.rows+m.records {
					s.footerNote(end, n, m.rows+m.records)
				}
				end += k + len("</p>")
			}
		}
		i = end
	}
	if f := m.finish(); f != nil {
		return f
	}
	if tables == 0 {
		return failf(0, "expected <table>")
	}
	return nil
}

func sniffPsqlAsciidoc(sm *sample) bool {
	line, _ := firstContentLine(sm.text, 0)
	return bytes.HasPrefix(line, []byte("[options=\"header\"")) || bytes.HasPrefix(line, []byte("[cols=")) || bytes.HasPrefix(line, []byte("|===="))
}

// asciidocUnescape undoes psql's escaping of '|' ("\|") in an asciidoc cell.
func (s *state) asciidocUnescape(c span) ([]byte, []int) {
	t := s.text[c.start:c.end]
	if !bytes.Contains(t, []byte(`\|`)) {
		return nil, nil
	}
	out := make([]byte, 0, len(t))
	offs := make([]int, 0, len(t)+1)
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+1 < len(t) && t[i+1] == '|' {
			i++
		}
		out, offs = append(out, t[i]), append(offs, c.start+i)
	}
	return out, append(offs, c.end)
}

// readPsqlAsciidoc reads psql's asciidoc tables: "[options=…]" and "|====" around lines of
// cells "spec|text "; expanded records start with a "2+^|Record N" cell.
func readPsqlAsciidoc(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(5)
	m := &markupReader{s: s, unescape: s.asciidocUnescape}
	var cells []markupCell
	inTable, tables := false, 0
	rowAt := -1
	// flush hands the row read so far (its cells may continue on further lines) to m.
	flush := func() *failure {
		if rowAt < 0 {
			return nil
		}
		at := rowAt
		rowAt = -1
		return m.add(cells, at)
	}
	expanded := false
	headerNext := false
	for off := 0; off < len(s.text); {
		line, next := nextLine(s.text, off)
		switch {
		case inTable && rowAt >= 0 && !bytes.HasPrefix(line, []byte("|====")) && !asciidocRowStart(line):
			last := &cells[len(cells)-1]
			last.more = append(last.more, span{off, off + len(line)})
		case isBlank(line) || isPsqlChatter(line):
		case bytes.HasPrefix(line, []byte("[")):
			expanded = !bytes.Contains(line, []byte(`options="header"`))
			headerNext = !expanded
		case bytes.HasPrefix(line, []byte("|====")):
			if f := flush(); f != nil {
				return f
			}
			if inTable {
				if f := m.finish(); f != nil {
					return f
				}
			} else {
				tables++
			}
			inTable = !inTable
		case string(line) == "....":
		case !inTable:
			if n, ok := psqlFooter(line); ok {
				if n != m.rows+m.records {
					s.footerNote(off, n, m.rows+m.records)
				}
				break
			}
			return s.fail(off, "expected an asciidoc table \"|====\"")
		case !asciidocRowStart(line):
			if len(cells) == 0 {
				return s.fail(off, "expected cells \"|text\"")
			}
			// A line break in the last cell's value.
			last := &cells[len(cells)-1]
			last.more = append(last.more, span{off, off + len(line)})
		default:
			if f := flush(); f != nil {
				return f
			}
			cells = asciidocCells(s.text, off, line, cells[:0])
			if len(cells) == 0 {
				return s.fail(off, "expected cells \"|text\"")
			}
			if headerNext {
				for i := range cells {
					cells[i].th = true
				}
				headerNext = false
			} else if expanded && len(cells) == 2 {
				cells[0].th = true
			}
			if expanded && len(cells) == 1 {
				txt := s.text[cells[0].text.start:cells[0].text.end]
				if n, ok := Atoi(string(bytes.TrimPrefix(txt, []byte("Record ")))); ok {
					cells[0].record = n
				}
			}
			rowAt = off
		}
		off = next
	}
	if f := flush(); f != nil {
		return f
	}
	if f := m.finish(); f != nil {
		return f
	}
	if tables == 0 {
		return failf(0, "expected an asciidoc table \"|====\"")
	}
	return nil
}

// asciidocRowStart reports whether line starts with a cell: '|', or a cell spec ("^l", "<l",
// ">l", "2+^") and '|'.
func asciidocRowStart(line []byte) bool {
	for i := 0; i < len(line) && i < 8; i++ {
		c := line[i]
		if c == '|' {
			return true
		}
		if bytes.IndexByte([]byte("0123456789+<^>.adehlmsv"), c) < 0 {
			return false
		}
	}
	return false
}

// asciidocCells splits a table line (at offset off) into cells: each starts after an
// unescaped '|' and runs to the blank before the next cell's spec ("^l", "<l", "2+^").
func asciidocCells(text []byte, off int, line []byte, cells []markupCell) []markupCell {
	var bars []int
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if line[i] == '|' {
			bars = append(bars, i)
		}
	}
	for k, b := range bars {
		end := len(line)
		if k+1 < len(bars) {
			// The next cell's spec is the word right before its '|'.
			j := bars[k+1]
			for j > b+1 && line[j-1] != ' ' {
				j--
			}
			end = j
		}
		a, e := trimSpace(line[b+1:end], off+b+1)
		cells = append(cells, markupCell{text: span{a, e}})
	}
	return cells
}
