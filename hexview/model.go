// Package hexview lays out bytes as a hex dump whose bytes are tinted by the protocol field
// they belong to.
//
// The input is the bytes and a list of spans (offset, length, class, the caller's node id),
// typically the leaves of a decoded message's tree. The package knows nothing of the protocol:
// it only draws runs of bytes. Model is pure and immutable; Rows lays out only the rows asked
// for, so the cost of drawing one screen does not depend on the size of the input. View (in
// package hexview/render) is the vecty component that draws the rows in view.
package hexview

import (
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder/pgvalue"
)

// DefaultWidth is the number of bytes a row shows unless New is told otherwise.
const DefaultWidth = 16

// MaxWidth is the largest number of bytes a row may show.
const MaxWidth = 256

// minOffsetDigits is the fewest hex digits the offset column shows, so that short inputs
// still read as offsets (0000, 0010, …) rather than as small numbers.
const minOffsetDigits = 4

// NoSpan is the span index of bytes that lie between spans (a gap).
const NoSpan = -1

// NoID is the node id reported for bytes that lie between spans (a gap).
const NoID int32 = -1

// Class says what kind of field a span's bytes hold; each class has its own tint.
type Class uint8

// Classes. ClassNone is also how gaps between spans are drawn; mark bytes that could not be
// decoded with ClassError spans so that they stand out.
const (
	ClassNone     Class = iota // not described by any field
	ClassType                  // a message type byte ('B', 'I', 'w', …)
	ClassInteger               // a count or other plain integer
	ClassLSN                   // a log sequence number
	ClassTime                  // a timestamp
	ClassXid                   // a transaction id
	ClassOID                   // an object id (relation, type, namespace)
	ClassString                // a NUL-terminated string
	ClassMarker                // a one-byte marker ('n', 'u', 't', 'b', replica identity, …)
	ClassLength                // a length prefix
	ClassValue                 // a column value or other raw content
	ClassFlags                 // a bit set
	ClassError                 // bytes that could not be decoded, or the field in error
	ClassEnvelope              // CopyData / XLogData / keepalive framing around a message
	ClassAbsent                // a field the release or protocol version chosen does not have
	ClassDiffers               // a field that differs from the same field of a message compared with
	numClasses
)

var classNames = [numClasses]string{
	ClassNone:     "k-none",
	ClassType:     "k-type",
	ClassInteger:  "k-int",
	ClassLSN:      "k-lsn",
	ClassTime:     "k-time",
	ClassXid:      "k-xid",
	ClassOID:      "k-oid",
	ClassString:   "k-str",
	ClassMarker:   "k-marker",
	ClassLength:   "k-len",
	ClassValue:    "k-value",
	ClassFlags:    "k-flags",
	ClassError:    "k-error",
	ClassEnvelope: "k-env",
	ClassAbsent:   "k-absent",
	ClassDiffers:  "k-diff",
}

// String returns the CSS class that tints the class's bytes, such as "k-lsn"; hexview.css
// defines a colour variable of the same name (--k-lsn) for each. Unknown classes give "k-none".
func (c Class) String() string {
	if c < numClasses {
		return classNames[c]
	}
	return classNames[ClassNone]
}

// Classes returns every class, in order.
func Classes() []Class {
	cs := make([]Class, numClasses)
	for i := range cs {
		cs[i] = Class(i)
	}
	return cs
}

// Range is a run of bytes [Offset, Offset+Length). A Range of length zero is empty.
type Range struct {
	Offset, Length int
}

// End returns the offset just past the range.
func (r Range) End() int { return r.Offset + r.Length }

// Empty reports whether the range holds no bytes.
func (r Range) Empty() bool { return r.Length <= 0 }

// Contains reports whether offset lies in the range.
func (r Range) Contains(offset int) bool { return offset >= r.Offset && offset < r.End() }

