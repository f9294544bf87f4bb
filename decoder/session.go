package decoder

import "pgoutput-inspector/decoder/pgvalue"

// Choice is a yes/no option that may also be left to the decoder.
type Choice uint8

// Choices.
const (
	Auto Choice = iota // decide from context and from the bytes
	Yes
	No
)

// EnvelopeMode says whether replication protocol envelopes are looked for.
type EnvelopeMode uint8

// Envelope modes.
const (
	// EnvelopeAuto: CopyData, XLogData, keepalive, standby status update and hot standby feedback
	// are recognised by their type byte (and, for 'r', by length); anything else is pgoutput.
	EnvelopeAuto EnvelopeMode = iota
	// EnvelopeNone: every input is a bare pgoutput message, as pg_logical_slot_peek_binary_changes
	// returns them.
	EnvelopeNone
)

// Options fix what the bytes alone cannot say. The zero value decides everything from context.
type Options struct {
	// Proto is the pgoutput proto_version (1 to 4), or 0 for unknown: then it is inferred from
	// the messages seen (Stream Start means at least 2, two-phase messages at least 3).
	Proto int
	// InStream says whether the first message is inside Stream Start … Stream Stop. Later
	// messages follow the stream's own Stream Start and Stream Stop messages.
	InStream Choice
	// ParallelAbort says whether Stream Abort messages carry the abort LSN and timestamp
	// (streaming = parallel, protocol 4).
	ParallelAbort Choice
	// Envelope says whether to look for replication protocol envelopes.
	Envelope EnvelopeMode
	// Physical says the stream is physical replication: an XLogData carries WAL, shown as
	// bytes, not a pgoutput message.
	Physical bool
}

// Relation is what a Relation message said about a relation.
type Relation struct {
	OID             uint32
	Namespace       string // "" means pg_catalog
	Name            string
	ReplicaIdentity byte // 'd', 'n', 'f' or 'i'
	Columns         []Column
	raw             []byte // the message from the OID on, to recognise a repeat without allocating
}

// QualifiedName returns namespace.name as a person would write it; an empty namespace is
// pg_catalog. The names are as sent, not escaped.
func (r *Relation) QualifiedName() string {
	ns := r.Namespace
	if ns == "" {
		ns = "pg_catalog"
	}
	return ns + "." + r.Name
}

// Column is one published column of a Relation.
type Column struct {
	Name         string
	Key          bool // part of the replica identity key
	TypeOID      uint32
	TypeModifier int32
	// TypeName is the built-in type's name, or namespace.name from a Type message, or "".
	TypeName string
}

// DataType is what a Type message said about a type.
type DataType struct {
	OID       uint32
	Namespace string
	Name      string
	raw       []byte // the message from the OID on, for Learnt
}

// Session decodes the messages of one stream in order, carrying what earlier messages said:
// the protocol version, Relation and Type messages by OID, and whether a streamed transaction's
// block is open. The zero Session is not ready; use NewSession.
type Session struct {
	opts      Options
	proto     int  // known or inferred protocol version, 0 when unknown
	stream    int8 // 1 inside Stream Start … Stream Stop, 0 outside, -1 unknown
	parallel  int8 // 1 Stream Abort carries LSN and time, 0 it does not, -1 unknown
	relations map[uint32]*Relation
	// versions keeps the last few definitions of each relation, so a stream that alternates
	// between them (a capture replayed, a column added and dropped) reuses them.
	versions map[uint32][]*Relation
	types    map[uint32]*DataType
	names    map[string]string
	// recent caches the relations last looked up, with their relIndex, by OID modulo its size.
	recent [8]recentRelation
	// table is the message table the session decodes with; index maps a type byte to its
	// entry's position plus one (0: no such type).
	table messageTypes
	index [256]uint8
	// wrapper marks the type bytes that may open an envelope (with EnvelopeAuto): a message
	// that starts with any other byte is a bare pgoutput message.
	wrapper [256]bool
	// envelopeLen is, per entry of envelopes, the length of its fields after the type byte.
	envelopeLen []int
	// fixed is, per entry of table, the nodes of a message of fixed-size fields only (see
	// fixedNodes), or nil.
	fixed     [][]Node
	envelopes envelopes
	// count is the number of messages decoded; relIndex the Index of the latest Relation
	// message of each OID.
	count    int
	relIndex map[uint32]int
	cur      cursor
	alt      Tree
}

