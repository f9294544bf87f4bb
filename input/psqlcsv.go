package input

import (
	"bytes"
	"strconv"
)

// CSV as psql --csv and COPY … TO STDOUT (FORMAT csv) write it, and COPY's text format.

// csvRecord reads one CSV record starting at off: its fields (quotes removed, "" kept as one
// '"' by unquoting later) and where the next record starts. Quoted fields may hold the
// separator, quotes and line breaks.
func (s *state) csvRecord(off int, fields []span, quoted []bool) ([]span, []bool, int, *failure) {
	t := s.text
	fields, quoted = fields[:0], quoted[:0]
	i := off
	for {
		if i < len(t) && t[i] == '"' {
			j := i + 1
			for {
				k := bytes.IndexByte(t[j:], '"')
				if k < 0 {
					return fields, quoted, 0, failf(i, "a quoted CSV field is not closed: expected '\"'")
				}
				j += k + 1
				if j < len(t) && t[j] == '"' {
					j++ // "" is one quote
					continue
				}
				break
			}
			fields = append(fields, span{i + 1, j - 1})
			quoted = append(quoted, true)
			i = j
		} else {
			j := i
			for j < len(t) && t[j] != ',' && t[j] != '\n' && t[j] != '\r' {
				j++
			}
			fields = append(fields, span{i, j})
			quoted = append(quoted, false)
			i = j
		}
		switch {
		case i >= len(t):
			return fields, quoted, i, nil
		case t[i] == ',':
			i++
		case t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n':
			return fields, quoted, i + 2, nil
		case t[i] == '\n':
			return fields, quoted, i + 1, nil
		default:
			return fields, quoted, 0, s.fail(i, "expected ',' or the end of the line after a quoted CSV field")
		}
	}
}

// sniffPsqlCSV accepts a first line "lsn,xid,data" or a row "X/X,N,…".
func sniffPsqlCSV(sm *sample) bool {
	line, _ := firstContentLine(sm.text, 0)
	c := bytes.IndexByte(line, ',')
	if c < 0 && len(line) > 0 && (headerName(line) || line[0] == '"') {
		// One column: a value with a line break is quoted over several lines.
		return bytes.Contains(sm.text, []byte("\n\"")) && bytes.IndexByte(sm.text, '|') < 0
	}
	if c < 0 || bytes.IndexByte(line, '|') >= 0 {
		return false
	}
	first := line[:c]
	if isColumnName(first) || bytes.HasPrefix(line[c+1:], []byte("xid")) || bytes.HasPrefix(line[c+1:], []byte("lsn")) {
		return true
	}
	s := &state{text: first}
	_, n, f := s.lsn(first, 0)
	return f == nil && n == len(first)
}

// readPsqlCSV reads CSV: psql --csv (with or without its header; -x gives "name,value"
// records), COPY (…) TO STDOUT WITH (FORMAT csv [, HEADER]).
func readPsqlCSV(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(1)
	_, off := firstContentLine(s.text, 0)
	var fields []span
	var quoted []bool
	fields, quoted, next, f := s.csvRecord(off, fields, quoted)
	if f != nil {
		return f
	}
	names := make([][]byte, len(fields))
	for i, c := range fields {
		names[i] = s.text[c.start:c.end]
	}
	if len(names) == 2 && isColumnName(names[0]) && !isColumnName(names[1]) {
		return s.readUnalignedExpanded(off, []byte{','})
	}
	var cols psqlColumns
	header := false
	if isColumnName(names[0]) || (len(names) > 1 && isColumnName(names[1])) || (len(names) == 1 && !looksLikeValue(names[0])) {
		var ok bool
		if cols, ok = findColumns(names); !ok {
			return failf(off, "expected a column named data in the CSV header")
		}
		header = true
		off = next
	} else if cols = headerlessColumns(names); cols.data < 0 {
		return failf(off, "expected CSV rows lsn,xid,data, or a header line naming the columns")
	}
	ncols := len(names)
	rows := 0
	for off < len(s.text) {
		line, after := nextLine(s.text, off)
		if isBlank(line) {
			off = after
			continue
		}
		at := off
		if n, ok := psqlFooter(line); ok {
			// psql -A -F ',' writes the same text as --csv, and a footer.
			if n != rows {
				s.footerNote(off, n, rows)
			}
			rows = 0
			off = after
			continue
		}
		if fields, quoted, off, f = s.csvRecord(off, fields, quoted); f != nil {
			return f
		}
		if len(fields) != ncols {
			if header && len(fields) == 1 && isPsqlChatter(line) {
				continue
			}
			return failf(at, "expected "+strconv.Itoa(ncols)+" CSV fields, found "+strconv.Itoa(len(fields)))
		}
		rows++
		row := s.newRow(at)
		for i, c := range fields {
			switch i {
			case cols.lsn:
				row.lsn, row.hasLSN = c, true
			case cols.xid:
				row.xid, row.hasXid = c, true
			case cols.data:
				if quoted[i] && bytes.Contains(s.text[c.start:c.end], []byte(`""`)) {
					// Undo the doubled quotes: one piece per run between them.
					row.data = row.data[:0]
					start := c.start
					for {
						k := bytes.Index(s.text[start:c.end], []byte(`""`))
						if k < 0 {
							row.data = append(row.data, piece{span{start, c.end}, false})
							break
						}
						row.data = append(row.data, piece{span{start, start + k + 1}, false})
						start += k + 2
					}
				} else {
					row.setData(c)
				}
			}
		}
		if f := s.finishRow(row); f != nil {
			return f
		}
	}
	return nil
}