// Union returns the smallest range holding both r and o; an empty range adds nothing.
func (r Range) Union(o Range) Range {
	switch {
	case o.Empty():
		return r
	case r.Empty():
		return o
	}
	start, end := min(r.Offset, o.Offset), max(r.End(), o.End())
	return Range{start, end - start}
}

// Span is a run of bytes that one field holds.
type Span struct {
	Offset, Length int
	Class          Class
	// ID is the caller's id for the field (for example its node index in a decoded tree); the
	// hex view hands it back on hover and click.
	ID int32
}

// End returns the offset just past the span.
func (s Span) End() int { return s.Offset + s.Length }

// Range returns the bytes the span covers.
func (s Span) Range() Range { return Range{s.Offset, s.Length} }

// SpanError says why New refused a span.
type SpanError struct {
	Index int  // position of the span in the list given to New
	Span  Span // the span refused
	// Reason says what was wrong, naming the offsets involved.
	Reason string
}

func (e *SpanError) Error() string {
	return "hexview: span " + strconv.Itoa(e.Index) + " (offset " + strconv.Itoa(e.Span.Offset) +
		", length " + strconv.Itoa(e.Span.Length) + "): " + e.Reason
}

// Model is the layout of some bytes as rows of a hex dump. It does not change once built, so
// one Model can be shared by any number of renders.
type Model struct {
	data   []byte
	spans  []Span
	width  int
	digits int
	// changed are the bytes marked as changed (WithChanged), sorted, not overlapping; noted
	// those marked as noted (WithNoted), sorted, neither overlapping nor touching.
	changed, noted []Range
}

// New returns the layout of data with rows of width bytes (DefaultWidth when width <= 0).
//
// spans must be sorted by offset, must not overlap and must lie within data; gaps between
// them are allowed and drawn as ClassNone. Spans of length zero hold no bytes and are left
// out (SpanAt never returns them). A span that breaks these rules is reported as a
// *SpanError naming it, and no Model is returned: the view never guesses which of two
// overlapping fields a byte belongs to. New keeps data and a copy of spans; data must not be
// changed afterwards.
func New(data []byte, spans []Span, width int) (*Model, error) {
	if width <= 0 {
		width = DefaultWidth
	}
	if width > MaxWidth {
		return nil, &SpanError{Index: -1, Reason: "row width " + strconv.Itoa(width) +
			" is more than " + strconv.Itoa(MaxWidth) + " bytes"}
	}
	kept := make([]Span, 0, len(spans))
	end := 0 // end of the last span kept
	for i, s := range spans {
		switch {
		case s.Offset < 0 || s.Length < 0:
			return nil, &SpanError{i, s, "negative offset or length"}
		case s.Offset > len(data) || s.Length > len(data)-s.Offset:
			return nil, &SpanError{i, s, "ends at offset " + strconv.Itoa(s.End()) +
				", past the end of the " + strconv.Itoa(len(data)) + " bytes"}
		case s.Length == 0:
			continue
		case s.Offset < end:
			return nil, &SpanError{i, s, "starts before offset " + strconv.Itoa(end) +
				", where the span before it ends (spans must be sorted and must not overlap)"}
		}
		kept = append(kept, s)
		end = s.End()
	}
	return &Model{data: data, spans: kept, width: width, digits: offsetDigits(len(data))}, nil
}

// WithWidth returns the layout of the same bytes and spans in rows of width bytes (m itself
// when it has that width already; DefaultWidth when width <= 0, at most MaxWidth). The new
// Model shares m's bytes and spans.
func (m *Model) WithWidth(width int) *Model {
	if width <= 0 {
		width = DefaultWidth
	}
	width = min(width, MaxWidth)
	if width == m.width {
		return m
	}
	n := *m
	n.width = width
	return &n
}

// WithChanged returns the layout of the same bytes and spans with the bytes in rs marked as
// changed (an edit wrote them): their segments have Changed set. rs must be sorted by offset
// and must not overlap; ranges past the bytes are cut to them. The new Model shares m's bytes
// and spans.
func (m *Model) WithChanged(rs []Range) *Model {
	n := *m
	n.changed = nil
	for _, r := range rs {
		if r.Offset >= 0 && r.Offset < len(m.data) && r.Length > 0 {
			n.changed = append(n.changed, Range{r.Offset, min(r.Length, len(m.data)-r.Offset)})
		}
	}
	return &n
}

