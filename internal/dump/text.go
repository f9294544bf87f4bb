package dump

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/guide"
)

// Limits of the dump's columns when --full is not given.
const (
	hexShown      = 8   // fields up to this many bytes show all their bytes
	hexShownCut   = 4   // longer fields show this many, an ellipsis and the byte count
	valueShown    = 160 // values whose text is longer than this (in bytes) are cut, ending in …
	nameColumnMax = 44  // the name column is as wide as its longest name, up to this
)

// ANSI SGR colours, by field kind.
const (
	sgrReset   = "\x1b[0m"
	sgrBold    = "\x1b[1m"
	sgrDim     = "\x1b[2m"
	sgrRed     = "\x1b[31m"
	sgrBoldRed = "\x1b[1;31m"
)

var kindColor = [...]string{
	decoder.KindGroup:     "\x1b[1m",
	decoder.KindType:      "\x1b[1;35m",
	decoder.KindInteger:   "",
	decoder.KindLSN:       "\x1b[34m",
	decoder.KindTime:      "\x1b[36m",
	decoder.KindXid:       "\x1b[33m",
	decoder.KindOID:       "\x1b[33m",
	decoder.KindString:    "\x1b[32m",
	decoder.KindMarker:    "\x1b[35m",
	decoder.KindLength:    "\x1b[90m",
	decoder.KindValue:     "\x1b[32m",
	decoder.KindFlags:     "\x1b[35m",
	decoder.KindUndecoded: "\x1b[31m",
}

// Text writes the annotated dump of decode, one field per line (docs/cli.md). Set its
// options, then use it as a Writer once. The first write error is kept and returned by End;
// later writes are skipped.
type Text struct {
	// W receives the dump.
	W io.Writer
	// Color colours the dump with ANSI SGR codes; Full writes long values and hex in full
	// instead of cutting them.
	Color, Full bool
	// Explain writes each field's explain sentence under its line (explain.go).
	Explain bool
	// Lens marks what a release or protocol version does not send (lens.go); off when its
	// Absent is nil.
	Lens guide.Lens

	exp []byte // scratch for an explain sentence
	lensState
	buf []byte
	lab []byte // scratch for a label
	err error
	// countAtEnd: the message count was not known at the start; end writes it.
	countAtEnd bool
}

func (d *Text) flushLine() {
	d.buf = append(d.buf, '\n')
	if d.err == nil {
		_, d.err = d.W.Write(d.buf)
	}
	d.buf = d.buf[:0]
}

func (d *Text) sgr(code string) {
	if d.Color && code != "" {
		d.buf = append(d.buf, code...)
	}
}

func (d *Text) reset(code string) {
	if d.Color && code != "" {
		d.buf = append(d.buf, sgrReset...)
	}
}

// Begin writes the format line and what the input package said about the input.
func (d *Text) Begin(res *input.Result, count int) {
	d.buf = append(d.buf, "format "...)
	d.buf = append(d.buf, res.Format...)
	if count >= 0 {
		d.buf = append(d.buf, ", "...)
		d.buf = appendCount(d.buf, count)
	} else {
		// Read piece by piece: the count comes at the end.
		d.buf = append(d.buf, ", decoded as it is read"...)
		d.countAtEnd = true
	}
	d.flushLine()
	d.lensHeader()
	for _, h := range res.Header {
		d.sgr(sgrDim)
		d.buf = append(d.buf, "# "...)
		d.buf = pgvalue.AppendSafe(d.buf, h)
		d.reset(sgrDim)
		d.flushLine()
	}
	// How the input was read: byte order, a file split into messages, other readings.
	for _, n := range res.Notes {
		d.buf = append(d.buf, "note"...)
		if n.Message >= 0 {
			d.buf = append(d.buf, " (message "...)
			d.buf = strconv.AppendInt(d.buf, int64(n.Message), 10)
			d.buf = append(d.buf, ')')
		}
		d.buf = append(d.buf, ": "...)
		d.buf = pgvalue.AppendSafe(d.buf, n.Text)
		d.flushLine()
	}
	for _, a := range res.Also {
		d.buf = append(d.buf, "also possible: --format "...)
		d.buf = pgvalue.AppendSafe(d.buf, string(a.Format))
		d.buf = append(d.buf, ", "...)
		d.buf = strconv.AppendInt(d.buf, int64(a.Messages), 10)
		d.buf = append(d.buf, pgvalue.Plural(a.Messages, " message", " messages")...)
		d.buf = append(d.buf, ": "...)
		d.buf = pgvalue.AppendSafe(d.buf, a.Note)
		d.flushLine()
	}
}

