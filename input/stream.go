package input

import (
	"bytes"
	"errors"
	"io"
)

// Stream reads the messages of a text as it arrives, so that a capture file or a file of hex
// or base64 lines of any length is read in memory that does not grow with it, and a live
// capture piped in is read message by message.
//
// Start reads the start of the text, up to 64 KiB or its end, and detects the format there as
// Parse does. A text that ends within that window is read whole by Parse, with the same result.
// A longer text in a format whose lines are messages of their own (capture, hex, base64,
// base64url) is then read a piece of complete lines at a time by the same reader, each bad line
// skipped with an error as Parse skips it. psql's output (aligned, expanded, unaligned, CSV,
// COPY's text format) is read a piece of whole rows at a time, each piece after the header its
// rows need (streamrows.go). An xxd or hexdump -C dump whose first window's bytes start as a
// pg_recvlogical -f file (two messages or more, each ended by a newline where it decodes) is
// de-hexed a piece of rows at a time, and each message handed out once a newline after it
// ends it (streamdump.go); its Line and Offset are the dump row holding its first byte, as
// Parse gives them. Parse decides on the whole dump: when its tail does not split, Parse gives
// the dump as ONE message, while the Stream has handed out the messages before the tail and
// gives the rest as one last message with an error naming the byte where no newline ends a
// message that decodes; a row that does not fit, or a second dump after the first, ends the
// reading with its error after the messages before it (Parse gives the error alone, or reads
// two dumps as two messages). Other formats (od, hexdump's word forms, xxd -p, a packet
// capture or CopyBoth stream in a dump), and pastes that need cleaning (indentation,
// quoting, code fences), are read whole. Next hands out the messages in order,
// Errors the problems met so far, Comments a capture file's "#" lines that came between
// messages.
//
//	st := input.NewStream(r, input.Auto)
//	res, err := st.Start() // res.Format, res.Header; nil and the *Error when nothing can be read
//	for m := st.Next(); m != nil; m = st.Next() {
//		// m.Bytes, m.Line, m.LSN… are valid until the next call to Next
//	}
//	// st.Err(): the read error that ended the input early, if any
type Stream struct {
	// Live starts reading a capture file as soon as its header and first message have
	// arrived, instead of waiting for 64 KiB or the end of the text: for a capture still being
	// written, such as pgoutput-inspect capture's output piped in. Set it before Start.
	Live bool

	r     io.Reader
	force Format
	// window is how much Start reads before choosing (streamWindow; tests make it smaller),
	// pieceSize how much a piece of psql rows holds at least (streamPieceSize; tests too).
	window, pieceSize int
	buf               []byte // text read and not yet handed to a reader
	eof               bool
	rerr              error

	res  *Result
	p    *reader // the format read piece by piece; nil when the text was read whole
	st   state
	msgs []Message // messages of the current piece (or of the whole text) not yet handed out
	next int
	// base is the byte offset in the text of buf[0], baseLine the number of lines before it.
	base, baseLine int
	// seen says a message was read: "#" lines after it are comments, not header.
	seen bool
	done bool
	// errs are the errors not yet taken by Errors; nerrs counts every error met.
	errs  []*Error
	nerrs int
	// pending are the comments read and not yet handed out; out those before the last message.
	pending, out []Comment
	// rows: the text is psql output, read a piece of rows at a time (readRows); prefix is the
	// text each piece starts with (the header its rows need), of prefixLines lines; piece
	// holds the prefix and the text of the piece being read.
	rows          bool
	prefix, piece []byte
	prefixLines   int
	// dump: the text is a hex dump of a pg_recvlogical -f file, read a piece of rows at a
	// time (streamdump.go).
	dump *dumpStream
}

// Comment is a capture file's "#" line that came after the first message of a text read piece
// by piece (the lines before it are Result.Header).
type Comment struct {
	// Offset is the byte offset in the text where the line starts.
	Offset int
	// Text is the line without its "#" and one following space.
	Text string
}

// streamWindow is how much of the text Start reads before it chooses between reading it whole
// and piece by piece: the window detection looks at.
const streamWindow = sniffWindow

// streamPieceSize is how much text the stream reads at a time once it reads piece by piece.
const streamPieceSize = 256 << 10