// Changed returns the bytes marked as changed (WithChanged), sorted; the caller must not
// modify them.
func (m *Model) Changed() []Range { return m.changed }

// WithNoted returns the layout of the same bytes and spans with the bytes in rs marked as
// noted (a note is on them): their segments have Noted set. rs may be in any order and may
// overlap; ranges past the bytes are cut to them. The new Model shares m's bytes and spans.
func (m *Model) WithNoted(rs []Range) *Model {
	n := *m
	n.noted = nil
	for _, r := range rs {
		if r.Offset < 0 || r.Offset >= len(m.data) || r.Length <= 0 {
			continue
		}
		r.Length = min(r.Length, len(m.data)-r.Offset)
		// The ranges before r (and not touching it), then r with those it touches, then the rest.
		i := 0
		for i < len(n.noted) && n.noted[i].End() < r.Offset {
			i++
		}
		j := i
		for ; j < len(n.noted) && n.noted[j].Offset <= r.End(); j++ {
			r = r.Union(n.noted[j])
		}
		n.noted = append(append(n.noted[:i:i], r), n.noted[j:]...)
	}
	return &n
}

// RowChars returns how many characters of the monospace font a row of width bytes takes, as
// hexview.css lays it out: half a character of padding on each side, the offset and a space,
// three characters a byte in hex, a space, one character a byte as text.
func (m *Model) RowChars(width int) int { return m.digits + 3 + 4*width }

// FitWidth returns how many bytes a row should show in a box chars characters wide: the widest
// of m.Width(), 8 and 4 bytes (halving from m.Width()) whose whole row fits, so that the text
// column is always in view; 4 when none fits, and m.Width() when chars <= 0 (not measured).
func (m *Model) FitWidth(chars int) int {
	w := m.width
	if chars <= 0 {
		return w
	}
	for w > minFitWidth && m.RowChars(w) > chars {
		w /= 2
	}
	return max(w, min(minFitWidth, m.width))
}

// minFitWidth is the fewest bytes FitWidth puts in a row.
const minFitWidth = 4

// offsetDigits returns how many hex digits the largest row offset needs.
func offsetDigits(n int) int {
	d := 1
	for v := n - 1; v >= 16; v >>= 4 {
		d++
	}
	return max(d, minOffsetDigits)
}

// Len returns the number of bytes laid out.
func (m *Model) Len() int { return len(m.data) }

// Width returns the number of bytes in a full row.
func (m *Model) Width() int { return m.width }

// SpanCount returns the number of spans kept by New.
func (m *Model) SpanCount() int { return len(m.spans) }

// Span returns span i (0 <= i < SpanCount()).
func (m *Model) Span(i int) Span { return m.spans[i] }

// RowCount returns the number of rows: zero for no bytes.
func (m *Model) RowCount() int { return (len(m.data) + m.width - 1) / m.width }

// RowOf returns the row holding offset, clamped to the rows there are (0 when there are none).
func (m *Model) RowOf(offset int) int {
	last := m.RowCount() - 1
	if last < 0 || offset < 0 {
		return 0
	}
	return min(offset/m.width, last)
}

// RowsOf returns the first and last rows holding bytes of r; for an empty r both are the row
// of r.Offset.
func (m *Model) RowsOf(r Range) (first, last int) {
	if r.Empty() {
		row := m.RowOf(r.Offset)
		return row, row
	}
	return m.RowOf(r.Offset), m.RowOf(r.End() - 1)
}

// firstEndingAfter returns the index of the first span that ends after offset.
func (m *Model) firstEndingAfter(offset int) int {
	return sort.Search(len(m.spans), func(i int) bool { return m.spans[i].End() > offset })
}

