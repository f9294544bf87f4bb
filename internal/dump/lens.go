package dump

import (
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
)

// The version lens in the dump (decode --release N --protocol N): each message, field and
// value that the chosen PostgreSQL release or protocol version does not send gets a line
// under its own, "not at PostgreSQL 13: Stream Start is sent since PostgreSQL 14, protocol
// 2", from the decoder's version tables through guide.Lens, as the page marks it. A field
// inside something marked for the same reason is not marked again. A zero Lens marks
// nothing.

// sgrLens colours a lens line.
const sgrLens = "\x1b[33m"

// lensListed is how many message indices the lens's last line lists.
const lensListed = 20

// lensState is what the lens has seen: per depth, the mark of the node last written there
// (a node's parent is the last node one level up), and the marks so far.
type lensState struct {
	absent     []string
	marks      int   // lines written
	messages   int   // messages with a line
	listed     []int // the first lensListed of them
	msgIndex   int
	msgMarked  bool
	lensText   []byte
	lensValues []byte
}

// lensHeader says, after the format line, what the lens marks.
func (d *Text) lensHeader() {
	if !d.Lens.On() {
		return
	}
	d.buf = append(d.buf, "seen as "...)
	d.buf = append(d.buf, d.Lens.Name()...)
	d.buf = append(d.buf, ": what is not sent there is marked \"not at "...)
	d.buf = append(d.buf, d.Lens.Name()...)
	d.buf = append(d.buf, "\", with since when it is"...)
	d.flushLine()
}

// lensMessage starts message index.
func (d *Text) lensMessage(index int) {
	d.absent = d.absent[:0]
	d.msgIndex, d.msgMarked = index, false
}

// lensLine writes node i's mark, when the lens lacks it and its parent is not marked for the
// same reason.
func (d *Text) lensLine(t *decoder.Tree, i, indent int) {
	depth := int(t.Nodes[i].Depth)
	for len(d.absent) <= depth {
		d.absent = append(d.absent, "")
	}
	since := d.Lens.Absent(t, i)
	d.absent[depth] = since
	if since == "" || depth > 0 && d.absent[depth-1] == since {
		return
	}
	n := &t.Nodes[i]
	b := append(d.lensText[:0], "not at "...)
	b = append(b, d.Lens.Name()...)
	b = append(b, ": "...)
	if decoder.FieldAt(n.Field, d.Lens.Release, d.Lens.Proto).Exists {
		// The field is there; the value it holds came later (TupleData's 'b').
		b = append(b, "the value "...)
		d.lensValues, _, _ = t.AppendValueLimit(d.lensValues[:0], i, valueShown)
		b = append(b, d.lensValues...)
	} else {
		b = pgvalue.AppendSafe(b, n.Field.Info().Name)
	}
	b = append(b, " is sent "...)
	b = append(b, since...)
	d.lensText = b
	d.wrapped(strings.Fields(string(b)), indent, sgrLens)
	d.marks++
	if !d.msgMarked {
		d.msgMarked = true
		d.messages++
		if len(d.listed) < lensListed {
			d.listed = append(d.listed, d.msgIndex)
		}
	}
}

// lensSummary ends the dump with what the lens marked.
func (d *Text) lensSummary() {
	if !d.Lens.On() {
		return
	}
	d.flushLine()
	d.buf = append(d.buf, "seen as "...)
	d.buf = append(d.buf, d.Lens.Name()...)
	if d.marks == 0 {
		d.buf = append(d.buf, ": every message, field and value decoded is sent there"...)
		d.flushLine()
		return
	}
	d.buf = append(d.buf, ": "...)
	d.buf = strconv.AppendInt(d.buf, int64(d.marks), 10)
	d.buf = append(d.buf, pgvalue.Plural(d.marks, " mark", " marks")...)
	d.buf = append(d.buf, " in "...)
	d.buf = appendCount(d.buf, d.messages)
	d.buf = append(d.buf, " ("...)
	for k, m := range d.listed {
		if k > 0 {
			d.buf = append(d.buf, ", "...)
		}
		d.buf = strconv.AppendInt(d.buf, int64(m), 10)
	}
	if d.messages > len(d.listed) {
		d.buf = append(d.buf, ", …"...)
	}
	d.buf = append(d.buf, ')')
	d.flushLine()
}
