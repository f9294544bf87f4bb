package input

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// Binary input: a file of one message's raw bytes, a pg_recvlogical -f file, or a packet
// capture. The same readers serve dumps of such files (xxd, hexdump, od, base64 of a file):
// after a dump is read, unwrap looks at its bytes.

// isBinary reports whether text holds bytes no text has: control characters other than
// blanks and line breaks, or bytes that are not UTF-8. pgoutput messages nearly always hold
// zero bytes (in their Int32 fields).
func isBinary(text []byte) bool {
	if len(text) > sniffWindow {
		text = text[:sniffWindow]
	}
	if bytes.IndexByte(text, '\n') > 0 {
		// psql -A -z puts a zero byte between fields, and encode(data, 'escape') leaves
		// control bytes raw in -A, --csv and -H output: psql's rows, not a binary file.
		if sm := newSample(text); sniffPsqlUnaligned(sm) || sniffPsqlCSV(sm) || sniffPsqlHTML(sm) {
			return false
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' || c == 0x7f {
			return true
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n == 1 {
			// A multi-byte character cut by the sniff window is still text.
			return len(text)-i >= utf8.UTFMax
		}
		i += n
	}
	return false
}

// sniffBinary accepts bytes that are not text and not a packet capture: a capture that cannot
// be read is reported as such, not shown as one message of raw bytes.
func sniffBinary(sm *sample) bool {
	return isBinary(sm.text) && !isPcap(sm.text) && !isPcapng(sm.text)
}

// readBinary reads a file of one message's bytes.
func readBinary(s *state) *failure {
	s.begin(0)
	s.buf = append(s.buf, s.text...)
	return nil
}

// readRecvLogical reads a pg_recvlogical -f file (pgoutput plugin): each message followed by a
// newline. Newline bytes also occur inside messages, so the file is split where a message,
// decoded, ends.
func readRecvLogical(s *state) *failure {
	cuts, bad := splitRecvLogical(s.text)
	if len(cuts) == 0 {
		return failf(0, "expected pgoutput messages each followed by a newline (pg_recvlogical -f): no newline ends a message that decodes")
	}
	if bad >= 0 && s.auto {
		return failf(bad, "expected pgoutput messages each followed by a newline (pg_recvlogical -f): no newline after byte "+itoa(bad)+" ends a message that decodes")
	}
	s.grow(len(s.text))
	s.growMessages(len(cuts) + 1)
	for _, c := range cuts {
		s.begin(c.start)
		s.buf = append(s.buf, s.text[c.start:c.end]...)
	}
	if bad >= 0 {
		s.begin(bad)
		s.buf = append(s.buf, s.text[bad:]...)
		s.note(len(s.msgs)-1, "No newline after byte "+itoa(bad)+" ends a message that decodes: the rest of the file is this one message.")
	}
	s.note(-1, "Split as a pg_recvlogical -f file: each message is followed by a newline, and a message ends where its decoded length says (newline bytes inside messages are data).")
	return nil
}

// cut is a message's [start, end) in a byte string.
type cut struct{ start, end int }

// splitRecvLogical splits b into messages each followed by '\n' (see recvSplitter). bad is the
// start of the first message that no newline ends, or -1.
func splitRecvLogical(b []byte) (cuts []cut, bad int) {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, 0
	}
	r := newRecvSplitter()
	for {
		c, st := r.next(b, true)
		switch st {
		case splitFound:
			cuts = append(cuts, c)
		case splitBad:
			return cuts, r.start
		default:
			return cuts, -1
		}
	}
}

// recvSplitter cuts a pg_recvlogical -f file into its messages, each followed by '\n', as its
// bytes arrive: for each message it tries the newlines after its start in order and takes the
// first that ends a message which decodes. Each newline is tried once, so the file read whole
// and read in pieces meet the same decoding session in the same order.
type recvSplitter struct {
	sess *decoder.Session
	// start is where the message being cut starts, min where the newline ending it may be at
	// the earliest; zero, when not -1, is where an unterminated string began (the message
	// goes on to the next zero byte at least).
	start, min, zero int
}

func newRecvSplitter() *recvSplitter {
	return &recvSplitter{sess: decoder.NewSession(decoder.Options{Envelope: decoder.EnvelopeNone}), min: 1, zero: -1}
}

