// Package web is the inspector page: one store whose Apply is pure, and vecty components that
// draw its state. The store parses pasted text (package input), decodes every message in order
// (package decoder) and lays out the selected message's bytes (package hexview); components
// only read what the store computed and send actions back up.
package web

import (
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
	// InputNotes are what the input package says about how the text was read; Also, the
	// other readings of it.
	InputNotes []input.Note
	Also       []input.Alternative
	// Messages are the messages in input order, Trees their decodes.
	Messages []input.Message
	// Connections are a packet capture's connections (input.Result.Connections); Conversations
	// what each one's messages said so far, by the same index (connection number less one).
	Connections   []input.Connection
	Conversations []decoder.ConversationInfo
	// More counts the messages past MaxMessages, read but not kept: the page refuses the input.
	More  int
	Trees []*decoder.Tree
	// Summaries describe each message for the message list.
	Summaries []Summary
	// Rows is the message list: transaction headings and messages in order.
	Rows []ListRow
	// RowOf gives the index in Rows of each message.
	RowOf []int
	// Errors counts the messages whose decode met a problem.
	Errors int
	// Described lists the Relation and Type messages decoded without error, in order, with
	// what the session learnt from each: first those of the parts before (Msg -1), when the
	// input is a big file's part decoded going on from them.
	Described []Described
	// Options are the decoder options the messages were decoded with; Proto is the protocol
	// version the session ended with (given, or inferred from the messages; 0 if unknown).
	Options decoder.Options
	Proto   int
	// Capture is what a capture file's options header line says (input.ReadCaptureOptions);
	// it fills in the decoder options left open. HeaderProto is its proto_version (0: none).
	Capture     input.CaptureOptions
	HeaderProto int

	// dec decodes the messages in order; every Doc of the same decode shares it and sees the
	// prefix of its results up to len(Trees).
	dec *docDecoder
	// resume has the decode go on from what came before the input (nil: nothing did): a
	// part of a big file's (Carry, Before). A redecode goes on from it too.
	resume func(*docDecoder)
	// openGroup is the row of the group heading left open by the last message decoded (-1:
	// none) and openCount the messages in it so far: Rows[openGroup].Count is written when
	// the group closes, so that a longer prefix never changes what a shorter one shows.
	openGroup, openCount int
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
	// Wire: a message of the frontend/backend protocol around the replication stream (a
	// capture's Query, DataRow …): Type is its type byte, and no pgoutput lens applies.
	Wire bool
	// Side and Conn are who sent it, on which connection (a capture's), or zero.
	Side decoder.Side
	Conn int
}

// Line is the message as the message list names it: its type's letter, when printable, and
// its name ("I Insert").
func (sm *Summary) Line() string {
	if sm.Type >= 0x20 && sm.Type < 0x7f {
		return string(rune(sm.Type)) + " " + sm.Name
	}
	return sm.Name
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
	// Group is the group's kind (for RowGroup) and Count the number of messages in it, once
	// the group has closed (Doc.GroupCount also counts a group still open).
	Group GroupKind
	Count int
	Xid   uint32
	// Nested: the message is inside a group (drawn indented).
	Nested bool
}

// DecodeChunk is how many messages a Doc decodes at a time when the page decodes a long input
// in the background (Next): a few milliseconds of work in the browser, and more
// than a screen of the message list.
const DecodeChunk = 1024

// NewDoc parses text (as force, or detecting the format when force is input.Auto) and decodes
// its first n messages with opts (n < 0: all of them; n is rounded up to whole DecodeChunks).
// Next decodes the rest, a chunk at a time, so that a long input shows at once and decodes
// without freezing the page. A text that no format reads gives a nil Doc and the *input.Error.
//
// A text read only in part gives both: the Doc of every message that could be read, and the
// error of the first character that could not.
func NewDoc(text string, force input.Format, opts decoder.Options, n int) (*Doc, *input.Error) {
	return newDoc(text, force, opts, n, nil)
}

// newDoc is NewDoc going on from the decode carry resumes (nil: none).
func newDoc(text string, force input.Format, opts decoder.Options, n int, carry func(*docDecoder)) (*Doc, *input.Error) {
	// Messages past MaxMessages are counted, not kept: the input is refused for its count
	// after one pass over it, without holding millions of messages first.
	res, err := input.ParseAtMost([]byte(text), force, MaxMessages)
	var ie *input.Error
	if err != nil {
		var ok bool
		if ie, ok = err.(*input.Error); !ok {
			ie = &input.Error{Line: 1, Column: 1, Msg: err.Error()}
		}
		if res == nil {
			return nil, ie
		}
	}
	d := &Doc{Text: text, Format: res.Format, Forced: force != input.Auto, Header: res.Header,
		Messages: res.Messages, More: res.More, InputNotes: res.Notes, Also: res.Also, Options: opts,
		Connections: res.Connections}
	d.Capture = input.ReadCaptureOptions(res.Header)
	d.HeaderProto = d.Capture.Proto
	d.resume = carry
	return d.start(n), ie
}