// InputErrors does nothing: the dump's input errors are on stderr.
func (d *Text) InputErrors([]*input.Error) {}

// Comment writes a capture file's "#" line where it came, between messages.
func (d *Text) Comment(index int, text string) {
	d.flushLine()
	d.sgr(sgrDim)
	d.buf = append(d.buf, "# "...)
	d.buf = pgvalue.AppendSafe(d.buf, text)
	d.reset(sgrDim)
	d.flushLine()
}

// Connections writes a capture's connections: what each was for and who spoke on it, how it
// was captured, the replication command it sent and how it went.
func (d *Text) Connections(conns []Connection) {
	d.flushLine()
	for i := range conns {
		c := &conns[i]
		d.sgr(sgrBold)
		d.buf = append(d.buf, "connection "...)
		d.buf = strconv.AppendInt(d.buf, int64(i+1), 10)
		d.buf = append(d.buf, ": "...)
		d.reset(sgrBold)
		d.buf = pgvalue.AppendSafe(d.buf, c.Summary())
		d.flushLine()
		var cmds []string
		for _, rc := range c.Commands {
			cmds = append(cmds, rc.String())
		}
		for _, line := range []string{c.Describe(), strings.Join(cmds, "; "), c.Outcome()} {
			if line != "" {
				d.buf = append(d.buf, "  "...)
				d.buf = pgvalue.AppendSafe(d.buf, line)
				d.flushLine()
			}
		}
	}
}

// End writes the count of an input read piece by piece and the lens's summary, and returns
// the first write error.
func (d *Text) End(count int) error {
	if d.countAtEnd {
		d.flushLine()
		d.buf = append(d.buf, "end of input, "...)
		d.buf = appendCount(d.buf, count)
		d.flushLine()
	}
	d.lensSummary()
	return d.err
}

// appendCount appends "N message(s)".
func appendCount(dst []byte, n int) []byte {
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, pgvalue.Plural(n, " message", " messages")...)
}

