package decoder

// The pgoutput protocol versions (proto_version) this package reads: what PostgreSQL's
// pgoutput accepts (LOGICALREP_PROTO_MIN_VERSION_NUM and LOGICALREP_PROTO_MAX_VERSION_NUM).
// TestProtocolVersions checks MaxProto against the field table.
const (
	MinProto = 1
	MaxProto = 4
)

// Block is a kind of bracketed run of messages in a stream.
type Block uint8

// Blocks.
const (
	BlockNone        Block = iota
	BlockTransaction       // Begin … Commit
	BlockStream            // Stream Start … Stream Stop: one block of a streamed transaction
	BlockPrepared          // Begin Prepare … Prepare: a transaction prepared for two-phase commit
)

// Role is a message's place in a transaction.
type Role uint8

// Roles.
const (
	RoleNone         Role = iota // not a pgoutput message: an envelope alone, or an unknown type
	RoleInside                   // belongs to the block open around it, if any: changes, Relation, Type, Origin, Message
	RoleBegin                    // Begin: opens a transaction
	RoleCommit                   // Commit: closes it
	RoleStreamStart              // Stream Start: opens a block of a streamed transaction
	RoleStreamStop               // Stream Stop: closes the block
	RoleStreamEnd                // Stream Commit, Stream Abort, Stream Prepare: end a streamed transaction, between blocks
	RoleBeginPrepare             // Begin Prepare: opens a transaction prepared for two-phase commit
	RolePrepare                  // Prepare: closes it (PREPARE TRANSACTION)
	RolePreparedEnd              // Commit Prepared, Rollback Prepared: end a prepared transaction
)

// Opens reports whether the message opens a block (Begin, Stream Start, Begin Prepare).
func (r Role) Opens() bool { return r == RoleBegin || r == RoleStreamStart || r == RoleBeginPrepare }

// Closes reports whether the message closes the block that its Block names (Commit, Stream
// Stop, Prepare).
func (r Role) Closes() bool { return r == RoleCommit || r == RoleStreamStop || r == RolePrepare }

// Block names the kind of block the message opens or closes, or BlockNone.
func (r Role) Block() Block {
	switch r {
	case RoleBegin, RoleCommit:
		return BlockTransaction
	case RoleStreamStart, RoleStreamStop:
		return BlockStream
	case RoleBeginPrepare, RolePrepare:
		return BlockPrepared
	}
	return BlockNone
}

// StreamEffect is what a message does to the "inside a streamed transaction's block" state,
// which decides whether the next changes carry an Xid.
type StreamEffect uint8

// Stream effects.
const (
	StreamKeeps  StreamEffect = iota // no effect
	StreamOpens                      // a block opens: the changes that follow carry an Xid
	StreamCloses                     // no block is open after it
)

// MessageType describes one pgoutput message type: everything the decoder knows about it apart
// from its fields' descriptions, which are in the field table (FieldID.Info).
type MessageType struct {
	// Type is the type byte.
	Type byte
	// Group is the field of the whole message (its Info().Name is the message's name, as the
	// protocol documentation says it); TypeField is the field of its type byte.
	Group, TypeField FieldID
	// Proto is the lowest proto_version that sends it.
	Proto uint8
	// StreamXid: inside a streamed transaction's block the type byte is followed by the Xid of
	// the (sub)transaction the message belongs to (FieldStreamXid).
	StreamXid bool
	// Xid is the field that holds the message's transaction xid (FieldStreamXid for the
	// messages that carry one only in a stream), or FieldUnknown when it has none.
	Xid FieldID
	// Role is its place in a transaction; Stream its effect on the stream state.
	Role   Role
	Stream StreamEffect
	// ParallelFields: the message ends with fields sent only with streaming = parallel (Stream
	// Abort's abort LSN and timestamp), so whether they are there is a choice (Reading).
	ParallelFields bool
	// Fields lists the fields after the type byte (and any stream Xid) of a message with a
	// fixed layout; a message whose layout depends on its contents has a body function instead.
	Fields []FieldID
	body   func(s *Session, c *cursor, rd reading)
	// learn records the names the session learns from a message decoded without error (its
	// Relation or Type), reading the tree's nodes.
	learn func(s *Session, t *Tree)
}

// Name returns the message's name as the protocol documentation writes it ("Stream Abort").
func (m *MessageType) Name() string { return m.Group.Info().Name }