// NewStream returns a Stream that reads r as force, or detecting the format when force is Auto.
func NewStream(r io.Reader, force Format) *Stream {
	return &Stream{r: r, force: force, window: streamWindow, pieceSize: streamPieceSize}
}

// Start reads the start of the text and detects its format. It returns what Parse would return
// for the text read whole (Result.Messages aside: Next hands them out), except that for a text
// read piece by piece the error is nil and Errors hands out the problems as they are met. A
// read error before anything could be detected is returned as it is (not an *Error).
func (st *Stream) Start() (*Result, error) {
	for !st.eof && len(st.buf) < st.window && !st.liveStart() {
		st.fill()
	}
	if st.rerr != nil && len(st.buf) == 0 {
		return nil, st.rerr
	}
	if st.eof {
		return st.readWhole()
	}
	cut := bytes.LastIndexByte(st.buf, '\n') + 1
	if cut == 0 {
		return st.readWhole() // one line longer than the window: one message whatever the format
	}
	sample := st.buf[:cut]
	if c := csvEnd(sample); c > 0 && c < cut && (st.force == PsqlCSV || st.force == Auto && sniffPsqlCSV(newSample(sample))) {
		sample = sample[:c] // a quoted CSV field holds the last line breaks
	}
	if cleanPaste(sample).note != "" {
		return st.readWhole() // the paste needs cleaning as a whole
	}
	r, _ := parse(sample, st.force)
	if r == nil {
		return st.readWhole()
	}
	if (r.Format == Xxd || r.Format == HexdumpC) && st.startDump(r.Format, sample) {
		return st.res, nil
	}
	if rowsFormat(r.Format) {
		if st.startRows(r.Format, sample) {
			return st.res, nil
		}
		return st.readWhole()
	}
	for i := range parsers {
		if parsers[i].format == r.Format && parsers[i].lines {
			st.p = &parsers[i]
		}
	}
	if st.p == nil {
		return st.readWhole()
	}
	st.res = &Result{Format: r.Format}
	st.readPiece(cut)
	return st.res, nil
}

// liveStart reports whether a live capture can start: the text so far is a capture file's
// first line, header lines and at least one complete line of something else.
func (st *Stream) liveStart() bool {
	if !st.Live || (st.force != Auto && st.force != Capture) {
		return false
	}
	magic := false
	for off := 0; off < len(st.buf); {
		i := bytes.IndexByte(st.buf[off:], '\n')
		if i < 0 {
			return false
		}
		a, b := trimSpace(st.buf[off:off+i], off)
		l := st.buf[a:b]
		off += i + 1
		switch {
		case a == b:
		case !magic:
			if !bytes.HasPrefix(l, []byte(captureMagic)) {
				return false
			}
			magic = true
		case l[0] != '#':
			return true
		}
	}
	return false
}

// fill reads more of the text into buf, growing it when it is full.
func (st *Stream) fill() {
	if len(st.buf) == cap(st.buf) {
		nb := make([]byte, len(st.buf), max(2*cap(st.buf), streamPieceSize))
		copy(nb, st.buf)
		st.buf = nb
	}
	n, err := st.r.Read(st.buf[len(st.buf):cap(st.buf)])
	st.buf = st.buf[:len(st.buf)+n]
	switch {
	case err == io.EOF:
		st.eof = true
	case err != nil:
		st.rerr, st.eof = err, true
	}
}

// readWhole reads the rest of the text and parses it all at once.
func (st *Stream) readWhole() (*Result, error) {
	for !st.eof {
		st.fill()
	}
	res, err := Parse(st.buf, st.force)
	st.res, st.done = res, true
	st.buf = nil // the messages do not need the text: let it go before they are decoded
	if res == nil {
		return nil, err
	}
	st.msgs = res.Messages
	switch {
	case len(res.Errors) > 0:
		st.errs = res.Errors
	case err != nil:
		var e *Error
		if errors.As(err, &e) {
			st.errs = []*Error{e}
		}
	}
	st.nerrs = len(st.errs)
	return res, err
}