// NewDocBytes decodes one message given as bytes (a share link's hex= or b64=); text is the
// bytes written in format, which reads back as this one message (Forced: not detected).
func NewDocBytes(text string, format input.Format, b []byte, opts decoder.Options) *Doc {
	d := &Doc{Text: text, Format: format, Forced: true, Messages: []input.Message{{Bytes: b, Line: 1}}, Options: opts}
	return d.start(-1)
}

// Redecode returns a Doc of the same messages decoded with other options: the first n of them
// (rounded up to whole DecodeChunks), the rest with Next, as NewDoc does.
func (d *Doc) Redecode(opts decoder.Options, n int) *Doc {
	nd := &Doc{Text: d.Text, Format: d.Format, Forced: d.Forced, Header: d.Header, Messages: d.Messages,
		InputNotes: d.InputNotes, Also: d.Also, Options: opts, Capture: d.Capture, HeaderProto: d.HeaderProto,
		Connections: d.Connections, resume: d.resume}
	return nd.start(max(n, 1))
}

// Through returns the Doc with at least messages 0 to m decoded (d itself when they are).
func (d *Doc) Through(m int) *Doc {
	if m < len(d.Trees) || d.Complete() {
		return d
	}
	return d.dec.upTo(min(m, len(d.Messages)-1)/DecodeChunk + 1)
}

// Complete reports whether every message is decoded.
func (d *Doc) Complete() bool { return len(d.Trees) == len(d.Messages) }

// GoesOn says d is a part of a big file decoded going on from the parts before (Before).
func (d *Doc) GoesOn() bool { return d.resume != nil }

// Next returns the Doc with the next DecodeChunk messages decoded too, or d when it is
// complete. d does not change: the Docs of one decode share what is decoded, each seeing its
// own prefix, and calling Next again on d gives the same Doc again (decoded once).
func (d *Doc) Next() *Doc {
	if d.Complete() {
		return d
	}
	return d.dec.upTo(len(d.Trees)/DecodeChunk + 1)
}

// GroupCount returns how many messages the group heading at Rows[row] holds so far.
func (d *Doc) GroupCount(row int) int {
	if row == d.openGroup {
		return d.openCount
	}
	return d.Rows[row].Count
}

// docDecoder decodes a Doc's messages in order with their connections' conversations (one
// session for an input of no connections), a chunk at a time, into
// slices as long as all the messages that the Docs of the decode share. A chunk, once decoded,
// is never changed, so a Doc (a prefix) stays the same while longer ones are made.
type docDecoder struct {
	// doc holds the fields every Doc of the decode shares, and slices of all the messages
	// that each Doc cuts to its length. It is never handed out itself.
	doc     *Doc
	cs      *decoder.Connections
	n       int    // messages decoded
	docs    []*Doc // docs[c-1]: the Doc of the first c chunks
	group   int    // row index of the open group's heading
	count   int    // messages in it so far
	xid     uint32 // its xid
	hasXid  bool
	errors  int
	allRows []ListRow
	// described is every Doc's Described, each cutting it to its length.
	described []Described
}

// Described is what one Relation or Type message told the session: Relation or Type is set.
// Msg is the message, or -1 for one of the parts of a big file before the input (Before).
type Described struct {
	Msg      int
	Relation *decoder.Relation
	Type     *decoder.DataType
}

// start decodes the first n messages of d (n < 0 or past the end: all), going on from the decode
// carry resumes (nil: none), and returns that Doc.
func (d *Doc) start(n int) *Doc {
	opts := d.Capture.DecoderOptions(d.Options)
	total := len(d.Messages)
	dec := &docDecoder{doc: d, cs: decoder.NewConnections(opts), group: -1}
	for i, c := range d.Connections {
		if c.MidStream {
			dec.cs.Conversation(i + 1).Resume()
		}
	}
	if d.resume != nil {
		d.resume(dec)
	}
	d.Trees = make([]*decoder.Tree, total)
	d.Summaries = make([]Summary, total)
	d.RowOf = make([]int, total)
	dec.allRows = make([]ListRow, 0, total+total/4)
	if n < 0 || n >= total {
		n = total
	}
	// The first Doc holds all the chunks n reaches into.
	return dec.upTo(max((n+DecodeChunk-1)/DecodeChunk, 1))
}

