package guide

import (
	"strconv"

	"pgoutput-inspector/decoder"
)

// The field guide: one entry per pgoutput message type, TupleData, the replication protocol
// envelopes and the frontend/backend protocol's messages around them, laid out as a reader of
// the PostgreSQL documentation expects. The layouts, names, formats and meanings are the field
// table's and the message table's; the guide adds what a learner reads around them (what a
// message is for, where it travels, conditions, rules, related messages, documentation links,
// what changed in each release, a real example).
//
// The guide's prose is long, so the page does not link it: Data (the tables, in table.go and
// wire.go) is called by native programs only, which write it as assets (Append,
// scripts/guide; the entries' HTML, scripts/guideview) that the page fetches when the guide
// is first opened. Everything the page needs at all times (hover help, what exists at a
// release, explain sentences) is the decoder's, in its field table.

// Layer says where an entry's bytes sit.
type Layer uint8

// Layers.
const (
	LayerMessage   Layer = iota // a pgoutput message
	LayerTupleData              // TupleData, the part of Insert, Update and Delete that carries a row
	LayerEnvelope               // a replication protocol message around or beside pgoutput messages
	// LayerWire: a message of the frontend/backend protocol that a replication connection
	// holds around its stream (the startup, authentication, replication commands as queries
	// and their results, the COPY of a table's synchronization), or COPY's data.
	LayerWire
)

// Guide is the whole field guide.
type Guide struct {
	// Entries: the pgoutput messages and TupleData in the documentation's order (Begin,
	// Message, Commit, Origin, Relation, …, Stream Prepare, TupleData), then the envelopes
	// (CopyData, XLogData, Primary keepalive, Standby status update, Hot standby feedback),
	// then the frontend/backend protocol's messages in the order a connection meets them
	// (StartupMessage, the encryption requests and answers, CancelRequest, authentication,
	// …, Terminate).
	Entries []Entry
	// Releases are the PostgreSQL releases the version lens knows (10 to 18), oldest first.
	Releases []Release
	// Options are pgoutput's options, in the order the documentation lists them.
	Options []Option
	// Comparisons are captures of the same transaction from servers of several releases, in
	// text and binary mode.
	Comparisons []Comparison
}

// Entry is one entry of the field guide.
type Entry struct {
	// ID names the entry in links (#guide=update): lower case, words joined by '-'
	// ("stream-abort", "tupledata", "standby-status-update").
	ID string
	// Name is the entry's title, as the documentation names the message ("Stream Abort",
	// "TupleData").
	Name string
	// Group is the field of the whole message (for TupleData, a new tuple's).
	Group decoder.FieldID
	// Type is the type byte (0 for TupleData, COPY data and the untyped messages of the
	// frontend/backend protocol).
	Type  byte
	Layer Layer
	// Purpose says what the message is for; Travels where it travels (SQL functions, inside
	// XLogData from a walsender, from the client to the server).
	Purpose string
	Travels string
	// Fields in documented order; a field with Repeat set is repeated with the fields around it
	// that share its Repeat.
	Fields []Field
	// Rules between fields and between messages ("an Update carries K or O or neither, never
	// both"), one sentence each.
	Rules []string
	// Related lists the IDs of related entries.
	Related []string
	// Doc locates the section of the PostgreSQL documentation that describes the message.
	Doc DocRef
	// Changes says what changed in each release, oldest first: in the bytes, in the options, in
	// the documentation's wording.
	Changes []Change
	// Example is a real capture that shows the message.
	Example Example
}

// Field is one field of an entry, in documented order.
type Field struct {
	// Field is the field table's entry: name, wire format, kind, meaning, codes, since. It is
	// decoder.FieldUnknown for the payload of an envelope (Payload says what it holds).
	Field decoder.FieldID
	// Payload describes what an envelope carries after its fields, when Field is
	// decoder.FieldUnknown.
	Payload string
	// Alternative: the field takes the place of the one before it (an Update's old tuple
	// instead of its old key); at most one of them is present.
	Alternative bool
	// Condition says when the field is present, or is empty when it always is ("only inside a
	// streamed transaction", "only with streaming = parallel").
	Condition string
	// Repeat names what the field is repeated for ("column", "relation"), or is empty.
	Repeat string
	// Entry is the ID of the entry that describes the field's contents when the field is a
	// part of its own (a TupleData: "tupledata"; the pgoutput message inside XLogData).
	Entry string
}

// Width is how many bytes a field takes, as a byte diagram draws it.
type Width struct {
	// Bytes is the fixed size (1, 2, 4, 8), or 0 when the size varies.
	Bytes int
	// Label is what a diagram box says: "1", "4", "8", "String" (bytes up to a NUL),
	// "n bytes" (n from an earlier length), "TupleData", "message".
	Label string
}

// Width returns the field's width for a byte diagram.
func (f Field) Width() Width {
	info := f.Field.Info()
	if n := info.Format.Size(); n > 0 {
		return Width{Bytes: n, Label: strconv.Itoa(n)}
	}
	switch {
	case f.Payload != "":
		return Width{Label: "message"}
	case f.Entry == "tupledata":
		return Width{Label: "TupleData"}
	case info.Format == decoder.FormatString:
		return Width{Label: "String"}
	}
	return Width{Label: "n bytes"}
}