// SpanAt returns the index of the span holding offset; ok is false when offset lies in a gap
// or outside the bytes.
func (m *Model) SpanAt(offset int) (index int, ok bool) {
	i := m.firstEndingAfter(offset)
	if i < len(m.spans) && m.spans[i].Offset <= offset && offset >= 0 {
		return i, true
	}
	return NoSpan, false
}

// Field is the run of bytes a pointer or a key lands on: a span, or the whole gap between two
// spans.
type Field struct {
	Range
	Span  int   // index of the span, or NoSpan for a gap
	ID    int32 // the span's ID, or NoID for a gap
	Class Class // the span's class, or ClassNone for a gap
}

// FieldAt returns the field holding offset; ok is false when offset is outside the bytes.
func (m *Model) FieldAt(offset int) (f Field, ok bool) {
	if offset < 0 || offset >= len(m.data) {
		return Field{Span: NoSpan, ID: NoID}, false
	}
	i := m.firstEndingAfter(offset)
	if i < len(m.spans) && m.spans[i].Offset <= offset {
		s := m.spans[i]
		return Field{Range: s.Range(), Span: i, ID: s.ID, Class: s.Class}, true
	}
	start, end := 0, len(m.data)
	if i > 0 {
		start = m.spans[i-1].End()
	}
	if i < len(m.spans) {
		end = m.spans[i].Offset
	}
	return Field{Range: Range{start, end - start}, Span: NoSpan, ID: NoID, Class: ClassNone}, true
}

// Direction is a way to move from one field to the next with the keyboard.
type Direction uint8

// Directions.
const (
	Left  Direction = iota // the field before
	Right                  // the field after
	Up                     // the field one row up
	Down                   // the field one row down
)

// Move returns the field next to from in direction d: Left and Right the fields before and
// after it, Up the field one row above its first byte, Down the field one row below its last
// byte. ok is false when there is none (from is at the edge of the bytes). An empty from
// starts at the field holding from.Offset.
func (m *Model) Move(from Range, d Direction) (f Field, ok bool) {
	if from.Empty() {
		return m.FieldAt(min(max(from.Offset, 0), len(m.data)-1))
	}
	switch d {
	case Left:
		return m.FieldAt(from.Offset - 1)
	case Right:
		return m.FieldAt(from.End())
	case Up:
		return m.FieldAt(from.Offset - m.width)
	case Down:
		// One row below the last byte, so that a field over several rows is left; in the
		// short last row, its last byte.
		last := from.End() - 1
		below := last + m.width
		if below >= len(m.data) && m.RowOf(last) < m.RowCount()-1 {
			below = len(m.data) - 1
		}
		return m.FieldAt(below)
	}
	return Field{Span: NoSpan, ID: NoID}, false
}

// Marks are the bytes drawn highlighted: the selection and the bytes under the pointer (or
// under the tree node the pointer is on). Either may be empty. Ranges rather than node ids,
// so that a node that groups several fields (a tuple, a whole message) lights up all its bytes.
type Marks struct {
	Selection Range
	Hover     Range
}

// Segment is a run of bytes within one row that share a span (or a gap) and the same marks.
// A span crossing a row boundary gives one segment per row; a span is also cut where a mark
// starts or ends inside it.
type Segment struct {
	Offset, Length int
	Class          Class
	Span           int   // index of the span, or NoSpan in a gap
	ID             int32 // the span's ID, or NoID in a gap
	// Hex is the bytes as lower-case hex pairs separated by single spaces ("0a 1b"); ASCII is
	// the bytes as printable ASCII, each other byte shown as '.'. Both are views into the
	// row's text, not copies.
	Hex, ASCII string
	// StartsSpan and EndsSpan say whether the segment begins or ends its span (or gap): where
	// they hold, a field boundary is drawn.
	StartsSpan, EndsSpan bool
	Selected, Hovered    bool
	// Changed says an edit wrote the segment's bytes (Model.WithChanged), Noted that a note is
	// on them (Model.WithNoted).
	Changed, Noted bool
}

