package dump

import (
	"bufio"
	"errors"
	"io"
	"runtime/debug"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
)

// Kind is what Decode writes.
type Kind uint8

// The kinds, each with decode's flag.
const (
	KindText      Kind = iota // the annotated dump (no flag)
	KindMarkdown              // the dump in Markdown (--markdown)
	KindJSON                  // one JSON document (--json)
	KindJSONLines             // one line of JSON per message (--json-lines)
	KindGoTest                // one message as a Go test against pglogrepl (--go-test N)
)

// Options are how Decode reads its input and what it writes: pgoutput-inspect decode's flags.
type Options struct {
	// Format reads the input as this format; input.Auto detects it (--format).
	Format input.Format
	// Live: the input may still be being written (a pipe), so decoding starts with a capture
	// file's first message.
	Live bool
	// Proto, InStream and ParallelAbort are the decoder's options (--proto, --in-stream,
	// --parallel-abort); a capture file's header fills in those left open. NoEnvelope: every
	// message is bare (--no-envelope).
	Proto                   int
	InStream, ParallelAbort decoder.Choice
	NoEnvelope              bool
	// Kind is what is written; Name names the input where the output does (Markdown's
	// heading, the Go test's comment).
	Kind Kind
	Name string
	// Color, Full, Explain and Lens are the text dump's (--color, --full, --explain,
	// --release and --protocol); Markdown takes Full, Explain and Lens.
	Color, Full, Explain bool
	Lens                 guide.Lens
	// GoTest is the message, counted from 1, that KindGoTest writes.
	GoTest int
}

// Result is what Decode met besides what it wrote.
type Result struct {
	// Unread is why no format reads the input (then nothing was written); an *input.Error
	// when the text is not one the formats read, another error when it could not be read.
	Unread error
	// Failed: the input or a message had an error (the output shows it).
	Failed bool
	// NoTest says why KindGoTest wrote no test.
	NoTest string
	// ReadErr is an error reading the input after its start (the messages before it were
	// written); WriteErr the first error writing the output.
	ReadErr, WriteErr error
}

// Decode reads the pgoutput messages of r, decodes them in order with one session and writes
// them to w as o says: what pgoutput-inspect decode prints, and the page's export worker
// (wasm/export) writes, with the same function. inputErrors, when not nil, is given the
// input's errors as they are met.
//
// The input is read a piece at a time (input.Stream): before each read, what was decoded so
// far goes out, so a live capture piped in shows each message as it arrives.
func Decode(w io.Writer, r io.Reader, o Options, inputErrors func([]*input.Error)) (res Result) {
	bw := bufio.NewWriterSize(w, 64<<10)
	st := input.NewStream(&flushingReader{r: r, w: bw}, o.Format)
	st.Live = o.Live
	in, err := st.Start()
	if in == nil {
		res.Unread = err
		return res
	}
	if !st.PieceByPiece() {
		// The text was read whole and parsed: it is garbage now, and so is every buffer it
		// outgrew. Hand that memory back before decoding, or a message of millions of fields
		// (a Truncate of 50 MB) has its nodes allocated on top of it.
		debug.FreeOSMemory()
	}
	capture := input.ReadCaptureOptions(in.Header)
	opts := capture.DecoderOptions(decoder.Options{Proto: o.Proto, InStream: o.InStream, ParallelAbort: o.ParallelAbort})
	if o.NoEnvelope {
		opts.Envelope = decoder.EnvelopeNone
	}
	var out Writer
	var gt *goTestWriter
	switch o.Kind {
	case KindGoTest:
		gt = &goTestWriter{w: bw, n: o.GoTest, name: o.Name}
		out = gt
	case KindJSON, KindJSONLines:
		out = NewJSON(bw, o.Kind == KindJSONLines)
	case KindMarkdown:
		out = Markdown{Text: &Text{W: bw, Full: o.Full, Explain: o.Explain, Lens: o.Lens}, Name: o.Name}
	default:
		out = &Text{W: bw, Color: o.Color, Full: o.Full, Explain: o.Explain, Lens: o.Lens}
	}
	if inputErrors == nil {
		inputErrors = func([]*input.Error) {}
	}
	res.Failed, res.WriteErr = DecodeAll(st, in, decoder.NewConnections(opts), out, inputErrors)
	if err := bw.Flush(); res.WriteErr == nil {
		res.WriteErr = err
	}
	if gt != nil {
		res.NoTest = gt.why
	}
	res.ReadErr = st.Err()
	return res
}

// DecodeAll decodes the messages st hands out with cs, in order (each with its connection's
// conversation, when the input is a capture), and writes them with out; the input's errors go
// to inputErrors (and to out, for an input read in pieces) as they are met. Messages are
// decoded one at a time into one reused tree, so memory stays flat however long the input. It
// reports whether the input or any message had an error, and returns out's first write error.
func DecodeAll(st *input.Stream, res *input.Result, cs *decoder.Connections, out Writer, inputErrors func([]*input.Error)) (failed bool, err error) {
	count := -1 // not known before the end of a text read piece by piece
	if !st.PieceByPiece() {
		count = len(res.Messages)
	}
	out.Begin(res, count)
	takeErrors := func() {
		errs := st.Errors()
		if len(errs) == 0 {
			return
		}
		failed = true
		inputErrors(errs)
		if st.PieceByPiece() {
			out.InputErrors(errs)
		}
	}
	takeErrors()
	for i, c := range res.Connections {
		if c.MidStream {
			cs.Conversation(i + 1).Resume()
		}
	}
	var t decoder.Tree
	dm := Message{Tree: &t}
	n := 0
	for m := st.Next(); m != nil; m = st.Next() {
		takeErrors()
		for _, c := range st.Comments() {
			out.Comment(n, c.Text)
		}
		cs.DecodeInto(&t, m.Bytes, m.Side, m.Conn)
		failed = failed || t.Err != nil
		dm.Message = m
		out.Message(n, &dm)
		n++
	}
	takeErrors()
	for _, c := range st.Comments() {
		out.Comment(n, c.Text)
	}
	if len(res.Connections) > 0 {
		out.Connections(Connections(res, cs))
	}
	return failed, out.End(n)
}

// Connections returns the connections of a capture with what their conversations said.
func Connections(res *input.Result, cs *decoder.Connections) []Connection {
	conns := make([]Connection, len(res.Connections))
	for i, c := range res.Connections {
		conns[i].Connection = c
		if i+1 < cs.Len() {
			conns[i].ConversationInfo = cs.Conversation(i + 1).Info
		}
	}
	return conns
}

// flushingReader flushes w before each read of r: whatever was decoded is written out before
// Decode waits for more input.
type flushingReader struct {
	r io.Reader
	w *bufio.Writer
}

func (f *flushingReader) Read(p []byte) (int, error) {
	if f.w.Buffered() > 0 {
		f.w.Flush() // a write error is kept by w and reported at the end
	}
	return f.r.Read(p)
}

// ErrTooLong is the write error of a Capped buffer that is full.
var ErrTooLong = errors.New("the output is longer than the most it may be")

// Capped is a buffer that holds at most Max bytes: a write past it fails with ErrTooLong (and
// the writers write nothing after a failed write).
type Capped struct {
	B   []byte
	Max int
}

func (c *Capped) Write(p []byte) (int, error) {
	if len(c.B)+len(p) > c.Max {
		return 0, ErrTooLong
	}
	c.B = append(c.B, p...)
	return len(p), nil
}