// What recvSplitter.next found.
const (
	splitFound = iota // a message
	splitMore         // nothing yet: the message may end in bytes still to come
	splitEnd          // the bytes are all cut into messages
	splitBad          // no newline ends a message starting at start
)

// next cuts the next message out of b, which holds the file's bytes so far (final: all of
// them); offsets are b's. A message is taken at the first newline where it decodes; a failure
// that a longer message cannot mend (an unknown type, bytes after a complete message) ends the
// cutting.
func (r *recvSplitter) next(b []byte, final bool) (cut, int) {
	for r.start < len(b) {
		if r.zero >= 0 {
			z := bytes.IndexByte(b[r.zero:], 0)
			if z < 0 {
				break
			}
			r.min = max(r.min, r.zero+z+1)
			r.zero = -1
		}
		i := -1
		if r.min < len(b) {
			i = bytes.IndexByte(b[r.min:], '\n')
		}
		if i < 0 {
			break
		}
		p := r.min + i
		err := r.sess.Check(b[r.start:p])
		if err == nil {
			c := cut{r.start, p}
			r.start, r.min = p+1, p+2
			return c, splitFound
		}
		r.min = p + 1
		switch {
		case errors.Is(err, decoder.ErrTruncated):
			// The message is at least as long as the field that ran out needs.
			r.min = max(r.min, r.start+err.Offset+err.Need)
		case errors.Is(err, decoder.ErrUnterminated):
			r.zero = r.start + err.Offset
		default:
			// An unknown type, a value out of range, or bytes after a complete message:
			// no longer piece reads differently.
			return cut{}, splitBad
		}
	}
	switch {
	case !final:
		return cut{}, splitMore
	case r.start < len(b):
		return cut{}, splitBad
	}
	return cut{}, splitEnd
}

// nextQuick is next, faster where a message reads one way only (in a stream whose transactions
// are known to be streamed or not, from its first Begin or Stream Start on): such a message
// ends where its fields do, and one decode from its start finds the newline ending it, or how
// long it is at least. The cutter and Stream use it; Parse does not, for main.wasm's size.
func (r *recvSplitter) nextQuick(b []byte, final bool) (cut, int) {
	if r.start < len(b) && r.min == r.start+1 && r.sess.OneReading(b[r.start:]) {
		if err := r.sess.Check(b[r.start:]); err != nil {
			p := r.start + err.Offset
			if err.Field == decoder.FieldTrailing && b[p] == '\n' {
				r.start, r.min = p+1, p+2
				return cut{p - err.Offset, p}, splitFound
			}
			r.min = max(r.min, p+err.Need)
		}
	}
	return r.next(b, final)
}

// shift says that the first n bytes of the file are no longer in the b given to next.
func (r *recvSplitter) shift(n int) {
	r.start -= n
	r.min -= n
	if r.zero >= 0 {
		r.zero -= n
	}
}

// unwrap looks at the bytes of a dump that read as one message: a packet capture, a CopyBoth
// stream's bytes or a pg_recvlogical -f file is read as such, and its messages replace the one.
func (s *state) unwrap() {
	if len(s.msgs) != 1 {
		return
	}
	b := s.buf[s.starts[0]:]
	var kind string
	var c captureResult
	cb := splitCopyBoth(b)
	switch {
	case isPcap(b) || isPcapng(b):
		if c = readPacketCapture(b); c.err != "" || len(c.msgs) == 0 {
			return
		}
		kind = "a packet capture"
	case cb != nil:
		c, kind = *copyBothMsgs(b, cb), "a CopyBoth stream"
	default:
		cuts, bad := splitRecvLogical(b)
		if bad >= 0 || len(cuts) < 2 {
			return
		}
		kind = "a pg_recvlogical -f file"
		c.msgs = make([]pgMsg, len(cuts))
		for i, cut := range cuts {
			c.msgs[i] = pgMsg{b: b[cut.start:cut.end], off: cut.start}
		}
		c.notes = []string{"Split as a pg_recvlogical -f file: each message is followed by a newline, and a message ends where its decoded length says (newline bytes inside messages are data)."}
	}
	msgs0 := s.msgs[0]
	rows := s.rows
	s.buf = s.buf[:s.starts[0]]
	s.msgs, s.starts = s.msgs[:0], s.starts[:0]
	s.growMessages(len(c.msgs))
	for _, m := range c.msgs {
		// Each message starts on the dump row that holds its first byte.
		at := msgs0.Offset
		if r := rowAt(rows, m.off); r >= 0 {
			at = r
		}
		msg := s.begin(at)
		msg.Frame, msg.Side, msg.Conn, msg.Time = m.frame, m.side, m.conn, m.ts
		s.buf = append(s.buf, m.b...)
	}
	s.conns = c.conns
	s.note(-1, "The dumped bytes are "+kind+": "+itoa(len(c.msgs))+" messages.")
	for _, n := range c.notes {
		s.note(-1, n)
	}
}