// messageTable is every pgoutput message type, in the order of the "expected a pgoutput message
// type" list: those of protocol 1, then streaming (2), then two-phase (3). Adding a type is one
// entry here plus its fields in fieldtable.go (docs/decoder.md, "Adding a message type").
var messageTable = []MessageType{
	{Type: 'B', Group: FieldBegin, TypeField: FieldBeginType, Proto: 1, Xid: FieldBeginXid, Role: RoleBegin, Stream: StreamCloses,
		Fields: []FieldID{FieldBeginFinalLSN, FieldBeginCommitTime, FieldBeginXid}},
	{Type: 'C', Group: FieldCommit, TypeField: FieldCommitType, Proto: 1, Role: RoleCommit, Stream: StreamCloses,
		Fields: []FieldID{FieldCommitFlags, FieldCommitLSN, FieldCommitEndLSN, FieldCommitTime}},
	{Type: 'O', Group: FieldOrigin, TypeField: FieldOriginType, Proto: 1, Role: RoleInside,
		Fields: []FieldID{FieldOriginLSN, FieldOriginName}},
	{Type: 'R', Group: FieldRelation, TypeField: FieldRelationType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: relationBody, learn: learnRelation},
	{Type: 'Y', Group: FieldType, TypeField: FieldTypeType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		Fields: []FieldID{FieldTypeOID, FieldTypeNamespace, FieldTypeName}, learn: learnType},
	{Type: 'I', Group: FieldInsert, TypeField: FieldInsertType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: insertBody},
	{Type: 'U', Group: FieldUpdate, TypeField: FieldUpdateType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: updateBody},
	{Type: 'D', Group: FieldDelete, TypeField: FieldDeleteType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: deleteBody},
	{Type: 'T', Group: FieldTruncate, TypeField: FieldTruncateType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: truncateBody},
	{Type: 'M', Group: FieldMessage, TypeField: FieldMessageType, Proto: 1, StreamXid: true, Xid: FieldStreamXid, Role: RoleInside,
		body: logicalMessageBody},
	{Type: 'S', Group: FieldStreamStart, TypeField: FieldStreamStartType, Proto: 2, Xid: FieldStreamStartXid, Role: RoleStreamStart, Stream: StreamOpens,
		Fields: []FieldID{FieldStreamStartXid, FieldStreamStartFirst}},
	{Type: 'E', Group: FieldStreamStop, TypeField: FieldStreamStopType, Proto: 2, Role: RoleStreamStop, Stream: StreamCloses,
		Fields: []FieldID{}},
	{Type: 'c', Group: FieldStreamCommit, TypeField: FieldStreamCommitType, Proto: 2, Xid: FieldStreamCommitXid, Role: RoleStreamEnd, Stream: StreamCloses,
		Fields: []FieldID{FieldStreamCommitXid, FieldStreamCommitFlags, FieldStreamCommitLSN, FieldStreamCommitEndLSN, FieldStreamCommitTime}},
	{Type: 'A', Group: FieldStreamAbort, TypeField: FieldStreamAbortType, Proto: 2, Xid: FieldStreamAbortXid, Role: RoleStreamEnd, Stream: StreamCloses,
		ParallelFields: true, body: streamAbortBody},
	{Type: 'b', Group: FieldBeginPrepare, TypeField: FieldBeginPrepareType, Proto: 3, Xid: FieldBeginPrepareXid, Role: RoleBeginPrepare, Stream: StreamCloses,
		Fields: []FieldID{FieldBeginPrepareLSN, FieldBeginPrepareEndLSN, FieldBeginPrepareTime, FieldBeginPrepareXid, FieldBeginPrepareGID}},
	{Type: 'P', Group: FieldPrepare, TypeField: FieldPrepareType, Proto: 3, Xid: FieldPrepareXid, Role: RolePrepare, Stream: StreamCloses,
		Fields: []FieldID{FieldPrepareFlags, FieldPrepareLSN, FieldPrepareEndLSN, FieldPrepareTime, FieldPrepareXid, FieldPrepareGID}},
	{Type: 'K', Group: FieldCommitPrepared, TypeField: FieldCommitPreparedType, Proto: 3, Xid: FieldCommitPreparedXid, Role: RolePreparedEnd, Stream: StreamCloses,
		Fields: []FieldID{FieldCommitPreparedFlags, FieldCommitPreparedLSN, FieldCommitPreparedEndLSN, FieldCommitPreparedTime, FieldCommitPreparedXid, FieldCommitPreparedGID}},
	{Type: 'r', Group: FieldRollbackPrepared, TypeField: FieldRollbackPreparedType, Proto: 3, Xid: FieldRollbackPreparedXid, Role: RolePreparedEnd, Stream: StreamCloses,
		Fields: []FieldID{FieldRollbackPreparedFlags, FieldRollbackPreparedPrepareEndLSN, FieldRollbackPreparedEndLSN, FieldRollbackPreparedPrepareTime, FieldRollbackPreparedTime, FieldRollbackPreparedXid, FieldRollbackPreparedGID}},
	{Type: 'p', Group: FieldStreamPrepare, TypeField: FieldStreamPrepareType, Proto: 3, Xid: FieldStreamPrepareXid, Role: RoleStreamEnd, Stream: StreamCloses,
		Fields: []FieldID{FieldStreamPrepareFlags, FieldStreamPrepareLSN, FieldStreamPrepareEndLSN, FieldStreamPrepareTime, FieldStreamPrepareXid, FieldStreamPrepareGID}},
}

// messageTypes is a table of message types: the package's own, or a test's copy with more.
type messageTypes []MessageType

// lookup returns the message type of typ, or nil.
func (ts messageTypes) lookup(typ byte) *MessageType {
	for i := range ts {
		if ts[i].Type == typ {
			return &ts[i]
		}
	}
	return nil
}