// upTo returns the Doc of the first c chunks (or of all messages, when there are fewer),
// decoding what is not decoded yet.
func (dec *docDecoder) upTo(c int) *Doc {
	if c <= len(dec.docs) {
		return dec.docs[c-1]
	}
	total := len(dec.doc.Messages)
	end := min(c*DecodeChunk, total)
	for i := dec.n; i < end; i++ {
		dec.decode(i)
	}
	dec.n = end
	nd := *dec.doc
	nd.dec = dec
	// Capped, so that an append to a Doc's slices never writes into the next Doc's.
	nd.Trees = nd.Trees[:end:end]
	nd.Summaries = nd.Summaries[:end:end]
	nd.RowOf = nd.RowOf[:end:end]
	nd.Rows = dec.allRows[:len(dec.allRows):len(dec.allRows)]
	nd.Described = dec.described[:len(dec.described):len(dec.described)]
	nd.Errors = dec.errors
	nd.Proto = dec.cs.Proto()
	if len(nd.Connections) > 0 {
		nd.Conversations = make([]decoder.ConversationInfo, len(nd.Connections))
		for k := range nd.Conversations {
			if k+1 < dec.cs.Len() {
				nd.Conversations[k] = dec.cs.Conversation(k + 1).Info
			}
		}
	}
	nd.openGroup, nd.openCount = dec.group, dec.count
	p := &nd
	for len(dec.docs) < c {
		// The chunks decoded together (the first Doc's, or all of a short input) share one Doc.
		dec.docs = append(dec.docs, p)
	}
	return p
}

// describe notes what message i (-1: one of the parts before, Before), decoded by s without
// error, told s when it is a Relation or Type message, as it stands now: a later one for the
// same OID replaces it in the session, not here.
func (dec *docDecoder) describe(t *decoder.Tree, s *decoder.Session, i int) {
	if mt := t.MessageType(); mt != nil {
		switch mt.Group {
		case decoder.FieldRelation:
			if k := t.Find(t.Message, decoder.FieldRelationOID); k >= 0 {
				if rel := s.Relation(uint32(t.ValueOf(k).Num)); rel != nil {
					dec.described = append(dec.described, Described{Msg: i, Relation: rel})
				}
			}
		case decoder.FieldType:
			if k := t.Find(t.Message, decoder.FieldTypeOID); k >= 0 {
				if dt := s.DataType(uint32(t.ValueOf(k).Num)); dt != nil {
					dec.described = append(dec.described, Described{Msg: i, Type: dt})
				}
			}
		}
	}
}

// decode decodes message i, adding its rows to the message list.
func (dec *docDecoder) decode(i int) {
	d := dec.doc
	m := &d.Messages[i]
	t := &decoder.Tree{}
	dec.cs.DecodeInto(t, m.Bytes, m.Side, m.Conn)
	s := dec.cs.Conversation(m.Conn).Session()
	d.Trees[i] = t
	sm := summarize(t, m)
	if t.Err != nil {
		dec.errors++
	} else {
		dec.describe(t, s, i)
	}
	// Opening messages start a group; the heading row goes before the message.
	role := t.Role()
	if role.Opens() {
		dec.closeGroup()
		kind := GroupTransaction
		switch role.Block() {
		case decoder.BlockStream:
			kind = GroupStream
		case decoder.BlockPrepared:
			kind = GroupPrepared
		}
		dec.group, dec.count = len(dec.allRows), 0
		dec.xid, dec.hasXid = sm.Xid, sm.HasXid
		dec.allRows = append(dec.allRows, ListRow{Kind: RowGroup, Msg: i, Group: kind, Xid: sm.Xid})
	}
	if !sm.HasXid && dec.hasXid {
		// In a transaction: the group's, or one a part of a big file goes on with (no group).
		sm.Xid, sm.HasXid = dec.xid, true
	}
	if dec.group >= 0 {
		sm.Group = dec.group
		dec.count++
	} else {
		sm.Group = -1
	}
	d.Summaries[i] = sm
	d.RowOf[i] = len(dec.allRows)
	dec.allRows = append(dec.allRows, ListRow{Kind: RowMessage, Msg: i, Xid: sm.Xid, Nested: dec.group >= 0})
	// Closing messages end it.
	if role.Closes() {
		dec.closeGroup()
	}
}

// closeGroup writes the open group's count into its heading and closes it.
func (dec *docDecoder) closeGroup() {
	if dec.group >= 0 {
		dec.allRows[dec.group].Count = dec.count
	}
	dec.group, dec.count, dec.hasXid = -1, 0, false
}

// summarize reads the message list's columns from a decoded tree.
func summarize(t *decoder.Tree, m *input.Message) Summary {
	sm := Summary{Type: t.Type, Size: len(m.Bytes), Err: t.Err != nil, LSN: m.LSN, HasLSN: m.HasLSN,
		Xid: m.Xid, HasXid: m.HasXid, Side: m.Side, Conn: m.Conn}
	switch {
	case t.Type != 0:
		sm.Name = decoder.MessageName(t.Type)
	case t.Wire != nil:
		sm.Name, sm.Type, sm.Wire = t.Label(0), t.Wire.Type, true
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
		}
	}
	if xid, ok := t.Xid(); ok {
		sm.Xid, sm.HasXid = xid, true
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