// dumpRowRef records where a dump row's bytes start in the output and in the text.
type dumpRowRef struct{ out, text int }

// rowAt returns the text offset of the row holding output byte off, or -1.
func rowAt(rows []dumpRowRef, off int) int {
	lo, hi := 0, len(rows)
	for lo < hi {
		m := (lo + hi) / 2
		if rows[m].out <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return -1
	}
	return rows[lo-1].text
}

// rivals lists the formats that may also read a text that format f reads, and give other
// messages: the reading whose messages decode is kept (see choose).
func rivals(f Format) []Format {
	switch f {
	case Hex:
		return []Format{WiresharkStream, TCPPayload, Base64}
	case JSONArray:
		return []Format{RustHex}
	case Base64:
		return []Format{Base64Wrapped}
	case Base64Wrapped:
		return []Format{Base64}
	case XxdPlain:
		return []Format{Hex}
	}
	return nil
}

// IsBinary reports whether b is a binary file rather than text: a packet capture, or bytes
// that no text holds (see isBinary).
func IsBinary(b []byte) bool { return isPcap(b) || isPcapng(b) || isBinary(b) }

// IsBinaryText is IsBinary of bytes held as a string: its first bytes decide, as they do
// for IsBinary, so only they are copied.
func IsBinaryText(s string) bool { return IsBinary([]byte(s[:min(len(s), sniffWindow)])) }

// splitCopyBoth cuts b into the typed protocol messages (a type byte, an Int32 length) of a
// CopyBoth stream's bytes: at least two, CopyData among them, following one another to the
// end. It returns nil when b is not that.
func splitCopyBoth(b []byte) []cut {
	var cuts []cut
	copyData := false
	for pos := 0; pos < len(b); {
		if !validMsg(b, pos) || msgLen(b, pos) > len(b)-pos {
			return nil
		}
		copyData = copyData || b[pos] == 'd'
		cuts = append(cuts, cut{pos, pos + msgLen(b, pos)})
		pos = cuts[len(cuts)-1].end
	}
	if len(cuts) < 2 || !copyData {
		return nil
	}
	return cuts
}

// copyBothMsgs makes the messages of a CopyBoth stream, each with its sender: a CopyData
// holding a standby status update ('r') or hot standby feedback ('h') is the client's,
// CopyDone either side's, everything else the server's.
func copyBothMsgs(b []byte, cuts []cut) *captureResult {
	c := &captureResult{msgs: make([]pgMsg, len(cuts))}
	for i, k := range cuts {
		m := b[k.start:k.end]
		side := decoder.Backend
		if m[0] == 'c' {
			side = decoder.SideUnknown
		} else if m[0] == 'd' && len(m) > 5 && (m[5] == 'r' || m[5] == 'h') {
			side = decoder.Frontend
		}
		c.msgs[i] = pgMsg{b: m, off: k.start, side: side}
	}
	c.notes = []string{"Read as a CopyBoth stream's bytes: " + itoa(len(cuts)) + " protocol messages one after another, each cut where its length says."}
	return c
}

// readCopyBoth reads the bytes of a replication connection's CopyBoth stream.
func readCopyBoth(s *state) *failure {
	cuts := splitCopyBoth(s.text)
	if cuts == nil {
		return failf(0, "expected a CopyBoth stream's bytes: protocol messages one after another, each a type byte and an Int32 length ('d' CopyData among them)")
	}
	s.takeCapture(copyBothMsgs(s.text, cuts))
	return nil
}