// expected is the start of the unknown type error: "expected a pgoutput message type (B C …), found ".
func (ts messageTypes) expected() string {
	b := []byte("expected a pgoutput message type (")
	for i := range ts {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, ts[i].Type)
	}
	return string(append(b, "), found "...))
}

// Messages returns a copy of the table of pgoutput message types, in the order the protocol
// introduced them.
func Messages() []MessageType {
	return append([]MessageType(nil), messageTable...)
}

// LookupMessage returns the description of a pgoutput message type byte; ok is false when typ
// is no pgoutput message type.
func LookupMessage(typ byte) (m MessageType, ok bool) {
	if p := messageTypes(messageTable).lookup(typ); p != nil {
		return *p, true
	}
	return MessageType{}, false
}

// MessageName returns the protocol documentation's name of a pgoutput message type
// ("Begin", "Stream Abort"), or "" when typ is no pgoutput message type.
func MessageName(typ byte) string {
	if p := messageTypes(messageTable).lookup(typ); p != nil {
		return p.Name()
	}
	return ""
}

// Envelopes returns the replication protocol messages read around or instead of a pgoutput
// message (CopyData, XLogData, Primary keepalive, Standby status update, Hot standby
// feedback), as message types with only Type, Group, TypeField and Name set.
func Envelopes() []MessageType {
	ms := make([]MessageType, len(envelopeTable))
	for i, e := range envelopeTable {
		ms[i] = MessageType{Type: e.Type, Group: e.Group, TypeField: e.TypeField}
	}
	return ms
}

// envelope describes a replication protocol message that may wrap a pgoutput message, or stand
// alone (keepalive, standby status update, hot standby feedback).
type envelope struct {
	Type             byte
	Group, TypeField FieldID
	// Fields follow the type byte; then body, if any, reads the rest (last is the value of the
	// last field, a length).
	Fields []FieldID
	body   func(s *Session, c *cursor, rd reading, depth int, last uint64)
	// outermost: recognised only as the outermost layer (CopyData).
	outermost bool
	// exact: recognised only when exactly its fields remain (a standby status update, whose
	// type byte 'r' a Rollback Prepared shares, is 34 bytes long, a Rollback Prepared at least 39).
	exact bool
	note  string
}

// envelopeTable is the replication protocol messages recognised around (or instead of) a
// pgoutput message, with EnvelopeAuto.
var envelopeTable = []envelope{
	{Type: 'd', Group: FieldCopyData, TypeField: FieldCopyDataType, Fields: []FieldID{FieldCopyDataLength},
		body: copyDataBody, outermost: true},
	{Type: 'w', Group: FieldXLogData, TypeField: FieldXLogDataType, Fields: []FieldID{FieldXLogDataStart, FieldXLogDataEnd, FieldXLogDataTime},
		body: xlogDataBody},
	{Type: 'k', Group: FieldKeepalive, TypeField: FieldKeepaliveType, Fields: []FieldID{FieldKeepaliveWALEnd, FieldKeepaliveTime, FieldKeepaliveReply}},
	{Type: 'h', Group: FieldHotStandby, TypeField: FieldHotStandbyType, Fields: []FieldID{FieldHotStandbyTime, FieldHotStandbyXmin,
		FieldHotStandbyXminEpoch, FieldHotStandbyCatalogXmin, FieldHotStandbyCatalogXminEpoch}},
	{Type: 'r', Group: FieldStandbyStatus, TypeField: FieldStandbyStatusType, Fields: []FieldID{FieldStandbyStatusWritten,
		FieldStandbyStatusFlushed, FieldStandbyStatusApplied, FieldStandbyStatusTime, FieldStandbyStatusReply},
		exact: true, note: "Read as a Standby status update: it is 34 bytes long, and a Rollback Prepared is at least 39."},
}

// envelopes is a table of envelopes; a Session refers to envelopeTable through one, because the
// envelopes' bodies decode what they wrap with the session.
type envelopes []envelope

// find returns the position of the envelope whose type byte is at b[0] and that may appear at
// this depth (0: outermost), or -1.
func (es envelopes) find(b []byte, depth int) int {
	for i := range es {
		e := &es[i]
		if e.Type != b[0] || e.outermost && depth > 0 || e.exact && len(b) != 1+fixedSize(e.Fields) {
			continue
		}
		return i
	}
	return -1
}

// fixedSize is the number of bytes the fields take on the wire; each must have a fixed size.
func fixedSize(fields []FieldID) int {
	n := 0
	for _, f := range fields {
		n += f.Info().Format.Size()
	}
	return n
}

// hasString reports whether any of the fields is a String (of no fixed size).
func hasString(fields []FieldID) bool {
	for _, f := range fields {
		if f.Info().Format.Size() == 0 {
			return true
		}
	}
	return false
}

// Size is the number of bytes of a fixed-size format, or 0.
func (f Format) Size() int {
	switch f {
	case FormatByte1, FormatInt8:
		return 1
	case FormatInt16:
		return 2
	case FormatInt32:
		return 4
	case FormatInt64:
		return 8
	}
	return 0
}
