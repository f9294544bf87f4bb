package decoder

// Kind classifies a field for display: the hex view tints bytes by kind.
type Kind uint8

// Field kinds.
const (
	KindGroup     Kind = iota // a message, envelope, tuple or column: bytes belong to its children
	KindType                  // the type byte of a message or envelope
	KindInteger               // a plain integer (flags aside)
	KindLSN                   // a log sequence number
	KindTime                  // a timestamp
	KindXid                   // a transaction id
	KindOID                   // an object id (relation, type)
	KindString                // a NUL-terminated string
	KindMarker                // a one-byte marker inside a message (K O N, n u t b)
	KindLength                // a count or a length that sizes what follows
	KindValue                 // a column value or message content
	KindFlags                 // a bit set or a flags byte
	KindUndecoded             // bytes that could not be decoded, or trailing bytes
)

var kindNames = [...]string{"group", "type", "integer", "lsn", "time", "xid", "oid", "string", "marker", "length", "value", "flags", "undecoded"}

// String names the kind in lower case ("lsn", "marker"); the page uses it as a CSS class suffix.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Code names one value of a marker or one bit of a flags field.
type Code struct {
	Code    uint64
	Name    string // short: "CASCADE", "old key"
	Meaning string
	// Since is the first PostgreSQL release that sends the value, when it is later than its
	// field's (TupleData's 'b', binary values, PostgreSQL 14); 0 otherwise.
	Since int
}

// FieldInfo describes a protocol field: what the bytes mean and since when they are sent.
type FieldInfo struct {
	Name string // as the protocol documentation would say it: "Xid", "Relation OID"
	// Of names the message or layer the field belongs to ("Begin", "TupleData", "XLogData").
	Of     string
	Format Format
	Kind   Kind
	// Since is the first PostgreSQL major release that sends the field; Proto the lowest
	// pgoutput proto_version it needs (0 for replication-protocol envelopes).
	Since uint8
	Proto uint8
	// Meaning says what the field is, in a sentence or two.
	Meaning string
	// Codes names the values of a marker, or the bits of a flags field.
	Codes []Code
	// Explain is the template of the sentence that explains the field in a decoded message
	// (Tree.Explain fills it; its placeholders are listed in explain.go).
	Explain string
}

// CodeName returns the name of value v in the field's Codes, or "".
func (f *FieldInfo) CodeName(v uint64) string {
	for i := range f.Codes {
		if f.Codes[i].Code == v {
			return f.Codes[i].Name
		}
	}
	return ""
}

// FieldID identifies a protocol field. Its description is FieldID.Info().
type FieldID uint16

// Info returns the field's description.
func (id FieldID) Info() *FieldInfo {
	if int(id) < len(fieldTable) {
		return &fieldTable[id]
	}
	if i := int(id) - len(fieldTable); i < len(wireFieldTable) {
		return &wireFieldTable[i]
	}
	return &fieldTable[FieldUnknown]
}

// String returns the field's name.
func (id FieldID) String() string { return id.Info().Name }

// NumFields is the number of field descriptions; FieldIDs run from 0 to NumFields-1.
const NumFields = int(numFields)