// NewSession returns a session that decodes with the given options.
func NewSession(opts Options) *Session {
	s := &Session{opts: opts, proto: opts.Proto, stream: -1, parallel: -1,
		relations: map[uint32]*Relation{}, versions: map[uint32][]*Relation{}, types: map[uint32]*DataType{}, names: map[string]string{}, relIndex: map[uint32]int{},
		envelopes: envelopeTable}
	s.useTable(messageTable)
	for _, e := range s.envelopes {
		s.envelopeLen = append(s.envelopeLen, fixedSize(e.Fields))
		s.wrapper[e.Type] = opts.Envelope == EnvelopeAuto
	}
	switch {
	case opts.InStream == Yes:
		s.stream = 1
	case opts.InStream == No || opts.Proto == 1:
		s.stream = 0
	}
	switch {
	case opts.ParallelAbort == Yes:
		s.parallel = 1
	case opts.ParallelAbort == No || (opts.Proto > 0 && opts.Proto < 4):
		s.parallel = 0
	}
	return s
}

// useTable makes the session decode with a message table (the package's, or a test's copy).
func (s *Session) useTable(t messageTypes) {
	s.table = t
	s.index = [256]uint8{}
	s.fixed = make([][]Node, len(t))
	for i := range t {
		s.index[t[i].Type] = uint8(i + 1)
		if t[i].body == nil && !hasString(t[i].Fields) {
			s.fixed[i] = fixedNodes(&t[i])
		}
	}
}

// lookupType returns the session's message type of a type byte, or nil.
func (s *Session) lookupType(typ byte) *MessageType {
	if i := s.index[typ]; i > 0 {
		return &s.table[i-1]
	}
	return nil
}

// setOptions makes the session decode the messages that follow with opts, as NewSession does:
// a START_REPLICATION's options, for the stream its CopyBothResponse starts.
func (s *Session) setOptions(opts Options) {
	fresh := NewSession(opts)
	s.opts, s.proto, s.stream, s.parallel = fresh.opts, fresh.proto, fresh.stream, fresh.parallel
	for i := range s.wrapper {
		s.wrapper[i] = fresh.wrapper[i]
	}
}

// Proto returns the protocol version given or inferred so far, or 0.
func (s *Session) Proto() int { return s.proto }

// Relation returns the Relation message seen for oid, or nil.
func (s *Session) Relation(oid uint32) *Relation { return s.relation(oid) }

// recentRelation is a slot of the session's cache of relations: a Relation and the Index of
// the Relation message that defined it (relIndex), for one OID.
type recentRelation struct {
	rel   *Relation
	index int
}

// relation looks a relation up through a small cache of the last ones used: a stream's changes
// go to few relations, and a map lookup costs as much as decoding a small change.
func (s *Session) relation(oid uint32) *Relation {
	rel, _ := s.relationAt(oid)
	return rel
}

// relationAt returns the relation of oid, or nil, and the Index of the Relation message that
// defined it.
func (s *Session) relationAt(oid uint32) (*Relation, int) {
	slot := &s.recent[oid%uint32(len(s.recent))]
	if slot.rel != nil && slot.rel.OID == oid {
		return slot.rel, slot.index
	}
	rel := s.relations[oid]
	if rel == nil {
		return nil, 0
	}
	*slot = recentRelation{rel: rel, index: s.relIndex[oid]}
	return rel, slot.index
}

// setRelation records the Relation message for oid, defined by the message of that Index.
// Kept out of line: its map writes would be copied into each caller.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (s *Session) setRelation(oid uint32, rel *Relation, index int) {
	s.relations[oid] = rel
	s.relIndex[oid] = index
	s.recent[oid%uint32(len(s.recent))] = recentRelation{rel: rel, index: index}
}

// DataType returns the Type message seen for oid, or nil.
func (s *Session) DataType(oid uint32) *DataType { return s.types[oid] }

