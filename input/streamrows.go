package input

import (
	"bytes"
	"errors"
)

// psql's output is read by a Stream a piece of rows at a time. The readers of psql's forms
// read a text whole; a Stream hands them pieces of it that they read as if whole: the
// context the rows need (the header line, an aligned table's header and rule) and then the
// rows. The readers themselves say where rows begin (rowMarks): a piece is read up to its last
// complete line, every row before the last one begun is handed out, and the next piece starts
// with that last row, which the end of the piece may have cut. A value spanning lines (encode's
// base64 breaks, an escape-format newline byte, an aligned table's continuation lines) thus
// stays with its row, decided by the reader that reads it whole. CSV pieces also end outside
// quotes, where a record may end.

// rowMarks records where a psql reader began its rows and their context.
type rowMarks struct {
	// ctx is where the reader's context starts: the text's start, or the aligned table it
	// reads (a pasted session holds several, each with its header and rule); fresh says no
	// row began since, first is the first row since.
	ctx, first int
	fresh      bool
	// last is the start of the last row begun (-1: none); lastCtx and lastFirst are ctx and
	// first for it: the text between them (header, rule) is what a piece needs before rows.
	last, lastCtx, lastFirst int
}

// reset empties the marks before a piece is read.
func (m *rowMarks) reset() { *m = rowMarks{fresh: true, last: -1} }

// context says that the text from off on (a table's header and rule) is what the rows after it
// need to be read.
func (m *rowMarks) context(off int) { m.ctx, m.fresh = off, true }

// row says that a row starts at off.
func (m *rowMarks) row(off int) {
	if m.fresh {
		m.first, m.fresh = off, false
	}
	m.last, m.lastCtx, m.lastFirst = off, m.ctx, m.first
}

// streamSettle is how much text after a psql reader's failure makes it final: a row that
// fails because the piece ended in it reads on within that (a record's lines are short; a
// long value is read whole before it is judged).
const streamSettle = streamPieceSize

// rowsFormat reports whether a text in format f is read a piece of rows at a time.
func rowsFormat(f Format) bool {
	switch f {
	case PsqlAligned, PsqlExpanded, PsqlUnaligned, PsqlCSV, Copy:
		return true
	}
	return false
}

// csvEnd returns where the last CSV record of b that ends in b ends: after the last newline
// outside quotes (0: none). A quote toggles quoting; "" inside quotes toggles it twice.
func csvEnd(b []byte) int {
	end, quoted := 0, false
	for i := 0; i < len(b); {
		j := bytes.IndexAny(b[i:], "\"\n")
		if j < 0 {
			break
		}
		i += j
		if b[i] == '"' {
			quoted = !quoted
		} else if !quoted {
			end = i + 1
		}
		i++
	}
	return end
}

// unitEnd returns how much of buf holds complete lines the reader may be given: up to the
// last line end (CSV: outside quotes).
func (st *Stream) unitEnd(b []byte) int {
	if st.p.format == PsqlCSV {
		return csvEnd(b)
	}
	return bytes.LastIndexByte(b, '\n') + 1
}

// startRows checks that the reader of format f reads sample (the text detection looked at),
// and starts reading the text a piece of rows at a time. It reports false when the text is to
// be read whole: detection named it after another reader's reading (psql -t rows are
// psql-aligned, read by psql -A's reader).
func (st *Stream) startRows(f Format, sample []byte) bool {
	for i := range parsers {
		if parsers[i].format == f {
			st.p = &parsers[i]
		}
	}
	s := &state{text: sample}
	s.marks.reset()
	if fl := st.p.read(s); fl != nil && (s.marks.last < 0 || fl.off < s.marks.last) {
		// Not the reader that read the sample (a failure in the last row begun is the
		// sample's end cutting it: "the record has no data field").
		st.p = nil
		return false
	}
	st.rows = true
	st.res = &Result{Format: f}
	st.readRows()
	return true
}

// growBuf reads on until buf holds twice as much as now, or the text ends: a piece is read
// again with more text only that many times.
func (st *Stream) growBuf() {
	want := max(2*len(st.buf), st.pieceSize)
	for !st.eof && len(st.buf) < want {
		st.fill()
	}
}