// Message writes one message: its header line, any note, one line per node and the error.
func (d *Text) Message(index int, m *Message) {
	d.flushLine()
	t := m.Tree
	d.sgr(sgrBold)
	d.buf = append(d.buf, "message "...)
	d.buf = strconv.AppendInt(d.buf, int64(index), 10)
	if m.Line > 0 {
		d.buf = append(d.buf, ", line "...)
		d.buf = strconv.AppendInt(d.buf, int64(m.Line), 10)
	}
	if m.Frame > 0 { // a packet capture's frame, as Wireshark numbers them
		d.buf = append(d.buf, ", frame "...)
		d.buf = strconv.AppendInt(d.buf, int64(m.Frame), 10)
	}
	if m.Time != 0 { // its capture time, of the day: the connections at the end give dates
		d.buf = append(d.buf, ", "...)
		at := len(d.buf)
		d.buf = pgvalue.AppendUnixNano(d.buf, m.Time)
		d.buf = append(d.buf[:at], d.buf[at+11:len(d.buf)-1]...)
	}
	if m.Conn > 0 {
		d.buf = append(d.buf, ", connection "...)
		d.buf = strconv.AppendInt(d.buf, int64(m.Conn), 10)
	}
	if m.Side != decoder.SideUnknown {
		d.buf = append(d.buf, ", "...)
		d.buf = append(d.buf, m.Side.String()...)
	}
	if m.Lost > 0 { // bytes of its direction the capture lost right before it
		d.buf = append(d.buf, ", after "...)
		d.buf = strconv.AppendInt(d.buf, int64(m.Lost), 10)
		d.buf = append(d.buf, " bytes lost"...)
	}
	if m.HasLSN {
		d.buf = append(d.buf, ", LSN "...)
		d.buf = pgvalue.AppendLSN(d.buf, m.LSN)
	}
	if m.HasXid {
		d.buf = append(d.buf, ", xid "...)
		d.buf = strconv.AppendUint(d.buf, uint64(m.Xid), 10)
	}
	d.buf = append(d.buf, ": "...)
	d.buf = appendTypeChain(d.buf, t)
	if t.Relation != nil {
		d.buf = append(d.buf, " of "...)
		d.buf = pgvalue.AppendSafe(d.buf, t.Relation.QualifiedName())
	}
	d.buf = append(d.buf, ", "...)
	d.buf = strconv.AppendInt(d.buf, int64(len(t.Bytes)), 10)
	d.buf = append(d.buf, pgvalue.Plural(len(t.Bytes), " byte", " bytes")...)
	d.reset(sgrBold)
	d.flushLine()
	for _, note := range t.Notes() {
		d.buf = append(d.buf, "  note: "...)
		d.buf = pgvalue.AppendSafe(d.buf, note)
		d.flushLine()
	}

	offWidth := max(len(strconv.Itoa(max(len(t.Bytes)-1, 0))), 4)
	// The name column is as wide as the longest label: a first pass measures them, without
	// keeping them (a message may have millions of nodes).
	nameWidth := 0
	for i := range t.Nodes {
		d.lab = t.AppendLabel(d.lab[:0], i)
		nameWidth = max(nameWidth, 2*int(t.Nodes[i].Depth)+utf8.RuneCount(d.lab))
	}
	nameWidth = min(nameWidth, nameColumnMax)
	d.lensMessage(index)
	for i := range t.Nodes {
		d.node(t, i, offWidth, nameWidth)
	}
	if t.Err != nil {
		d.sgr(sgrBoldRed)
		d.buf = append(d.buf, "  error at offset "...)
		d.buf = strconv.AppendInt(d.buf, int64(t.Err.Offset), 10)
		d.buf = append(d.buf, ": "...)
		d.buf = pgvalue.AppendSafe(d.buf, t.Err.Error())
		d.reset(sgrBoldRed)
		d.flushLine()
	}
}

// hexWidth is the width of the hex column: hexShown bytes.
const hexWidth = 3*hexShown - 1

// node writes one line: offset, hex, indented name, value. With --full, long hex and values are
// written a piece at a time, so a line of any length takes bounded memory.
func (d *Text) node(t *decoder.Tree, i int, offWidth, nameWidth int) {
	n := &t.Nodes[i]
	leaf := t.IsLeaf(i)
	kind := n.Field.Info().Kind
	color := ""
	if int(kind) < len(kindColor) {
		color = kindColor[kind]
	}

	d.buf = append(d.buf, "  "...)
	d.sgr(sgrDim)
	d.buf = appendPadLeft(d.buf, n.Offset, offWidth)
	d.reset(sgrDim)
	d.buf = append(d.buf, "  "...)
	width := 0
	if leaf {
		width = d.fieldHex(t.Bytes[n.Offset : n.Offset+n.Length])
	}
	d.buf = appendSpaces(d.buf, hexWidth-width)
	d.buf = append(d.buf, "  "...)

	d.buf = appendSpaces(d.buf, 2*int(n.Depth))
	d.sgr(color)
	start := len(d.buf)
	d.buf = t.AppendLabel(d.buf, i) // display text: names in it are escaped
	width = 2*int(n.Depth) + utf8.RuneCount(d.buf[start:])
	d.reset(color)
	d.buf = appendSpaces(d.buf, nameWidth-width)
	d.buf = append(d.buf, "  "...)

	if !leaf {
		d.sgr(sgrDim)
		d.buf = append(d.buf, '(')
		d.buf = strconv.AppendInt(d.buf, int64(n.Length), 10)
		d.buf = append(d.buf, pgvalue.Plural(n.Length, " byte)", " bytes)")...)
		d.reset(sgrDim)
	} else {
		d.sgr(color)
		var valueErr error
		if d.Full {
			valueErr = t.ValueError(i)
			if err := t.WriteValue(pieceWriter{d}, i); err != nil && d.err == nil {
				d.err = err
			}
		} else {
			// Only what is shown is formatted; the hex column gives the field's byte count.
			var cut bool
			d.buf, cut, valueErr = t.AppendValueLimit(d.buf, i, valueShown)
			if cut {
				d.buf = append(d.buf, "…"...)
			}
		}
		d.reset(color)
		if n.Field == decoder.FieldColumnValue {
			if name := columnType(t, i); name != "" {
				d.sgr(sgrDim)
				d.buf = append(d.buf, "  ::"...)
				d.buf = pgvalue.AppendSafe(d.buf, name)
				d.reset(sgrDim)
			}
		}
		if valueErr != nil {
			// The value is shown as bytes; say why, as the JSON's value_error does.
			d.sgr(sgrRed)
			d.buf = append(d.buf, "  value error: "...)
			d.buf = pgvalue.AppendSafe(d.buf, valueErr.Error())
			d.reset(sgrRed)
		}
	}
	// No trailing blanks on lines whose value is empty.
	for len(d.buf) > 0 && d.buf[len(d.buf)-1] == ' ' {
		d.buf = d.buf[:len(d.buf)-1]
	}
	d.flushLine()
	indent := offWidth + hexWidth + 6 + 2*int(n.Depth)
	if d.Lens.On() {
		d.lensLine(t, i, indent)
	}
	if d.Explain {
		d.explainLine(t, i, indent)
	}
}