// TypeName names a type OID from the built-in types or a Type message seen, or returns "".
func (s *Session) TypeName(oid uint32) string {
	if n := pgvalue.TypeName(oid); n != "" {
		return n
	}
	if t := s.types[oid]; t != nil {
		if t.Namespace == "" {
			return t.Name
		}
		return t.Namespace + "." + t.Name
	}
	return ""
}

// intern returns b as a string shared by every name of the session with these bytes. Kept out
// of line: its map lookup and write would be copied into each caller.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (s *Session) intern(b []byte) string {
	if v, ok := s.names[string(b)]; ok {
		return v
	}
	v := string(b)
	s.names[v] = v
	return v
}

// Decode decodes one message (with any envelope around it) into a new Tree.
func (s *Session) Decode(b []byte) *Tree {
	t := &Tree{}
	s.DecodeInto(t, b)
	return t
}

// DecodeInto decodes one message into t, reusing t's storage. The tree's values are views into b.
func (s *Session) DecodeInto(t *Tree, b []byte) { s.decodeMessage(t, b, false) }

// Check reports whether b decodes, exactly as DecodeInto would read it at this point of the
// stream, and moves the session on as DecodeInto does (the stream state, the protocol version,
// the Stream Abort reading, the message count), without recording a node: its memory does not
// grow with the message. It learns no names from Relation and Type messages; those name
// columns and types and never decide whether a message decodes. It is how a caller scores a
// reading of many messages, or of one huge one, or finds where a message can end.
//
// Its answer is nil, or an error without path or detail: DecodeInto's but for two things. An
// invalid value read with the fields around it may be placed at the first of them. And for a
// message the context lets read two ways, neither fitting, where DecodeInto shows the default
// reading's error, Check says what a longer message needs for either to fit. So with
// ErrTruncated no message shorter than Offset+Need fits, with ErrUnterminated none without a
// zero byte after Offset, and with another error no longer one does. The error is the
// session's, valid until its next call.
func (s *Session) Check(b []byte) *Error {
	s.decodeMessage(&s.alt, b, true)
	return s.alt.Err
}

// OneReading reports whether the message b starts with reads one way only at this point of
// the stream (no envelope; its type's fields not left open by the context): it ends where its
// fields do, so Check of it with more bytes after reports ErrTrailing at its end.
func (s *Session) OneReading(b []byte) bool {
	if len(b) == 0 || s.wrapper[b[0]] {
		return false
	}
	stream, abort := s.open(s.lookupType(b[0]))
	return !stream && !abort
}

// open says which readings of a message of type mt the context leaves open: with and without
// a streamed transaction's xid, with and without a Stream Abort's parallel fields.
func (s *Session) open(mt *MessageType) (stream, abort bool) {
	return mt != nil && mt.StreamXid && s.stream < 0, mt != nil && mt.ParallelFields && s.parallel < 0
}

// decodeMessage decodes one message into t, choosing between readings the context leaves open,
// and applies it to the session; a probe records no nodes (t is then the session's own alt).
func (s *Session) decodeMessage(t *Tree, b []byte, probe bool) {
	var mt *MessageType
	if len(b) > 0 && !s.wrapper[b[0]] {
		mt = s.lookupType(b[0])
	} else {
		mt = s.peekType(b)
	}
	first := reading{inStream: s.stream == 1, parallel: s.parallel == 1}
	streamOpen, abortOpen := s.open(mt)
	if !streamOpen && !abortOpen {
		s.decode(t, b, first, probe)
		s.apply(t, probe)
		return
	}
	alt := first
	if streamOpen {
		alt.inStream = true
	}
	if abortOpen {
		alt.parallel = true
	}
	// Probe both readings, the default last, then decode the one kept: the default unless only
	// the other fits. A probe that keeps the default has its answer already (t is s.alt).
	s.decode(&s.alt, b, alt, true)
	altFits := s.alt.Err == nil
	var altErr Error
	if !altFits {
		altErr = *s.alt.Err
	}
	s.decode(&s.alt, b, first, true)
	firstFits := s.alt.Err == nil
	keep := first
	if !firstFits && altFits {
		keep = alt
	}
	if !probe || keep != first {
		s.decode(t, b, keep, probe)
	} else if !firstFits && !altFits {
		either(t.Err, &altErr)
	}
	t.Reading.Guessed = true
	t.Reading.AlsoFit = firstFits && altFits
	t.Reading.Note = choiceNote(streamOpen, t)
	s.apply(t, probe)
}

