package main

import (
	"io"
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
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

// dumper writes the annotated dump. The first write error is kept in err; later writes are
// skipped.
type dumper struct {
	w     io.Writer
	color bool
	full  bool
	buf   []byte
	val   []byte // scratch for a value's text
	err   error
	// countAtEnd: the message count was not known at the start; end writes it.
	countAtEnd bool
}

func (d *dumper) flushLine() {
	d.buf = append(d.buf, '\n')
	if d.err == nil {
		_, d.err = d.w.Write(d.buf)
	}
	d.buf = d.buf[:0]
}

func (d *dumper) sgr(code string) {
	if d.color && code != "" {
		d.buf = append(d.buf, code...)
	}
}

func (d *dumper) reset(code string) {
	if d.color && code != "" {
		d.buf = append(d.buf, sgrReset...)
	}
}

func (d *dumper) begin(res *input.Result, count int) {
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
		d.buf = append(d.buf, plural(a.Messages, " message", " messages")...)
		d.buf = append(d.buf, ": "...)
		d.buf = pgvalue.AppendSafe(d.buf, a.Note)
		d.flushLine()
	}
}

// inputErrors does nothing: the dump's input errors are on stderr.
func (d *dumper) inputErrors([]*input.Error) {}

// comment writes a capture file's "#" line where it came, between messages.
func (d *dumper) comment(index int, text string) {
	d.flushLine()
	d.sgr(sgrDim)
	d.buf = append(d.buf, "# "...)
	d.buf = pgvalue.AppendSafe(d.buf, text)
	d.reset(sgrDim)
	d.flushLine()
}

func (d *dumper) end(count int) error {
	if d.countAtEnd {
		d.flushLine()
		d.buf = append(d.buf, "end of input, "...)
		d.buf = appendCount(d.buf, count)
		d.flushLine()
	}
	return d.err
}

// appendCount appends "N message(s)".
func appendCount(dst []byte, n int) []byte {
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, plural(n, " message", " messages")...)
}