// readRows reads the next piece of rows and makes its messages the next to hand out (see the
// top of this file).
func (st *Stream) readRows() {
	s := &st.st
	for !st.eof && len(st.buf) < st.pieceSize {
		st.fill()
	}
	for {
		end := len(st.buf)
		if !st.eof {
			end = st.unitEnd(st.buf)
		}
		if end == 0 && !st.eof {
			st.growBuf()
			continue
		}
		if st.eof && len(st.buf) == 0 {
			st.msgs, st.next, st.done = nil, 0, true
			return
		}
		np := len(st.prefix)
		st.piece = append(append(st.piece[:0], st.prefix...), st.buf[:end]...)
		s.text = st.piece
		s.reset()
		s.auto = false
		s.continued = st.base > 0
		s.marks.reset()
		f := st.p.read(s)
		last := st.eof && end == len(st.buf)
		switch {
		case last:
		case f != nil && s.marks.last > np && f.off >= s.marks.last:
			// The reader failed in the last row begun, which the next piece reads again.
			st.handRows(s.marks.last)
			return
		case f != nil && len(st.piece)-f.off < streamSettle:
			// The piece's end may have cut the row that failed ("the record has no data
			// field" when its data line is yet to come): read it with more after it.
			st.growBuf()
			continue
		case f == nil && s.marks.last <= np:
			st.growBuf() // one row begun: it may go on past the piece
			continue
		}
		if last || f != nil {
			st.lastRows(f)
			return
		}
		st.handRows(s.marks.last)
		return
	}
}

// handRows hands out the rows of the piece just read that start before cut, and keeps the
// text from cut on (and the context the rows there need) for the next piece.
func (st *Stream) handRows(cut int) {
	s := &st.st
	np := len(st.prefix)
	msgs := s.pieceMessages()
	n := 0
	for n < len(msgs) && msgs[n].Offset < cut {
		n++
	}
	msgs = msgs[:n]
	st.placeMessages(msgs)
	var errs []*Error
	for _, k := range s.skipped {
		if k.off < cut {
			e := newError(s.text, k.off, st.p.format, k.msg)
			e.Tried = []Format{st.p.format}
			errs = append(errs, e)
		}
	}
	st.placeErrors(errs)
	if st.base == 0 {
		for _, nt := range s.notes {
			if nt.Message < n {
				st.res.Notes = append(st.res.Notes, nt)
			}
		}
	}
	if m := s.marks; m.lastCtx >= np {
		// The rows from cut on are read after another context than the prefix: a table
		// that starts in this piece.
		st.prefix = append(st.prefix[:0], s.text[m.lastCtx:m.lastFirst]...)
		st.prefixLines = bytes.Count(st.prefix, []byte{'\n'})
	}
	st.msgs, st.next = msgs, 0
	st.consume(cut - np)
}

// lastRows hands out every row of the piece just read, the last one: the text ended there, or
// the reader failed where no more text can change that. It ends as Parse ends when forced.
func (st *Stream) lastRows(f *failure) {
	s := &st.st
	tried := []Format{st.p.format}
	var r *Result
	var err error
	switch {
	case f != nil:
		r, err = s.readOn(st.p, f, tried)
	case len(s.skipped) > 0:
		r, err = s.withSkipped(st.p.format, tried)
	default:
		r = s.finish(st.p.format)
	}
	var errs []*Error
	var msgs []Message
	if r != nil {
		errs, msgs = r.Errors, r.Messages
		if st.base == 0 {
			st.res.Notes = append(st.res.Notes, r.Notes...)
		}
	} else {
		var e *Error
		if errors.As(err, &e) {
			errs = []*Error{e}
		}
	}
	st.placeMessages(msgs)
	st.placeErrors(errs)
	st.msgs, st.next, st.done = msgs, 0, true
	st.consume(len(st.buf))
}

// placeMessages moves the messages of a piece to their place in the whole text.
func (st *Stream) placeMessages(msgs []Message) {
	np := len(st.prefix)
	for i := range msgs {
		msgs[i].Offset += st.base - np
		msgs[i].Line += st.baseLine - st.prefixLines
	}
}

// placeErrors moves the errors of a piece to their place in the whole text and keeps them.
func (st *Stream) placeErrors(errs []*Error) {
	np := len(st.prefix)
	for _, e := range errs {
		e.Line += st.baseLine - st.prefixLines
		e.Offset += st.base - np
		e.End += st.base - np
	}
	st.errs = append(st.errs, errs...)
	st.nerrs += len(errs)
	if st.nerrs >= maxErrors {
		st.done = true // too many bad rows: keep what came before, as Parse does
	}
}

// consume drops the first n bytes of buf, read.
func (st *Stream) consume(n int) {
	st.baseLine += bytes.Count(st.buf[:n], []byte{'\n'})
	st.base += n
	rest := copy(st.buf, st.buf[n:])
	st.buf = st.buf[:rest]
	if cap(st.buf) > 4*streamPieceSize && rest < streamPieceSize {
		// A long row made the buffer grow; give the memory back.
		st.buf = append(make([]byte, 0, streamPieceSize), st.buf...)
	}
	if cap(st.piece) > 4*streamPieceSize {
		st.piece = nil
	}
}