// either makes e, a probe's error in one reading of a message read two ways, say what a longer
// message needs for either reading to fit, given a, the other's: no shorter message fits.
func either(e, a *Error) {
	switch {
	case a.Need == 0:
		// No longer message fits a's reading.
	case e.Need != 0 && e.Kind != a.Kind:
		// Too short both ways, one for a zero byte: at least one byte more.
		e.Kind, e.Offset, e.Field, e.Need, e.Left = ErrTruncated, e.Offset+e.Left, FieldUndecoded, 1, 0
	case e.Need == 0 || a.Offset+a.Need < e.Offset+e.Need || a.Offset+a.Need == e.Offset+e.Need && a.Offset < e.Offset:
		e.Kind, e.Offset, e.Field, e.Need, e.Left = a.Kind, a.Offset, a.Field, a.Need, a.Left
	}
}

// choiceNote explains, without allocating, which reading was taken and why.
func choiceNote(stream bool, t *Tree) string {
	r := &t.Reading
	if stream {
		switch {
		case t.Err != nil:
			return "Whether this change is inside a streamed transaction is not known, and neither reading (with or without the Xid) fits the bytes; shown without the Xid."
		case r.AlsoFit && r.InStream:
			return "Read as inside a streamed transaction (Xid present), as the stream context says; the reading without the Xid also fits the bytes."
		case r.AlsoFit:
			return "Read as outside a streamed transaction (no Xid); the reading with an Xid also fits the bytes. Set the in-stream option if this change was streamed."
		case r.InStream:
			return "Read as inside a streamed transaction (Xid present): only that reading consumes exactly all the bytes."
		default:
			return "Read as outside a streamed transaction (no Xid): only that reading consumes exactly all the bytes."
		}
	}
	switch {
	case t.Err != nil:
		return "Whether this Stream Abort carries the abort LSN and timestamp (streaming = parallel) is not known, and neither reading fits the bytes; shown without them."
	case r.AlsoFit:
		return "Read as a Stream Abort without abort LSN and timestamp; the reading with them also fits."
	case r.ParallelAbort:
		return "Read with the abort LSN and timestamp (streaming = parallel): only that reading consumes exactly all the bytes."
	default:
		return "Read without the abort LSN and timestamp (streaming is not parallel): only that reading consumes exactly all the bytes."
	}
}

// peekType finds the pgoutput message type inside any envelope, without decoding, or nil.
func (s *Session) peekType(b []byte) *MessageType {
	for depth := 0; depth < maxEnvelopes && s.opts.Envelope == EnvelopeAuto && len(b) > 0; depth++ {
		k := s.envelopes.find(b, depth)
		if k < 0 || s.envelopes[k].body == nil {
			break
		}
		b = b[min(1+s.envelopeLen[k], len(b)):]
	}
	if len(b) == 0 {
		return nil
	}
	return s.lookupType(b[0])
}

// decode decodes b into t with one reading of the context-dependent fields. A probe only asks
// whether the reading fits: its error has no path or detail, so it allocates nothing.
func (s *Session) decode(t *Tree, b []byte, rd reading, probe bool) {
	c := s.start(t, b, probe)
	// Field by field: a Reading written whole is a call to clear it and a memory.fill on
	// WebAssembly, which cost more than the stores.
	r := &t.Reading
	r.InStream, r.ParallelAbort = rd.inStream, rd.parallel
	switch {
	case len(b) == 0:
		c.fail(ErrTruncated, FieldUnknownType, 1, detail{})
	case s.wrapper[b[0]]:
		s.layer(c, rd, 0)
	default:
		s.message(c, rd)
	}
	s.finish(t, c, probe)
	if !rd.inStream || t.msg == nil || !t.msg.StreamXid {
		t.Reading.InStream = false
	}
	if t.msg == nil || !t.msg.ParallelFields {
		t.Reading.ParallelAbort = false
	}
}