// Positions numbers the entry's fields as a reader counts them: 1, 2, 3 in order; fields
// repeated together share a number with a letter each (8a, 8b for a Relation's column
// flags and name); an alternative shares its predecessor's number.
func (e *Entry) Positions() []string {
	pos := make([]string, len(e.Fields))
	n, sub := 0, 0
	for i, f := range e.Fields {
		switch {
		case f.Alternative && i > 0:
			pos[i] = pos[i-1]
			continue
		case f.Repeat != "" && i > 0 && e.Fields[i-1].Repeat == f.Repeat:
			sub++
		case f.Repeat != "":
			n++
			sub = 0
		default:
			n++
			pos[i] = strconv.Itoa(n)
			continue
		}
		pos[i] = strconv.Itoa(n) + string(rune('a'+sub))
	}
	return pos
}

// DocRef locates a section of the PostgreSQL documentation.
type DocRef struct {
	// Page is the page's file name ("protocol-logicalrep-message-formats.html").
	Page string
	// Anchor is the section's id on the page, or "" when the page has none for it.
	Anchor string
	// AnchorSince is the first release whose page has the anchor; older releases link the page.
	AnchorSince int
	// Title names the section as the documentation does ("Message Formats, Query"), or is ""
	// when the guide's reader makes it from the page and the entry's name.
	Title string
}

// DocsURL returns the address of the section in the documentation of release (10 to 18).
func (d DocRef) DocsURL(release int) string {
	u := "https://www.postgresql.org/docs/" + strconv.Itoa(release) + "/" + d.Page
	if d.Anchor != "" && release >= d.AnchorSince {
		u += "#" + d.Anchor
	}
	return u
}

// ChangeKind says what a change touched.
type ChangeKind uint8

// Change kinds.
const (
	ChangeBytes   ChangeKind = iota // what the server sends
	ChangeOption                    // which options exist or what they do
	ChangeWording                   // only the documentation's wording
)

// Change is one thing that changed in a release.
type Change struct {
	// Release is the release (decoder.FirstRelease to decoder.LastRelease), or 0 for a change
	// older than the releases the version lens knows: Older then names the release as
	// PostgreSQL numbered it ("7.4", "9.1", "9.3.21"), or is "" when the change says only that
	// it is older.
	Release int
	Older   string
	// Proto is the protocol version the change needs, or 0.
	Proto int
	Kind  ChangeKind
	// Field is the field the change is about, or decoder.FieldUnknown for the whole entry.
	Field decoder.FieldID
	Text  string
}

// When names the change's release as the guide writes it: "PostgreSQL 14", "PostgreSQL 7.4",
// or "before PostgreSQL 10" for a change older than the releases the lens knows that names
// none.
func (c Change) When() string {
	switch {
	case c.Release > 0:
		return "PostgreSQL " + strconv.Itoa(c.Release)
	case c.Older != "":
		return "PostgreSQL " + c.Older
	}
	return "before PostgreSQL " + strconv.Itoa(decoder.FirstRelease)
}

// Example is a real capture that shows an entry's message.
type Example struct {
	// Text is a capture file (the page's input format): the lines the message needs (Relation
	// and Type messages before a change, the transaction around it).
	Text string
	// Select is the index of the message the example is about.
	Select int
	// Source says where the capture comes from (a file in testdata).
	Source string
}

// Release is what the version lens knows of one PostgreSQL release.
type Release struct {
	Release int
	// MaxProto is the highest proto_version the release's pgoutput accepts.
	MaxProto int
	// Options lists the names of the pgoutput options it accepts.
	Options []string
	// Summary says in a sentence what the release changed for logical replication's bytes.
	Summary string
}

// Option is one pgoutput option.
type Option struct {
	Name string
	// Values it takes ("boolean", "off, on, parallel"); Default when not given ("" = required).
	Values  string
	Default string
	// Since is the first release that accepts it; Proto the lowest proto_version it needs.
	Since int
	Proto int
	// Bytes says what it changes in the bytes.
	Bytes string
	// Changes lists later changes of the option ("16: streaming takes parallel").
	Changes []Change
}

// Comparison is one capture of the lens's transaction from one server, or of a small change
// with one pgoutput option set one way (Setting).
type Comparison struct {
	Release int
	Server  string // "PostgreSQL 16.14"
	Binary  bool
	Proto   int
	Options string // as given to START_REPLICATION
	// Setting is the option this capture shows, with its value ("streaming=parallel"), for
	// the captures of one change with an option set each way; "" for the comparison across
	// releases.
	Setting string
	// Text is the capture file.
	Text   string
	Source string
}

// Entry returns the entry with the given ID, or nil.
func (g *Guide) Entry(id string) *Entry {
	for i := range g.Entries {
		if g.Entries[i].ID == id {
			return &g.Entries[i]
		}
	}
	return nil
}