// Field identifiers, in wire order within each message.
const (
	FieldUnknown FieldID = iota
	FieldUndecoded
	FieldTrailing
	FieldUnknownType

	// Replication protocol envelopes.
	FieldCopyData
	FieldCopyDataType
	FieldCopyDataLength
	FieldXLogData
	FieldXLogDataType
	FieldXLogDataStart
	FieldXLogDataEnd
	FieldXLogDataTime
	FieldKeepalive
	FieldKeepaliveType
	FieldKeepaliveWALEnd
	FieldKeepaliveTime
	FieldKeepaliveReply
	FieldStandbyStatus
	FieldStandbyStatusType
	FieldStandbyStatusWritten
	FieldStandbyStatusFlushed
	FieldStandbyStatusApplied
	FieldStandbyStatusTime
	FieldStandbyStatusReply
	FieldHotStandby
	FieldHotStandbyType
	FieldHotStandbyTime
	FieldHotStandbyXmin
	FieldHotStandbyXminEpoch
	FieldHotStandbyCatalogXmin
	FieldHotStandbyCatalogXminEpoch

	// Shared by the messages that carry it inside a streamed transaction.
	FieldStreamXid

	FieldBegin
	FieldBeginType
	FieldBeginFinalLSN
	FieldBeginCommitTime
	FieldBeginXid

	FieldMessage
	FieldMessageType
	FieldMessageFlags
	FieldMessageLSN
	FieldMessagePrefix
	FieldMessageLength
	FieldMessageContent

	FieldCommit
	FieldCommitType
	FieldCommitFlags
	FieldCommitLSN
	FieldCommitEndLSN
	FieldCommitTime

	FieldOrigin
	FieldOriginType
	FieldOriginLSN
	FieldOriginName

	FieldRelation
	FieldRelationType
	FieldRelationOID
	FieldRelationNamespace
	FieldRelationName
	FieldRelationReplicaIdentity
	FieldRelationColumnCount
	FieldRelationColumn
	FieldRelationColumnFlags
	FieldRelationColumnName
	FieldRelationColumnTypeOID
	FieldRelationColumnTypeModifier

	FieldType
	FieldTypeType
	FieldTypeOID
	FieldTypeNamespace
	FieldTypeName

	FieldInsert
	FieldInsertType
	FieldInsertRelationOID
	FieldInsertNew

	FieldUpdate
	FieldUpdateType
	FieldUpdateRelationOID
	FieldUpdateOld
	FieldUpdateNew

	FieldDelete
	FieldDeleteType
	FieldDeleteRelationOID
	FieldDeleteOld

	FieldTruncate
	FieldTruncateType
	FieldTruncateRelationCount
	FieldTruncateOptions
	FieldTruncateRelationOID

	FieldStreamStart
	FieldStreamStartType
	FieldStreamStartXid
	FieldStreamStartFirst

	FieldStreamStop
	FieldStreamStopType

	FieldStreamCommit
	FieldStreamCommitType
	FieldStreamCommitXid
	FieldStreamCommitFlags
	FieldStreamCommitLSN
	FieldStreamCommitEndLSN
	FieldStreamCommitTime

	FieldStreamAbort
	FieldStreamAbortType
	FieldStreamAbortXid
	FieldStreamAbortSubXid
	FieldStreamAbortLSN
	FieldStreamAbortTime

	FieldBeginPrepare
	FieldBeginPrepareType
	FieldBeginPrepareLSN
	FieldBeginPrepareEndLSN
	FieldBeginPrepareTime
	FieldBeginPrepareXid
	FieldBeginPrepareGID

	FieldPrepare
	FieldPrepareType
	FieldPrepareFlags
	FieldPrepareLSN
	FieldPrepareEndLSN
	FieldPrepareTime
	FieldPrepareXid
	FieldPrepareGID

	FieldCommitPrepared
	FieldCommitPreparedType
	FieldCommitPreparedFlags
	FieldCommitPreparedLSN
	FieldCommitPreparedEndLSN
	FieldCommitPreparedTime
	FieldCommitPreparedXid
	FieldCommitPreparedGID

	FieldRollbackPrepared
	FieldRollbackPreparedType
	FieldRollbackPreparedFlags
	FieldRollbackPreparedPrepareEndLSN
	FieldRollbackPreparedEndLSN
	FieldRollbackPreparedPrepareTime
	FieldRollbackPreparedTime
	FieldRollbackPreparedXid
	FieldRollbackPreparedGID

	FieldStreamPrepare
	FieldStreamPrepareType
	FieldStreamPrepareFlags
	FieldStreamPrepareLSN
	FieldStreamPrepareEndLSN
	FieldStreamPrepareTime
	FieldStreamPrepareXid
	FieldStreamPrepareGID

	// TupleData.
	FieldTupleNew
	FieldTupleKey
	FieldTupleOld
	FieldTupleColumnCount
	FieldTupleColumn
	FieldColumnKind
	FieldColumnLength
	FieldColumnValue

	// wireFieldsStart is the first field of the frontend/backend protocol's messages
	// (conversationfields.go), described in wireFieldTable.
	wireFieldsStart
)

// FieldTableSum is an FNV-1a hash of the field table's names, so that data that refers to
// fields by FieldID (the guide asset) is known to mean the same fields in this build.
func FieldTableSum() uint32 {
	h := uint32(2166136261)
	for i := range fieldTable {
		for _, s := range [2]string{fieldTable[i].Name, fieldTable[i].Of} {
			for j := 0; j < len(s); j++ {
				h = (h ^ uint32(s[j])) * 16777619
			}
			h = (h ^ 0) * 16777619
		}
	}
	return h
}