// start empties t for a decode of b and returns the session's cursor, ready to read b.
func (s *Session) start(t *Tree, b []byte, probe bool) *cursor {
	t.Bytes = b
	t.Nodes = t.Nodes[:0]
	t.Err = nil
	t.Message = -1
	t.Type = 0
	t.msg = nil
	t.Wire = nil
	t.Side = SideUnknown
	t.Columns = nil
	r := &t.Reading
	r.InStream, r.ParallelAbort, r.Envelope, r.Guessed, r.AlsoFit = false, false, 0, false, false
	r.Note, r.Proto, r.ProtoSet = "", s.proto, s.opts.Proto != 0
	t.Relation = nil
	t.MissingRelation = 0
	t.Index = s.count
	t.RelationIndex = -1
	t.rels = t.rels[:0]
	t.types = t.types[:0]
	c := &s.cur
	c.reset(t, b)
	c.probe = probe
	return c
}

// finish ends a decode: bytes after a complete message are trailing, and the cursor's nodes
// and error go to the tree.
func (s *Session) finish(t *Tree, c *cursor, probe bool) {
	b := t.Bytes
	if c.err == nil && c.pos < len(b) {
		off := c.pos
		if !probe {
			// A probe keeps no node and asks for no detail.
			c.leaf(FieldTrailing, FormatBytes, len(b)-off)
			c.detail = detail{form: detailTrailing, num: len(b) - off}
		}
		c.failed = Error{Kind: ErrTrailing, Offset: off, Field: FieldTrailing}
		c.err = &c.failed
	}
	t.Nodes = c.nodes
	if c.err != nil && !probe {
		e := c.failed
		e.Detail = c.detail.String()
		t.Err = &e
	} else if c.err != nil {
		t.Err = &c.failed // a probe's tree is only asked whether it failed
	}
	c.t, c.nodes = nil, nil
}

// maxEnvelopes is how deep envelopes nest: CopyData around XLogData.
const maxEnvelopes = 2

// layer decodes an envelope or a pgoutput message at the cursor; depth counts envelopes.
func (s *Session) layer(c *cursor, rd reading, depth int) {
	k := -1
	if s.opts.Envelope == EnvelopeAuto && depth < maxEnvelopes {
		k = s.envelopes.find(c.b[c.pos:c.end], depth)
	}
	if k < 0 {
		s.message(c, rd)
		return
	}
	e := &s.envelopes[k]
	if c.t.Reading.Envelope == 0 {
		c.t.Reading.Envelope = e.Type
	}
	if e.note != "" {
		c.t.Reading.Note = e.note
	}
	c.push(e.Group, 0)
	c.Byte1(e.TypeField)
	var last uint64
	if c.fixed(e.Fields) {
		last = c.lastValue(e.Fields)
	} else {
		last = c.fields(e.Fields)
	}
	if e.body != nil && c.err == nil {
		e.body(s, c, rd, depth, last)
	}
	c.pop()
}

// copyDataBody reads what a CopyData's length says follows: an envelope or a message.
func copyDataBody(s *Session, c *cursor, rd reading, depth int, length uint64) {
	n := uint32(length)
	if n < 4 || int(n)-4 > c.remaining() {
		c.invalid(detail{form: detailCopyLength, num: int(int32(n)) - 4, num2: c.remaining()})
		return
	}
	c.end = c.pos + int(n) - 4
	if c.pos < c.end {
		s.layer(c, rd, depth+1)
	}
	c.end = len(c.b)
}

// xlogDataBody reads the pgoutput message an XLogData carries.
func xlogDataBody(s *Session, c *cursor, rd reading, depth int, _ uint64) {
	if s.opts.Physical {
		c.Bytes(FieldXLogDataWAL, c.remaining())
		return
	}
	if c.pos == c.end {
		c.fail(ErrTruncated, FieldUnknownType, 1, detail{})
		return
	}
	s.message(c, rd)
}

// maxRelationVersions bounds the definitions of one relation a session remembers.
const maxRelationVersions = 4

