package input

import "bytes"

// A hex dump (xxd, hexdump -C) of a pg_recvlogical -f file is read by a Stream a piece of rows
// at a time. Read whole, a dump is one message whose bytes unwrap then splits (binary.go); a
// Stream de-hexes each piece with the same dump reader, feeds the bytes to a recvSplitter and
// hands out each message as soon as a newline after it ends a message that decodes. Each piece
// starts with the last row of the piece before (the prefix, whose bytes were already taken):
// the reader then checks that the offsets run on, and a '*' line (never the last line of a
// piece) has its row before it. A message's Line and Offset are those of the dump row holding
// its first byte, as unwrap gives them.

// dumpStream is the state of a dump read piece by piece.
type dumpStream struct {
	split *recvSplitter
	// b holds the file's bytes from the start of the message being cut on; base is the
	// file offset of b[0].
	b    []byte
	base int
	// skip is how many bytes of the next piece's first row (the prefix) were already taken;
	// prefixOff and prefixLine say where that row is in the text.
	skip, prefixOff, prefixLine int
	// startAt is the file offset of the first byte of the message being cut, once known, and
	// startOff, startLine the row holding it (the row may be in a piece read before).
	startAt, startOff, startLine int
	msgs                         []Message
}

// maxDumpCarry is how much of the file the stream keeps between pieces when nothing was cut:
// a buffer that grew past it for a long message is given back once the message is out.
const maxDumpCarry = 4 * streamPieceSize

// startDump starts reading a hex dump in format f a piece of rows at a time when sample (the
// text detection looked at) is one dump whose bytes start as a pg_recvlogical -f file: at least
// two messages, each ended by a newline where it decodes. It reports false when the text is to
// be read whole (a dump of one message, a packet capture, a CopyBoth stream).
func (st *Stream) startDump(f Format, sample []byte) bool {
	var p *reader
	for i := range parsers {
		if parsers[i].format == f {
			p = &parsers[i]
		}
	}
	s := &state{text: sample}
	if p.read(s) != nil || len(s.msgs) != 1 {
		return false
	}
	b := s.buf[s.starts[0]:]
	if isPcap(b) || isPcapng(b) || copyBothStart(b) {
		return false
	}
	sp, n := newRecvSplitter(), 0
	for {
		_, k := sp.next(b, false)
		if k != splitFound {
			if k == splitBad || n < 2 {
				return false
			}
			break
		}
		n++
	}
	st.p = p
	st.dump = &dumpStream{split: newRecvSplitter(), startAt: -1}
	st.res = &Result{Format: f, Notes: []Note{
		{Message: -1, Text: "The dumped bytes are a pg_recvlogical -f file, split as the dump is read."},
		{Message: -1, Text: "Split as a pg_recvlogical -f file: each message is followed by a newline, and a message ends where its decoded length says (newline bytes inside messages are data)."},
	}}
	return true
}

// copyBothStart reports whether b may start a CopyBoth stream's bytes: typed protocol messages
// one after another as far as b goes. Such a dump is read whole, as Parse reads it.
func copyBothStart(b []byte) bool {
	pos := 0
	for pos+5 <= len(b) {
		if !validMsg(b, pos) {
			return false
		}
		pos += msgLen(b, pos)
	}
	return true
}

// dumpPieceEnd returns how much of b a piece of dump rows may take: its complete lines, up to
// the last that is neither blank nor a '*' line (a '*' needs the row after it); 0 when none.
func dumpPieceEnd(b []byte) int {
	end := bytes.LastIndexByte(b, '\n') + 1
	for end > 0 {
		a := bytes.LastIndexByte(b[:end-1], '\n') + 1
		i, j := trimSpace(b[a:end-1], 0) // the line without its newline
		if j > i && !(j-i == 1 && b[a+i] == '*') {
			return end
		}
		end = a
	}
	return 0
}