// End returns the offset just past the segment.
func (s Segment) End() int { return s.Offset + s.Length }

// Row is one line of the hex dump.
type Row struct {
	Index  int    // row number, from 0
	Offset int    // offset of the row's first byte
	Length int    // bytes in the row: Width(), or fewer in the last row
	Label  string // Offset in hex, zero-padded to the same width on every row
	// Segments tile the row's bytes in order, without gaps or overlaps.
	Segments []Segment
}

// Equal reports whether r and o draw the same.
func (r *Row) Equal(o *Row) bool {
	if r.Index != o.Index || r.Offset != o.Offset || r.Length != o.Length || r.Label != o.Label ||
		len(r.Segments) != len(o.Segments) {
		return false
	}
	for i := range r.Segments {
		if r.Segments[i] != o.Segments[i] {
			return false
		}
	}
	return true
}

// Rows lays out n rows from row first (clamped to the rows there are), with the given marks.
// Its cost grows with the rows and segments returned, not with the size of the input.
func (m *Model) Rows(first, n int, mk Marks) []Row {
	count := m.RowCount()
	first = min(max(first, 0), count)
	n = min(max(n, 0), count-first)
	if n == 0 {
		return nil
	}
	rows := make([]Row, n)
	segs := make([]Segment, 0, n*4)
	starts := make([]int, n+1)
	text := m.text(first, n)
	si := m.firstEndingAfter(first * m.width)
	ci, ni := 0, 0 // the first changed and noted ranges that may hold a byte from pos on
	for k := range rows {
		start := (first + k) * m.width
		end := min(start+m.width, len(m.data))
		// The row's text is its label, then its hex pairs, then its ASCII characters.
		t := text[k*m.rowTextLen():]
		label, hex, ascii := t[:m.digits], t[m.digits:m.digits+3*(end-start)-1], t[m.digits+3*m.width-1:]
		starts[k] = len(segs)
		for pos := start; pos < end; {
			seg := Segment{Offset: pos, Span: NoSpan, ID: NoID}
			var runStart, runEnd int
			if si < len(m.spans) && m.spans[si].Offset <= pos {
				s := m.spans[si]
				runStart, runEnd = s.Offset, s.End()
				seg.Class, seg.Span, seg.ID = s.Class, si, s.ID
			} else {
				if si > 0 {
					runStart = m.spans[si-1].End()
				}
				runEnd = len(m.data)
				if si < len(m.spans) {
					runEnd = m.spans[si].Offset
				}
			}
			segEnd := cut(cut(min(runEnd, end), pos, mk.Selection), pos, mk.Hover)
			segEnd, seg.Changed = cutAt(segEnd, pos, m.changed, &ci)
			segEnd, seg.Noted = cutAt(segEnd, pos, m.noted, &ni)
			seg.Length = segEnd - pos
			seg.StartsSpan, seg.EndsSpan = pos == runStart, segEnd == runEnd
			seg.Selected, seg.Hovered = mk.Selection.Contains(pos), mk.Hover.Contains(pos)
			seg.Hex = hex[3*(pos-start) : 3*(segEnd-start)-1]
			seg.ASCII = ascii[pos-start : segEnd-start]
			segs = append(segs, seg)
			pos = segEnd
			if seg.Span != NoSpan && pos == runEnd {
				si++
			}
		}
		rows[k] = Row{Index: first + k, Offset: start, Length: end - start, Label: label}
	}
	starts[n] = len(segs)
	for k := range rows {
		rows[k].Segments = segs[starts[k]:starts[k+1]:starts[k+1]]
	}
	return rows
}

// cut returns end, or the first edge of r that lies strictly between pos and end.
func cut(end, pos int, r Range) int {
	if r.Empty() {
		return end
	}
	if r.Offset > pos && r.Offset < end {
		return r.Offset
	}
	if e := r.End(); e > pos && e < end {
		return e
	}
	return end
}

