// Package web is the inspector page: one store whose Apply is pure, and vecty components that
// draw its state. The store parses pasted text (package input), decodes every message in order
// (package decoder) and lays out the selected message's bytes (package hexview); components
// only read what the store computed and send actions back up.
package web

import (
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
)

// Doc is one decoded input: the messages found in the text, each decoded in order by one
// session, and the message list grouped by transaction. A Doc never changes once built, so
// states can share it.
type Doc struct {
	// Text is the text the messages were read from.
	Text string
	// Format is the format the text was read as; Forced says it was chosen, not detected.
	Format input.Format
	Forced bool
	// Header holds a capture file's "#" lines.
	Header []string
	// Messages are the messages in input order, Trees their decodes.
	Messages []input.Message
	Trees    []*decoder.Tree
	// Summaries describe each message for the message list.
	Summaries []Summary
	// Rows is the message list: transaction headings and messages in order.
	Rows []ListRow
	// RowOf gives the index in Rows of each message.
	RowOf []int
	// Errors counts the messages whose decode met a problem.
	Errors int
	// Options are the decoder options the messages were decoded with; Proto is the protocol
	// version the session ended with (given, or inferred from the messages; 0 if unknown).
	Options decoder.Options
	Proto   int
	// HeaderProto is the proto_version a capture file's header names (0: none); the messages
	// are decoded with it unless a version is chosen. HeaderParallel: its options say
	// streaming=parallel.
	HeaderProto    int
	HeaderParallel bool
}

// Summary is what the message list shows of one message.
type Summary struct {
	Type   byte   // pgoutput message type, or the envelope's type byte for a keepalive
	Name   string // "Insert", "Keepalive", or "unknown" when undecodable
	LSN    uint64 // from the text (capture, psql) or from the XLogData header
	HasLSN bool
	Xid    uint32 // the transaction's xid: from the message, its transaction, or the text
	HasXid bool
	Size   int
	Err    bool
	// Group is the index of the transaction heading this message belongs to, or -1.
	Group int
}

// RowKind tells a message list row's kind.
type RowKind uint8

// Row kinds.
const (
	RowMessage RowKind = iota // one message
	RowGroup                  // a transaction heading
)

// GroupKind says what opened a transaction group.
type GroupKind uint8

// Group kinds, in the protocol's words.
const (
	GroupTransaction GroupKind = iota // Begin … Commit
	GroupStream                       // Stream Start … Stream Stop
	GroupPrepared                     // Begin Prepare … Prepare
)

// ListRow is one row of the message list.
type ListRow struct {
	Kind RowKind
	// Msg is the message index for RowMessage, the first message of the group for RowGroup.
	Msg int
	// Group is the group's kind (for RowGroup) and Count the number of messages in it.
	Group GroupKind
	Count int
	Xid   uint32
	// Nested: the message is inside a group (drawn indented).
	Nested bool
}

// NewDoc parses text (as force, or detecting the format when force is input.Auto) and decodes
// every message with opts. A text that no format reads gives a nil Doc and the *input.Error.
func NewDoc(text string, force input.Format, opts decoder.Options) (*Doc, *input.Error) {
	res, err := input.Parse([]byte(text), force)
	if err != nil {
		ie, ok := err.(*input.Error)
		if !ok {
			ie = &input.Error{Line: 1, Column: 1, Msg: err.Error()}
		}
		return nil, ie
	}
	d := &Doc{Text: text, Format: res.Format, Forced: force != input.Auto, Header: res.Header,
		Messages: res.Messages, Options: opts}
	d.HeaderProto, d.HeaderParallel = headerOptions(res.Header)
	d.decode()
	return d, nil
}

// headerOptions reads proto_version and streaming=parallel from a capture's "options:" line.
func headerOptions(header []string) (proto int, parallel bool) {
	for _, h := range header {
		rest, ok := strings.CutPrefix(h, "options:")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(rest) {
			switch {
			case strings.HasPrefix(f, "proto_version="):
				if n, ok := input.Atoi(strings.TrimPrefix(f, "proto_version=")); ok && n >= 1 && n <= 4 {
					proto = n
				}
			case f == "streaming=parallel":
				parallel = true
			}
		}
	}
	return proto, parallel
}

// NewDocBytes decodes one message given as bytes (a share link's hex= or b64=).
func NewDocBytes(text string, format input.Format, b []byte, opts decoder.Options) *Doc {
	d := &Doc{Text: text, Format: format, Messages: []input.Message{{Bytes: b, Line: 1}}, Options: opts}
	d.decode()
	return d
}

// Redecode returns a Doc of the same messages decoded with other options.
func (d *Doc) Redecode(opts decoder.Options) *Doc {
	nd := &Doc{Text: d.Text, Format: d.Format, Forced: d.Forced, Header: d.Header, Messages: d.Messages,
		Options: opts, HeaderProto: d.HeaderProto, HeaderParallel: d.HeaderParallel}
	nd.decode()
	return nd
}