// readPiece reads buf[:cut], complete lines, with the stream's line format, and makes its
// messages the next to hand out.
func (st *Stream) readPiece(cut int) {
	text := st.buf[:cut]
	s := &st.st
	s.text = text
	s.reset()
	s.auto = false
	s.continued = st.base > 0
	var r *Result
	if f := st.p.read(s); f == nil {
		r = &Result{Messages: s.pieceMessages()}
	} else {
		var err error
		r, err = s.readOn(st.p, f, []Format{st.p.format})
		if r == nil {
			var e *Error
			if errors.As(err, &e) {
				st.addErrors([]*Error{e})
			}
		} else {
			st.addErrors(r.Errors)
		}
	}
	var msgs []Message
	if r != nil {
		msgs = r.Messages
	}
	for i := range msgs {
		msgs[i].Offset += st.base
		msgs[i].Line += st.baseLine
	}
	for i, h := range s.header {
		off := s.headerOff[i] + st.base
		if !st.seen && (len(msgs) == 0 || off < msgs[0].Offset) {
			st.res.Header = append(st.res.Header, h)
		} else {
			st.pending = append(st.pending, Comment{Offset: off, Text: h})
		}
	}
	if len(msgs) > 0 {
		st.seen = true
	}
	st.msgs, st.next = msgs, 0
	st.baseLine += bytes.Count(text, []byte{'\n'})
	st.base += cut
	rest := copy(st.buf, st.buf[cut:])
	st.buf = st.buf[:rest]
	if cap(st.buf) > 4*streamPieceSize && rest < streamPieceSize {
		// A long line made the buffer grow; give the memory back.
		st.buf = append(make([]byte, 0, streamPieceSize), st.buf...)
	}
	if st.nerrs >= maxErrors {
		st.done = true // too many bad lines: keep what came before, as Parse does
	}
}

// pieceMessages sets the messages' Bytes, as result does, but leaves the state its slices,
// which the next piece reuses: memory for a piece's messages is allocated once.
func (s *state) pieceMessages() []Message {
	for i := range s.msgs {
		end := len(s.buf)
		if i+1 < len(s.starts) {
			end = s.starts[i+1]
		}
		s.msgs[i].Bytes = s.buf[s.starts[i]:end:end]
	}
	return s.msgs
}

// addErrors places errors of the current piece in the whole text.
func (st *Stream) addErrors(errs []*Error) {
	for _, e := range errs {
		e.Line += st.baseLine
		e.Offset += st.base
		e.End += st.base
	}
	st.errs = append(st.errs, errs...)
	st.nerrs += len(errs)
}

// Next returns the next message, or nil at the end of the text. The message, its Bytes
// included, is valid until the next call to Next.
func (st *Stream) Next() *Message {
	for st.next >= len(st.msgs) {
		if st.done || st.p == nil {
			st.out = append(st.out[:0], st.pending...)
			st.pending = st.pending[:0]
			return nil
		}
		if st.rows {
			st.readRows()
			continue
		}
		if st.dump != nil {
			st.readDumpPiece()
			continue
		}
		cut := st.pieceEnd()
		if cut == 0 {
			st.done = true
			continue
		}
		st.readPiece(cut)
	}
	m := &st.msgs[st.next]
	st.next++
	n := 0
	for n < len(st.pending) && st.pending[n].Offset < m.Offset {
		n++
	}
	st.out = append(st.out[:0], st.pending[:n]...)
	st.pending = st.pending[:copy(st.pending, st.pending[n:])]
	return m
}

// pieceEnd reads until buf holds a complete line, or the text ends, and returns how much of
// buf to read next: its complete lines, or all of it at the end of the text.
func (st *Stream) pieceEnd() int {
	for {
		if i := bytes.LastIndexByte(st.buf, '\n'); i >= 0 {
			return i + 1
		}
		if st.eof {
			return len(st.buf)
		}
		st.fill()
	}
}

// Comments returns the capture file's "#" lines that came before the message Next last
// returned (after the one before it), or, once Next has returned nil, the rest. They are valid
// until the next call to Next.
func (st *Stream) Comments() []Comment { return st.out }

// Errors returns the problems met since the last call: lines that do not fit the format (each
// skipped, as Parse skips it). For a text read whole they are the errors Parse returned.
func (st *Stream) Errors() []*Error {
	e := st.errs
	st.errs = nil
	return e
}

// Err returns the error that ended reading the text early, or nil when it was read to its end.
func (st *Stream) Err() error { return st.rerr }

// PieceByPiece reports whether the text is read piece by piece (so the number of messages is
// known only at its end) rather than whole.
func (st *Stream) PieceByPiece() bool { return st.p != nil }