// sniffCopy accepts COPY's text format: tab-separated fields whose bytea values carry doubled
// backslashes ("\\x42…", "\\000").
func sniffCopy(sm *sample) bool {
	line, _ := firstContentLine(sm.text, 0)
	if i := bytes.Index(sm.text, []byte(`\\`)); i >= 0 && i+2 < len(sm.text) {
		c := sm.text[i+2]
		if c == 'x' || (c >= '0' && c <= '3') {
			return bytes.IndexByte(line, '\t') >= 0 || bytes.HasPrefix(line, []byte(`\\`))
		}
	}
	return copyBase64Break(sm.text)
}

// copyBase64Break reports whether text holds COPY's "\n" escape of the line break that
// encode(data, 'base64') puts after every 76 characters.
func copyBase64Break(text []byte) bool {
	i := bytes.Index(text, []byte(`\n`))
	if i < 76 {
		return false
	}
	for _, c := range text[i-76 : i] {
		if b64Std[c] == 0 {
			return false
		}
	}
	return i == 76 || text[i-77] == '\t' || text[i-77] == '\n' || text[i-77] == 'n' && i >= 78 && text[i-78] == '\\'
}

// readCopy reads COPY (…) TO STDOUT in its text format: one row a line, fields apart by tabs,
// backslash escapes, "\N" for NULL, an optional header line (HEADER, PostgreSQL 15+).
func readCopy(s *state) *failure {
	s.grow(len(s.text) / 2)
	s.growPsqlRows(1)
	first, off := firstContentLine(s.text, 0)
	if first == nil {
		return failf(0, "expected COPY rows")
	}
	names := bytes.Split(first, []byte{'\t'})
	var cols psqlColumns
	if isColumnName(names[0]) || (len(names) > 1 && isColumnName(names[1])) || (len(names) == 1 && headerName(names[0])) {
		var ok bool
		if cols, ok = findColumns(names); !ok {
			return failf(off, "expected a column named data in the header")
		}
		_, off = nextLine(s.text, off)
	} else if cols = headerlessColumns(names); cols.data < 0 {
		return failf(off, "expected COPY rows lsn, xid, data apart by tabs")
	}
	ncols := len(names)
	for next := off; off < len(s.text); off = next {
		var line []byte
		line, next = nextLine(s.text, off)
		if isBlank(line) || isPsqlChatter(line) || string(line) == `\.` {
			continue
		}
		row := s.newRow(off)
		row.copyText = true
		start, col := 0, 0
		for i := 0; i <= len(line); i++ {
			if i < len(line) && line[i] != '\t' {
				continue
			}
			if col >= ncols {
				return failf(off+i, "expected "+strconv.Itoa(ncols)+" fields apart by tabs, found more")
			}
			c := span{off + start, off + i}
			switch col {
			case cols.lsn:
				row.lsn, row.hasLSN = c, true
			case cols.xid:
				row.xid, row.hasXid = c, true
			case cols.data:
				if string(line[start:i]) == `\N` {
					return failf(off+start, "the data value is NULL (\\N)")
				}
				row.setData(c)
			}
			col++
			start = i + 1
		}
		if col < ncols {
			return s.fail(off+len(line), "expected "+strconv.Itoa(ncols)+" fields apart by tabs")
		}
		if f := s.finishRow(row); f != nil {
			return f
		}
	}
	return nil
}