// message writes one message: its header line, any note, one line per node and the error.
func (d *dumper) message(index int, m *decodedMessage) {
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
	if m.HasLSN {
		d.buf = append(d.buf, ", LSN "...)
		d.buf = pgvalue.AppendLSN(d.buf, m.LSN)
	}
	if m.HasXid {
		d.buf = append(d.buf, ", xid "...)
		d.buf = strconv.AppendUint(d.buf, uint64(m.Xid), 10)
	}
	d.buf = append(d.buf, ": "...)
	d.buf = append(d.buf, typeChain(t)...)
	if t.Relation != nil {
		d.buf = append(d.buf, " of "...)
		d.buf = pgvalue.AppendSafe(d.buf, t.Relation.QualifiedName())
	}
	d.buf = append(d.buf, ", "...)
	d.buf = strconv.AppendInt(d.buf, int64(len(t.Bytes)), 10)
	d.buf = append(d.buf, plural(len(t.Bytes), " byte", " bytes")...)
	d.reset(sgrBold)
	d.flushLine()
	for _, note := range t.Notes() {
		d.buf = append(d.buf, "  note: "...)
		d.buf = pgvalue.AppendSafe(d.buf, note)
		d.flushLine()
	}

	offWidth := len(strconv.Itoa(max(len(t.Bytes)-1, 0)))
	offWidth = max(offWidth, 4)
	nameWidth := 0
	labels := make([]string, len(t.Nodes))
	for i := range t.Nodes {
		labels[i] = t.Label(i)
		nameWidth = max(nameWidth, 2*int(t.Nodes[i].Depth)+utf8.RuneCountInString(labels[i]))
	}
	nameWidth = min(nameWidth, nameColumnMax)
	hexWidth := 3*hexShown - 1
	for i := range t.Nodes {
		d.node(t, i, labels[i], offWidth, hexWidth, nameWidth)
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

// node writes one line: offset, hex, indented name, value.
func (d *dumper) node(t *decoder.Tree, i int, label string, offWidth, hexWidth, nameWidth int) {
	n := &t.Nodes[i]
	leaf := t.IsLeaf(i)
	kind := n.Field.Info().Kind
	color := ""
	if int(kind) < len(kindColor) {
		color = kindColor[kind]
	}

	d.buf = append(d.buf, "  "...)
	d.sgr(sgrDim)
	d.buf = appendPadLeft(d.buf, strconv.Itoa(n.Offset), offWidth)
	d.reset(sgrDim)
	d.buf = append(d.buf, "  "...)
	col := len(d.buf)
	if leaf {
		d.buf = d.appendFieldHex(d.buf, t.Bytes[n.Offset:n.Offset+n.Length])
	}
	d.buf = appendSpaces(d.buf, hexWidth-utf8.RuneCount(d.buf[col:]))
	d.buf = append(d.buf, "  "...)

	d.buf = appendSpaces(d.buf, 2*int(n.Depth))
	d.sgr(color)
	d.buf = append(d.buf, label...) // labels are display text: names in them are escaped
	d.reset(color)
	width := 2*int(n.Depth) + utf8.RuneCountInString(label)
	d.buf = appendSpaces(d.buf, nameWidth-width)
	d.buf = append(d.buf, "  "...)

	if !leaf {
		d.sgr(sgrDim)
		d.buf = append(d.buf, '(')
		d.buf = strconv.AppendInt(d.buf, int64(n.Length), 10)
		d.buf = append(d.buf, plural(n.Length, " byte)", " bytes)")...)
		d.reset(sgrDim)
	} else {
		var valueErr error
		d.val, valueErr = appendValue(d.val[:0], t, i)
		v := d.val
		d.sgr(color)
		if !d.full && len(v) > valueShown {
			cut := valueShown
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			// The hex column gives the field's byte count.
			d.buf = append(d.buf, v[:cut]...)
			d.buf = append(d.buf, "…"...)
		} else {
			d.buf = append(d.buf, v...)
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
}

// appendValue appends node i's display text (Tree.AppendValue) and, for a binary column value
// that does not fit its type (shown as its bytes), the reason.
func appendValue(dst []byte, t *decoder.Tree, i int) ([]byte, error) {
	if v := t.ValueOf(i); v.Kind == decoder.ValueColumn && v.ColumnKind == 'b' {
		b := t.ValueBytes(i)
		out, ok, err := pgvalue.AppendBinary(dst, v.TypeOID, b)
		if !ok {
			return pgvalue.AppendHex(dst, b), err
		}
		return out, nil
	}
	return t.AppendValue(dst, i), nil
}

// appendFieldHex appends a field's bytes as spaced hex pairs, cutting long fields to their first
// bytes, an ellipsis and the byte count.
func (d *dumper) appendFieldHex(dst, b []byte) []byte {
	shown := b
	if !d.full && len(b) > hexShown {
		shown = b[:hexShownCut]
	}
	for j, c := range shown {
		if j > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
	}
	if len(shown) < len(b) {
		dst = append(dst, " … "...)
		dst = strconv.AppendInt(dst, int64(len(b)), 10)
		dst = append(dst, " bytes"...)
	}
	return dst
}

// typeChain names what the message is, envelopes first: "XLogData > Update".
func typeChain(t *decoder.Tree) string {
	if len(t.Nodes) == 0 {
		return "nothing decoded"
	}
	var s string
	last := t.Message
	if last < 0 {
		last = 0
	}
	for i := 0; i <= last; i++ {
		n := &t.Nodes[i]
		if i == last || (int(n.End) > last && !t.IsLeaf(i)) {
			if s != "" {
				s += " > "
			}
			if i == t.Message && t.Type == 0 {
				s += "unknown message type " + t.Value(i)
			} else {
				s += n.Field.Info().Name
			}
		}
	}
	return s
}

// columnType names the type of column value node i from its Relation message (a built-in
// type's name, or namespace.name from a Type message), or returns "" when it is not known.
func columnType(t *decoder.Tree, i int) string {
	if c := t.Column(i); c != nil {
		return c.TypeName
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func appendSpaces(dst []byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, ' ')
	}
	return dst
}

func appendPadLeft(dst []byte, s string, width int) []byte {
	dst = appendSpaces(dst, width-len(s))
	return append(dst, s...)
}