// readDumpPiece reads the next piece of dump rows and makes the messages cut from its bytes the
// next to hand out (see the top of this file).
func (st *Stream) readDumpPiece() {
	d, s := st.dump, &st.st
	for !st.eof && len(st.buf) < st.pieceSize {
		st.fill()
	}
	end := 0
	for {
		if st.eof {
			end = len(st.buf)
			break
		}
		if end = dumpPieceEnd(st.buf); end > 0 {
			break
		}
		st.growBuf()
	}
	np := len(st.prefix)
	st.piece = append(append(st.piece[:0], st.prefix...), st.buf[:end]...)
	s.text = st.piece
	s.reset()
	s.auto = false
	f := st.p.read(s)
	var out []byte
	rows := s.rows
	if len(s.msgs) > 0 {
		e := len(s.buf)
		if len(s.msgs) > 1 {
			e = s.starts[1]
			if f == nil {
				// Read whole, the dump would be two messages, neither split.
				f = failf(s.msgs[1].Offset, "a second dump starts here: a dump read in pieces is one pg_recvlogical -f file")
			}
			n := 0
			for n < len(rows) && rows[n].text < s.msgs[1].Offset {
				n++
			}
			rows = rows[:n]
		}
		out = s.buf[s.starts[0]:e]
	}
	if f != nil {
		e := newError(s.text, f.off, st.p.format, f.msg)
		e.Tried = []Format{st.p.format}
		st.placeErrors([]*Error{e})
	}
	// rowBase is the file offset of the piece's first byte, the prefix row's.
	rowBase := d.base + len(d.b) - d.skip
	if n := d.split.start; n > 0 {
		d.b = d.b[:copy(d.b, d.b[n:])]
		d.base += n
		d.split.shift(n)
		if cap(d.b) > maxDumpCarry && len(d.b) < streamPieceSize {
			d.b = append(make([]byte, 0, 2*streamPieceSize), d.b...)
		}
	}
	if len(out) > d.skip {
		d.b = append(d.b, out[d.skip:]...)
	}
	// rowOf returns the text offset and line of the row holding file byte at.
	rowOf := func(at int) (int, int) {
		if at < rowBase || len(rows) == 0 {
			return d.startOff, d.startLine
		}
		o := rowAt(rows, at-rowBase)
		if o < np {
			return d.prefixOff, d.prefixLine
		}
		return st.base + o - np, st.baseLine + s.lineAt(o) - st.prefixLines
	}
	final := f != nil || st.eof && end == len(st.buf)
	d.msgs = d.msgs[:0]
	for {
		c, k := d.split.nextQuick(d.b, final)
		if k == splitFound || k == splitBad {
			if k == splitBad {
				c = cut{d.split.start, len(d.b)}
			}
			off, line := rowOf(d.base + c.start)
			d.msgs = append(d.msgs, Message{Bytes: d.b[c.start:c.end:c.end], Offset: off, Line: line})
			if k == splitFound {
				continue
			}
			at := d.base + c.start
			st.errs = append(st.errs, &Error{Line: line, Column: 1, Offset: off, End: off + 1, Format: st.p.format,
				Msg: "no newline after byte " + itoa(at) + " of the dumped pg_recvlogical -f file ends a message that decodes: the rest is one message (read whole, the dump would be one message)"})
			st.nerrs++
		}
		if k != splitMore {
			st.done = true
		}
		break
	}
	if at := d.base + d.split.start; !st.done && at != d.startAt && at < d.base+len(d.b) {
		d.startAt = at
		d.startOff, d.startLine = rowOf(at)
	}
	if len(rows) > 0 {
		last := rows[len(rows)-1]
		if last.text >= np {
			_, next := nextLine(s.text, last.text)
			d.prefixOff, d.prefixLine = rowOf(rowBase + last.out)
			st.prefix = append(st.prefix[:0], s.text[last.text:next]...)
			st.prefixLines = bytes.Count(st.prefix, []byte{'\n'})
		}
		d.skip = len(out) - last.out
	}
	st.msgs, st.next = d.msgs, 0
	st.consume(end)
}