// linePiece is how much of a line the dumper holds before writing it out.
const linePiece = 64 << 10

// flushPiece writes out the line so far once it is long (its end follows).
func (d *Text) flushPiece() {
	if len(d.buf) >= linePiece {
		if d.err == nil {
			_, d.err = d.W.Write(d.buf)
		}
		d.buf = d.buf[:0]
	}
}

// pieceWriter appends to the dumper's line, writing it out a piece at a time.
type pieceWriter struct{ d *Text }

func (p pieceWriter) Write(b []byte) (int, error) {
	p.d.buf = append(p.d.buf, b...)
	p.d.flushPiece()
	return len(b), p.d.err
}

// fieldHex appends a field's bytes as spaced hex pairs, long fields cut to their first bytes,
// an ellipsis and the byte count (all of them with --full, a piece at a time), and returns the
// width it took.
func (d *Text) fieldHex(b []byte) int {
	shown := b
	if !d.Full && len(b) > hexShown {
		shown = b[:hexShownCut]
	}
	start := len(d.buf)
	width := 0
	for j, c := range shown {
		if j > 0 {
			d.buf = append(d.buf, ' ')
		}
		d.buf = append(d.buf, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
		if len(d.buf) >= linePiece {
			width += len(d.buf) - start
			d.flushPiece()
			start = 0
		}
	}
	if len(shown) < len(b) {
		d.buf = append(d.buf, " … "...)
		d.buf = strconv.AppendInt(d.buf, int64(len(b)), 10)
		d.buf = append(d.buf, " bytes"...)
	}
	return width + utf8.RuneCount(d.buf[start:])
}

// appendTypeChain appends what the message is, envelopes first: "XLogData > Update".
func appendTypeChain(dst []byte, t *decoder.Tree) []byte {
	if len(t.Nodes) == 0 {
		return append(dst, "nothing decoded"...)
	}
	last := max(t.Message, 0)
	first := true
	for i := 0; i <= last; i++ {
		n := &t.Nodes[i]
		if i == last || (int(n.End) > last && !t.IsLeaf(i)) {
			if !first {
				dst = append(dst, " > "...)
			}
			first = false
			if i == t.Message && t.Type == 0 {
				dst = append(dst, "unknown message type "...)
				dst = t.AppendValue(dst, i)
			} else {
				dst = append(dst, n.Field.Info().Name...)
			}
		}
	}
	return dst
}

// columnType names the type of column value node i from its Relation message (a built-in
// type's name, or namespace.name from a Type message), or returns "" when it is not known.
func columnType(t *decoder.Tree, i int) string {
	if c := t.Column(i); c != nil {
		return c.TypeName
	}
	return ""
}

func appendSpaces(dst []byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, ' ')
	}
	return dst
}

// appendPadLeft appends v in decimal, right-aligned in width columns.
func appendPadLeft(dst []byte, v, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(v), 10)
	dst = appendSpaces(dst, width-len(s))
	return append(dst, s...)
}