// apply records what a decoded message says about the stream: relations, types, stream state
// and protocol version. After a probe (Check) the tree holds no nodes, so the names Relation and
// Type messages give (learn) are not recorded; nothing else depends on the nodes.
func (s *Session) apply(t *Tree, probe bool) {
	s.count++
	mt := t.msg
	if mt == nil {
		return
	}
	// A message in error still moves the stream state: its type byte is clear.
	switch mt.Stream {
	case StreamOpens:
		s.stream = 1
	case StreamCloses:
		s.stream = 0
	}
	if mt.Proto > MinProto {
		s.atLeast(int(mt.Proto))
	}
	if t.Reading.InStream {
		s.atLeast(int(FieldStreamXid.Info().Proto))
	}
	if t.Err != nil {
		return
	}
	if t.Reading.ParallelAbort {
		// A Stream Abort read with the parallel fields fixes the protocol version and the
		// reading of the Stream Aborts that follow.
		s.atLeast(int(FieldStreamAbortLSN.Info().Proto))
		s.parallel = 1
	}
	if mt.learn != nil && !probe {
		mt.learn(s, t)
	}
}

func (s *Session) atLeast(v int) {
	if s.opts.Proto == 0 && s.proto < v {
		s.proto = v
	}
}

func learnType(s *Session, t *Tree) {
	m := &t.Nodes[t.Message]
	var oid uint32
	var ns, name, raw []byte
	for i := t.Message; i < int(m.End); i++ {
		n := &t.Nodes[i]
		switch n.Field {
		case FieldTypeOID:
			oid = uint32(t.ValueOf(i).Num)
			raw = t.Bytes[n.Offset : m.Offset+m.Length]
		case FieldTypeNamespace:
			ns = t.ValueBytes(i)
		case FieldTypeName:
			name = t.ValueBytes(i)
		}
	}
	if old := s.types[oid]; old != nil && old.Namespace == string(ns) && old.Name == string(name) {
		return
	}
	s.types[oid] = &DataType{OID: oid, Namespace: string(ns), Name: string(name), raw: append([]byte(nil), raw...)}
}

func learnRelation(s *Session, t *Tree) {
	m := &t.Nodes[t.Message]
	// raw: the message from the Relation OID on (after the type byte and any Xid).
	var oid uint32
	var raw []byte
	for i := t.Message; i < int(m.End); i++ {
		if t.Nodes[i].Field == FieldRelationOID {
			oid = uint32(t.ValueOf(i).Num)
			raw = t.Bytes[t.Nodes[i].Offset : m.Offset+m.Length]
			break
		}
	}
	for _, old := range s.versions[oid] {
		if string(old.raw) == string(raw) {
			s.setRelation(oid, old, t.Index)
			return
		}
	}
	rel := &Relation{OID: oid, raw: append([]byte(nil), raw...)}
	for i := t.Message; i < int(m.End); i++ {
		n := &t.Nodes[i]
		switch n.Field {
		case FieldRelationNamespace:
			rel.Namespace = s.intern(t.ValueBytes(i))
		case FieldRelationName:
			rel.Name = s.intern(t.ValueBytes(i))
		case FieldRelationReplicaIdentity:
			rel.ReplicaIdentity = byte(t.ValueOf(i).Num)
		case FieldRelationColumnCount:
			// The message decoded without error: every column it counts is there.
			rel.Columns = make([]Column, 0, t.ValueOf(i).Num)
		case FieldRelationColumn:
			rel.Columns = append(rel.Columns, Column{})
		case FieldRelationColumnName:
			rel.Columns[len(rel.Columns)-1].Name = s.intern(t.ValueBytes(i))
		case FieldRelationColumnFlags:
			rel.Columns[len(rel.Columns)-1].Key = t.ValueOf(i).Num&1 != 0
		case FieldRelationColumnTypeOID:
			col := &rel.Columns[len(rel.Columns)-1]
			col.TypeOID = uint32(t.ValueOf(i).Num)
			col.TypeName = s.TypeName(col.TypeOID)
		case FieldRelationColumnTypeModifier:
			rel.Columns[len(rel.Columns)-1].TypeModifier = int32(t.ValueOf(i).Num)
		}
	}
	s.setRelation(oid, rel, t.Index)
	if v := s.versions[oid]; len(v) < maxRelationVersions {
		s.versions[oid] = append(v, rel)
	} else {
		copy(v, v[1:])
		v[len(v)-1] = rel
	}
}