// decode decodes every message in order with one session and builds the message list.
func (d *Doc) decode() {
	opts := d.Options
	if opts.Proto == 0 && d.HeaderProto > 0 {
		opts.Proto = d.HeaderProto
		if d.HeaderParallel && opts.Proto >= 4 && opts.ParallelAbort == decoder.Auto {
			opts.ParallelAbort = decoder.Yes
		}
	}
	s := decoder.NewSession(opts)
	n := len(d.Messages)
	d.Trees = make([]*decoder.Tree, n)
	d.Summaries = make([]Summary, n)
	d.RowOf = make([]int, n)
	d.Rows = make([]ListRow, 0, n+n/4)
	group := -1 // row index of the open group's heading
	var groupXid uint32
	hasGroupXid := false
	for i := range d.Messages {
		m := &d.Messages[i]
		t := s.Decode(m.Bytes)
		d.Trees[i] = t
		sm := summarize(t, m)
		if t.Err != nil {
			d.Errors++
		}
		// Opening messages start a group; the heading row goes before the message.
		switch sm.Type {
		case 'B', 'S', 'b':
			if t.Message >= 0 {
				kind := GroupTransaction
				if sm.Type == 'S' {
					kind = GroupStream
				} else if sm.Type == 'b' {
					kind = GroupPrepared
				}
				group = len(d.Rows)
				groupXid, hasGroupXid = sm.Xid, sm.HasXid
				d.Rows = append(d.Rows, ListRow{Kind: RowGroup, Msg: i, Group: kind, Xid: sm.Xid})
			}
		}
		if group >= 0 {
			sm.Group = group
			if !sm.HasXid && hasGroupXid {
				sm.Xid, sm.HasXid = groupXid, true
			}
			d.Rows[group].Count++
		} else {
			sm.Group = -1
		}
		d.Summaries[i] = sm
		d.RowOf[i] = len(d.Rows)
		d.Rows = append(d.Rows, ListRow{Kind: RowMessage, Msg: i, Xid: sm.Xid, Nested: group >= 0})
		// Closing messages end it.
		switch sm.Type {
		case 'C', 'E', 'P':
			if t.Message >= 0 {
				group, hasGroupXid = -1, false
			}
		}
	}
	d.Proto = s.Proto()
}

// summarize reads the message list's columns from a decoded tree.
func summarize(t *decoder.Tree, m *input.Message) Summary {
	sm := Summary{Type: t.Type, Size: len(m.Bytes), Err: t.Err != nil, LSN: m.LSN, HasLSN: m.HasLSN,
		Xid: m.Xid, HasXid: m.HasXid}
	switch {
	case t.Type != 0:
		sm.Name = decoder.MessageName(t.Type)
	case len(t.Nodes) > 0 && t.Nodes[0].Field != decoder.FieldUnknownType && t.Nodes[0].Field != decoder.FieldUndecoded:
		sm.Name = t.Label(0)
		sm.Type = t.Reading.Envelope
	default:
		sm.Name = "unknown"
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		switch n.Field {
		case decoder.FieldXLogDataStart, decoder.FieldKeepaliveWALEnd:
			if !sm.HasLSN {
				sm.LSN, sm.HasLSN = t.ValueOf(i).Num, true
			}
		case decoder.FieldBeginXid, decoder.FieldStreamXid, decoder.FieldStreamStartXid,
			decoder.FieldStreamCommitXid, decoder.FieldStreamAbortXid, decoder.FieldBeginPrepareXid,
			decoder.FieldPrepareXid, decoder.FieldCommitPreparedXid, decoder.FieldRollbackPreparedXid,
			decoder.FieldStreamPrepareXid:
			sm.Xid, sm.HasXid = uint32(t.ValueOf(i).Num), true
		}
	}
	return sm
}

// Spans returns the hex view's spans for a tree: one per leaf, tinted by the field's kind; the
// bytes from the error on are marked as an error.
func Spans(t *decoder.Tree) []hexview.Span {
	spans := make([]hexview.Span, 0, len(t.Nodes))
	for i := range t.Nodes {
		if !t.IsLeaf(i) {
			continue
		}
		n := &t.Nodes[i]
		if n.Length == 0 {
			continue
		}
		c := ClassOf(n.Field.Info().Kind)
		if n.Field == decoder.FieldUndecoded || n.Field == decoder.FieldTrailing ||
			(t.Err != nil && n.Offset == t.Err.Offset && n.Field == t.Err.Field) {
			c = hexview.ClassError
		}
		spans = append(spans, hexview.Span{Offset: n.Offset, Length: n.Length, Class: c, ID: int32(i)})
	}
	return spans
}

// ClassOf maps a field kind to the hex view's tint.
func ClassOf(k decoder.Kind) hexview.Class {
	switch k {
	case decoder.KindType:
		return hexview.ClassType
	case decoder.KindInteger:
		return hexview.ClassInteger
	case decoder.KindLSN:
		return hexview.ClassLSN
	case decoder.KindTime:
		return hexview.ClassTime
	case decoder.KindXid:
		return hexview.ClassXid
	case decoder.KindOID:
		return hexview.ClassOID
	case decoder.KindString:
		return hexview.ClassString
	case decoder.KindMarker:
		return hexview.ClassMarker
	case decoder.KindLength:
		return hexview.ClassLength
	case decoder.KindValue:
		return hexview.ClassValue
	case decoder.KindFlags:
		return hexview.ClassFlags
	case decoder.KindUndecoded:
		return hexview.ClassError
	}
	return hexview.ClassNone
}