// cutAt returns end, or the first edge strictly between pos and end of the first range of rs
// (sorted, not overlapping) from *i on that ends after pos, and whether that range holds pos;
// *i moves on past the ranges that end at or before pos.
func cutAt(end, pos int, rs []Range, i *int) (int, bool) {
	for *i < len(rs) && rs[*i].End() <= pos {
		*i++
	}
	if *i < len(rs) {
		return cut(end, pos, rs[*i]), rs[*i].Contains(pos)
	}
	return end, false
}

// rowTextLen returns the length of one row's text: label, hex pairs with spaces, ASCII.
func (m *Model) rowTextLen() int { return m.digits + 3*m.width - 1 + m.width }

// text returns the text of n rows from row first, each rowTextLen long, in one string so
// that a screen of rows costs one allocation for its text. A short last row is padded with
// spaces.
func (m *Model) text(first, n int) string {
	rl := m.rowTextLen()
	buf := make([]byte, n*rl)
	for k := range n {
		t := buf[k*rl : (k+1)*rl]
		start := (first + k) * m.width
		for i, v := m.digits-1, start; i >= 0; i, v = i-1, v>>4 {
			t[i] = pgvalue.HexDigits[v&0x0f]
		}
		hex, ascii := t[m.digits:m.digits+3*m.width-1], t[m.digits+3*m.width-1:]
		for i := range hex {
			hex[i] = ' '
		}
		for i := range ascii {
			ascii[i] = ' '
		}
		for i, b := range m.data[start:min(start+m.width, len(m.data))] {
			hex[3*i] = pgvalue.HexDigits[b>>4]
			hex[3*i+1] = pgvalue.HexDigits[b&0x0f]
			if b < 0x20 || b > 0x7e {
				b = '.'
			}
			ascii[i] = b
		}
	}
	return string(buf)
}

// Classes returns the CSS classes that draw the segment (see hexview.css): "hv-seg", its
// tint class (Class.String), "b-start" and "b-end" where a field boundary is drawn, "sel"
// and "hov" for the marks, "chg" and "noted" for the bytes an edit wrote and a note is on.
func (s Segment) Classes() []string {
	return strings.Fields(string(s.appendClasses(nil)))
}

// appendClasses appends the segment's classes, separated by spaces.
func (s *Segment) appendClasses(b []byte) []byte {
	b = append(b, "hv-seg "...)
	b = append(b, s.Class.String()...)
	if s.StartsSpan {
		b = append(b, " b-start"...)
	}
	if s.EndsSpan {
		b = append(b, " b-end"...)
	}
	if s.Selected {
		b = append(b, " sel"...)
	}
	if s.Hovered {
		b = append(b, " hov"...)
	}
	if s.Changed {
		b = append(b, " chg"...)
	}
	if s.Noted {
		b = append(b, " noted"...)
	}
	return b
}

// Select returns the selection after choosing field f: f alone, or when extend is set (Shift
// held) the current selection grown to take f in.
func Select(current Range, f Field, extend bool) Range {
	if extend {
		return current.Union(f.Range)
	}
	return f.Range
}

// ArrowKey returns the direction of an arrow key, given its KeyboardEvent.key name
// ("ArrowLeft"); ok is false for any other key.
func ArrowKey(key string) (d Direction, ok bool) {
	switch key {
	case "ArrowLeft":
		return Left, true
	case "ArrowRight":
		return Right, true
	case "ArrowUp":
		return Up, true
	case "ArrowDown":
		return Down, true
	}
	return 0, false
}

// Hex returns the bytes of r (clamped to the bytes there are) as lower-case hex digits with
// nothing between them, the form the input accepts back.
func (m *Model) Hex(r Range) string {
	start := min(max(r.Offset, 0), len(m.data))
	end := min(max(r.End(), start), len(m.data))
	buf := make([]byte, 2*(end-start))
	for i, b := range m.data[start:end] {
		buf[2*i], buf[2*i+1] = pgvalue.HexDigits[b>>4], pgvalue.HexDigits[b&0x0f]
	}
	return string(buf)
}
