package decoder

// Marker and flag values, shared by the fields that carry them.
var (
	codesTupleOld = []Code{
		{'K', "old key", "the old values of the replica identity key columns follow (other columns are sent as n); sent for every identity but FULL"},
		{'O', "old tuple", "the whole old row follows; sent when the table's REPLICA IDENTITY is FULL"},
	}
	codesTupleNew = []Code{{'N', "new tuple", "the new row follows"}}
	codesColumn   = []Code{
		{'n', "null", "the value is NULL; nothing follows"},
		{'u', "unchanged TOAST", "an unchanged TOASTed value: the value is not sent, keep the one you have"},
		{'t', "text", "the value in text format (the type's output function) follows, after an Int32 length"},
		{'b', "binary", "the value in binary format (the type's send function) follows, after an Int32 length (PostgreSQL 14, binary option)"},
	}
	codesReplicaIdentity = []Code{
		{'d', "default", "the primary key identifies rows (pg_class.relreplident 'd')"},
		{'n', "nothing", "no old row data is logged (REPLICA IDENTITY NOTHING)"},
		{'f', "full", "the whole old row is logged (REPLICA IDENTITY FULL)"},
		{'i', "index", "the columns of a chosen unique index identify rows (REPLICA IDENTITY USING INDEX)"},
	}
	codesTruncate = []Code{
		{1, "CASCADE", "TRUNCATE … CASCADE"},
		{2, "RESTART IDENTITY", "TRUNCATE … RESTART IDENTITY"},
	}
	codesColumnFlags  = []Code{{1, "key", "the column is part of the replica identity key"}}
	codesMessageFlags = []Code{{1, "transactional", "the message was emitted inside a transaction and is delivered with it"}}
	codesFirstSegment = []Code{
		{0, "continued", "a later segment of a transaction already streamed in part"},
		{1, "first", "the first streamed segment of this transaction"},
	}
	codesReply = []Code{
		{0, "no reply", "no reply requested"},
		{1, "reply now", "the sender asks for an immediate reply"},
	}
	codesZeroFlags = []Code{{0, "none", "currently always 0"}}
)

func descType(msg string, code byte, since, proto int, meaning string) FieldInfo {
	return FieldInfo{Name: "Type", Of: msg, Format: FormatByte1, Kind: KindType, Since: since, Proto: proto,
		Meaning: "Byte1('" + string(rune(code)) + "'): identifies the message as " + meaning + "."}
}

func descGroup(name string, since, proto int, meaning string) FieldInfo {
	return FieldInfo{Name: name, Of: name, Format: FormatGroup, Kind: KindGroup, Since: since, Proto: proto, Meaning: meaning}
}

func descLSN(of, name string, since, proto int, meaning string) FieldInfo {
	return FieldInfo{Name: name, Of: of, Format: FormatInt64, Kind: KindLSN, Since: since, Proto: proto, Meaning: meaning}
}

func descTime(of, name string, since, proto int, meaning string) FieldInfo {
	return FieldInfo{Name: name, Of: of, Format: FormatInt64, Kind: KindTime, Since: since, Proto: proto,
		Meaning: meaning + " Microseconds since 2000-01-01 00:00:00 UTC."}
}

func descXid(of string, since, proto int, meaning string) FieldInfo {
	return FieldInfo{Name: "Xid", Of: of, Format: FormatInt32, Kind: KindXid, Since: since, Proto: proto, Meaning: meaning}
}

func descFlags0(of string, since, proto int) FieldInfo {
	return FieldInfo{Name: "Flags", Of: of, Format: FormatInt8, Kind: KindFlags, Since: since, Proto: proto,
		Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags}
}

func descGID(of string) FieldInfo {
	return FieldInfo{Name: "GID", Of: of, Format: FormatString, Kind: KindString, Since: 15, Proto: 3,
		Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."}
}

func descRelOID(of string, since int) FieldInfo {
	return FieldInfo{Name: "Relation OID", Of: of, Format: FormatInt32, Kind: KindOID, Since: since, Proto: 1,
		Meaning: "OID of the relation, as sent in an earlier Relation message."}
}

// fieldTable holds the description of every field, indexed by FieldID. It is data only.
var fieldTable = [numFields]FieldInfo{
	FieldUnknown:     {Name: "Unknown", Kind: KindUndecoded, Meaning: "A field this decoder does not know."},
	FieldUndecoded:   {Name: "Undecoded bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes not decoded because an earlier field was in error."},
	FieldTrailing:    {Name: "Trailing bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes after the end of a complete message. The message's length comes from its envelope, so these should not be there."},
	FieldUnknownType: {Name: "Message type", Format: FormatByte1, Kind: KindUndecoded, Meaning: "The first byte of a message is its type code. This one is missing, or is not the type code of any pgoutput message or replication protocol envelope."},

	FieldCopyData:       descGroup("CopyData", 0, 0, "A frontend/backend protocol CopyData message; during replication every message travels inside one."),
	FieldCopyDataType:   {Name: "Type", Of: "CopyData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('d'): identifies the message as COPY data."},
	FieldCopyDataLength: {Name: "Length", Of: "CopyData", Format: FormatInt32, Kind: KindLength, Meaning: "Length of the message contents in bytes, including this field but not the type byte."},

	FieldXLogData:                   descGroup("XLogData", 0, 0, "A replication protocol XLogData message carrying one pgoutput message."),
	FieldXLogDataType:               {Name: "Type", Of: "XLogData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('w'): identifies the message as WAL data."},
	FieldXLogDataStart:              descLSN("XLogData", "Start LSN", 0, 0, "The starting point of the WAL data in this message. For logical replication, the LSN of the record being sent, or 0 for a message written ahead of another (Type, Relation, and a Begin followed by an Origin)."),
	FieldXLogDataEnd:                descLSN("XLogData", "WAL end", 0, 0, "The documentation says the current end of WAL on the server; in logical replication the walsender sets it to the same value as the start LSN."),
	FieldXLogDataTime:               descTime("XLogData", "Send time", 0, 0, "The server's system clock at the time of transmission."),
	FieldKeepalive:                  descGroup("Primary keepalive", 0, 0, "A replication protocol keepalive from the server."),
	FieldKeepaliveType:              {Name: "Type", Of: "Primary keepalive", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('k'): identifies the message as a sender keepalive."},
	FieldKeepaliveWALEnd:            descLSN("Primary keepalive", "WAL end", 0, 0, "The current end of WAL on the server; for a logical walsender, the position sent so far."),
	FieldKeepaliveTime:              descTime("Primary keepalive", "Send time", 0, 0, "The server's system clock at the time of transmission."),
	FieldKeepaliveReply:             {Name: "Reply requested", Of: "Primary keepalive", Format: FormatByte1, Kind: KindFlags, Meaning: "1 means the client should reply to this message as soon as possible, to avoid a timeout disconnect.", Codes: codesReply},
	FieldStandbyStatus:              descGroup("Standby status update", 0, 0, "A replication protocol status update from the client to the server."),
	FieldStandbyStatusType:          {Name: "Type", Of: "Standby status update", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('r'): identifies the message as a receiver status update."},
	FieldStandbyStatusWritten:       descLSN("Standby status update", "Written LSN", 0, 0, "The location of the last WAL byte + 1 received and written to disk by the client."),
	FieldStandbyStatusFlushed:       descLSN("Standby status update", "Flushed LSN", 0, 0, "The location of the last WAL byte + 1 flushed by the client. For a logical slot this advances confirmed_flush_lsn."),
	FieldStandbyStatusApplied:       descLSN("Standby status update", "Applied LSN", 0, 0, "The location of the last WAL byte + 1 applied by the client."),
	FieldStandbyStatusTime:          descTime("Standby status update", "Client time", 0, 0, "The client's system clock at the time of transmission."),
	FieldStandbyStatusReply:         {Name: "Reply requested", Of: "Standby status update", Format: FormatByte1, Kind: KindFlags, Meaning: "1 asks the server to reply at once (with a keepalive).", Codes: codesReply},
	FieldHotStandby:                 descGroup("Hot standby feedback", 0, 0, "A replication protocol hot standby feedback message from the client."),
	FieldHotStandbyType:             {Name: "Type", Of: "Hot standby feedback", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('h'): identifies the message as a hot standby feedback message."},
	FieldHotStandbyTime:             descTime("Hot standby feedback", "Client time", 0, 0, "The client's system clock at the time of transmission."),
	FieldHotStandbyXmin:             {Name: "Xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The standby's current global xmin, excluding the catalog_xmin from replication slots. 0 (with catalog xmin 0) stops feedback."},
	FieldHotStandbyXminEpoch:        {Name: "Xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the xmin xid."},
	FieldHotStandbyCatalogXmin:      {Name: "Catalog xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The lowest catalog_xmin of any replication slots on the standby."},
	FieldHotStandbyCatalogXminEpoch: {Name: "Catalog xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the catalog xmin xid."},

	FieldStreamXid: {Name: "Xid", Of: "streamed change", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2,
		Meaning: "Xid of the (sub)transaction the change belongs to. Present only inside a streamed transaction (between Stream Start and Stream Stop)."},

	FieldBegin:           descGroup("Begin", 10, 1, "Begin of a transaction. PostgreSQL 15 and later send it only before the first change that survives filtering, so empty transactions send nothing."),
	FieldBeginType:       descType("Begin", 'B', 10, 1, "a begin message"),
	FieldBeginFinalLSN:   descLSN("Begin", "Final LSN", 10, 1, "The final LSN of the transaction: the LSN of its commit record."),
	FieldBeginCommitTime: descTime("Begin", "Commit timestamp", 10, 1, "Commit timestamp of the transaction."),
	FieldBeginXid:        descXid("Begin", 10, 1, "Xid of the transaction."),

	FieldMessage:        descGroup("Message", 14, 1, "A logical decoding message, from pg_logical_emit_message(). Sent only with the messages option."),
	FieldMessageType:    descType("Message", 'M', 14, 1, "a logical decoding message"),
	FieldMessageFlags:   {Name: "Flags", Of: "Message", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 1, Meaning: "Either 0 for no flags or 1 if the logical decoding message is transactional.", Codes: codesMessageFlags},
	FieldMessageLSN:     descLSN("Message", "LSN", 14, 1, "The LSN of the logical decoding message."),
	FieldMessagePrefix:  {Name: "Prefix", Of: "Message", Format: FormatString, Kind: KindString, Since: 14, Proto: 1, Meaning: "The prefix of the logical decoding message."},
	FieldMessageLength:  {Name: "Content length", Of: "Message", Format: FormatInt32, Kind: KindLength, Since: 14, Proto: 1, Meaning: "Length of the content in bytes."},
	FieldMessageContent: {Name: "Content", Of: "Message", Format: FormatBytes, Kind: KindValue, Since: 14, Proto: 1, Meaning: "The content of the logical decoding message, raw bytes (not NUL-terminated)."},

	FieldCommit:       descGroup("Commit", 10, 1, "Commit of a transaction."),
	FieldCommitType:   descType("Commit", 'C', 10, 1, "a commit message"),
	FieldCommitFlags:  descFlags0("Commit", 10, 1),
	FieldCommitLSN:    descLSN("Commit", "Commit LSN", 10, 1, "The LSN of the commit record (the Begin's final LSN)."),
	FieldCommitEndLSN: descLSN("Commit", "End LSN", 10, 1, "The end LSN of the transaction: the end of its commit record."),
	FieldCommitTime:   descTime("Commit", "Commit timestamp", 10, 1, "Commit timestamp of the transaction."),

	FieldOrigin:     descGroup("Origin", 10, 1, "The replication origin of the transaction's changes; follows Begin, Begin Prepare or the first Stream Start."),
	FieldOriginType: descType("Origin", 'O', 10, 1, "an origin message"),
	FieldOriginLSN:  descLSN("Origin", "Origin commit LSN", 10, 1, "The LSN of the commit on the origin server. 0 when sent after a Stream Start."),
	FieldOriginName: {Name: "Origin name", Of: "Origin", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the origin."},

	FieldRelation:                   {Name: "Relation", Of: "Relation", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Describes a relation's published columns. Sent before the first change to the relation in a session, and again after its definition changes."},
	FieldRelationType:               descType("Relation", 'R', 10, 1, "a relation message"),
	FieldRelationOID:                {Name: "Relation OID", Of: "Relation", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation."},
	FieldRelationNamespace:          {Name: "Namespace", Of: "Relation", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Namespace (schema); an empty string means pg_catalog."},
	FieldRelationName:               {Name: "Relation name", Of: "Relation", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Relation name."},
	FieldRelationReplicaIdentity:    {Name: "Replica identity", Of: "Relation", Format: FormatInt8, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "The relation's replica identity setting (pg_class.relreplident).", Codes: codesReplicaIdentity},
	FieldRelationColumnCount:        {Name: "Column count", Of: "Relation", Format: FormatInt16, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Number of published columns that follow (generated columns are left out before PostgreSQL 18)."},
	FieldRelationColumn:             {Name: "Column", Of: "Relation", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "One published column, in attnum order."},
	FieldRelationColumnFlags:        {Name: "Flags", Of: "Relation column", Format: FormatInt8, Kind: KindFlags, Since: 10, Proto: 1, Meaning: "Either 0 for no flags or 1 if the column is part of the key (with REPLICA IDENTITY FULL, every column).", Codes: codesColumnFlags},
	FieldRelationColumnName:         {Name: "Column name", Of: "Relation column", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the column."},
	FieldRelationColumnTypeOID:      {Name: "Type OID", Of: "Relation column", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the column's data type (atttypid)."},
	FieldRelationColumnTypeModifier: {Name: "Type modifier", Of: "Relation column", Format: FormatInt32, Kind: KindInteger, Since: 10, Proto: 1, Meaning: "Type modifier of the column (atttypmod); -1 when there is none."},

	FieldType:          descGroup("Type", 10, 1, "Describes a non-built-in data type used by a published column (OID 10000 and above). Sent just before the Relation message."),
	FieldTypeType:      descType("Type", 'Y', 10, 1, "a type message"),
	FieldTypeOID:       {Name: "Type OID", Of: "Type", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the data type as the column uses it (may be a domain)."},
	FieldTypeNamespace: {Name: "Namespace", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Namespace of the base data type; an empty string means pg_catalog."},
	FieldTypeName:      {Name: "Type name", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the base data type (the documentation says of the data type; for a domain the server sends its base type's name)."},

	FieldInsert:            descGroup("Insert", 10, 1, "A row inserted."),
	FieldInsertType:        descType("Insert", 'I', 10, 1, "an insert message"),
	FieldInsertRelationOID: descRelOID("Insert", 10),
	FieldInsertNew:         {Name: "New tuple marker", Of: "Insert", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew},

	FieldUpdate:            descGroup("Update", 10, 1, "A row updated."),
	FieldUpdateType:        descType("Update", 'U', 10, 1, "an update message"),
	FieldUpdateRelationOID: descRelOID("Update", 10),
	FieldUpdateOld:         {Name: "Old tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'), optional: the old key (identity other than FULL) or the old row (FULL) follows. Sent whenever the decoded change has an old tuple: when key columns changed, or are stored out of line.", Codes: codesTupleOld},
	FieldUpdateNew:         {Name: "New tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew},

	FieldDelete:            descGroup("Delete", 10, 1, "A row deleted."),
	FieldDeleteType:        descType("Delete", 'D', 10, 1, "a delete message"),
	FieldDeleteRelationOID: descRelOID("Delete", 10),
	FieldDeleteOld:         {Name: "Old tuple marker", Of: "Delete", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'): the old key follows (every identity but FULL, including the primary key), or the whole old row (FULL).", Codes: codesTupleOld},

	FieldTruncate:              descGroup("Truncate", 11, 1, "One TRUNCATE of one or more published relations."),
	FieldTruncateType:          descType("Truncate", 'T', 11, 1, "a truncate message"),
	FieldTruncateRelationCount: {Name: "Relation count", Of: "Truncate", Format: FormatInt32, Kind: KindLength, Since: 11, Proto: 1, Meaning: "Number of relations."},
	FieldTruncateOptions:       {Name: "Option bits", Of: "Truncate", Format: FormatInt8, Kind: KindFlags, Since: 11, Proto: 1, Meaning: "Option bits for TRUNCATE: 1 for CASCADE, 2 for RESTART IDENTITY.", Codes: codesTruncate},
	FieldTruncateRelationOID:   {Name: "Relation OID", Of: "Truncate", Format: FormatInt32, Kind: KindOID, Since: 11, Proto: 1, Meaning: "OID of a truncated relation."},

	FieldStreamStart:      descGroup("Stream Start", 14, 2, "Start of a block of changes of a large in-progress transaction, streamed before it commits."),
	FieldStreamStartType:  descType("Stream Start", 'S', 14, 2, "a stream start message"),
	FieldStreamStartXid:   descXid("Stream Start", 14, 2, "Xid of the transaction."),
	FieldStreamStartFirst: {Name: "First segment", Of: "Stream Start", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 2, Meaning: "1 if this is the first stream segment for this Xid, 0 for any later segment.", Codes: codesFirstSegment},

	FieldStreamStop:     descGroup("Stream Stop", 14, 2, "End of a block of streamed changes."),
	FieldStreamStopType: descType("Stream Stop", 'E', 14, 2, "a stream stop message"),

	FieldStreamCommit:       descGroup("Stream Commit", 14, 2, "Commit of a streamed transaction."),
	FieldStreamCommitType:   descType("Stream Commit", 'c', 14, 2, "a stream commit message"),
	FieldStreamCommitXid:    descXid("Stream Commit", 14, 2, "Xid of the transaction."),
	FieldStreamCommitFlags:  descFlags0("Stream Commit", 14, 2),
	FieldStreamCommitLSN:    descLSN("Stream Commit", "Commit LSN", 14, 2, "The LSN of the commit record."),
	FieldStreamCommitEndLSN: descLSN("Stream Commit", "End LSN", 14, 2, "The end LSN of the transaction."),
	FieldStreamCommitTime:   descTime("Stream Commit", "Commit timestamp", 14, 2, "Commit timestamp of the transaction."),

	FieldStreamAbort:       descGroup("Stream Abort", 14, 2, "Abort of a streamed transaction or of one of its subtransactions."),
	FieldStreamAbortType:   descType("Stream Abort", 'A', 14, 2, "a stream abort message"),
	FieldStreamAbortXid:    descXid("Stream Abort", 14, 2, "Xid of the top-level transaction."),
	FieldStreamAbortSubXid: {Name: "Subtransaction Xid", Of: "Stream Abort", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the aborted subtransaction; the same as the top-level Xid when the whole transaction aborts."},
	FieldStreamAbortLSN:    descLSN("Stream Abort", "Abort LSN", 16, 4, "The LSN of the abort. Present only with streaming = parallel (PostgreSQL 16, protocol 4)."),
	FieldStreamAbortTime:   descTime("Stream Abort", "Abort timestamp", 16, 4, "Abort timestamp of the transaction. Present only with streaming = parallel (PostgreSQL 16, protocol 4)."),

	FieldBeginPrepare:       descGroup("Begin Prepare", 15, 3, "Begin of a transaction prepared for two-phase commit (two_phase option)."),
	FieldBeginPrepareType:   descType("Begin Prepare", 'b', 15, 3, "the beginning of a prepared transaction"),
	FieldBeginPrepareLSN:    descLSN("Begin Prepare", "Prepare LSN", 15, 3, "The LSN of the prepare."),
	FieldBeginPrepareEndLSN: descLSN("Begin Prepare", "End LSN", 15, 3, "The end LSN of the prepared transaction."),
	FieldBeginPrepareTime:   descTime("Begin Prepare", "Prepare timestamp", 15, 3, "Prepare timestamp of the transaction."),
	FieldBeginPrepareXid:    descXid("Begin Prepare", 15, 3, "Xid of the transaction."),
	FieldBeginPrepareGID:    descGID("Begin Prepare"),

	FieldPrepare:       descGroup("Prepare", 15, 3, "PREPARE TRANSACTION of a transaction decoded since Begin Prepare."),
	FieldPrepareType:   descType("Prepare", 'P', 15, 3, "a prepared transaction message"),
	FieldPrepareFlags:  descFlags0("Prepare", 15, 3),
	FieldPrepareLSN:    descLSN("Prepare", "Prepare LSN", 15, 3, "The LSN of the prepare."),
	FieldPrepareEndLSN: descLSN("Prepare", "End LSN", 15, 3, "The end LSN of the prepared transaction."),
	FieldPrepareTime:   descTime("Prepare", "Prepare timestamp", 15, 3, "Prepare timestamp of the transaction."),
	FieldPrepareXid:    descXid("Prepare", 15, 3, "Xid of the transaction."),
	FieldPrepareGID:    descGID("Prepare"),

	FieldCommitPrepared:       descGroup("Commit Prepared", 15, 3, "COMMIT PREPARED of a transaction prepared earlier."),
	FieldCommitPreparedType:   descType("Commit Prepared", 'K', 15, 3, "the commit of a prepared transaction"),
	FieldCommitPreparedFlags:  descFlags0("Commit Prepared", 15, 3),
	FieldCommitPreparedLSN:    descLSN("Commit Prepared", "Commit LSN", 15, 3, "The LSN of the commit prepared."),
	FieldCommitPreparedEndLSN: descLSN("Commit Prepared", "End LSN", 15, 3, "The end LSN of the commit of the prepared transaction."),
	FieldCommitPreparedTime:   descTime("Commit Prepared", "Commit timestamp", 15, 3, "Commit timestamp of the transaction."),
	FieldCommitPreparedXid:    descXid("Commit Prepared", 15, 3, "Xid of the transaction."),
	FieldCommitPreparedGID:    descGID("Commit Prepared"),

	FieldRollbackPrepared:              descGroup("Rollback Prepared", 15, 3, "ROLLBACK PREPARED of a transaction prepared earlier."),
	FieldRollbackPreparedType:          descType("Rollback Prepared", 'r', 15, 3, "the rollback of a prepared transaction"),
	FieldRollbackPreparedFlags:         descFlags0("Rollback Prepared", 15, 3),
	FieldRollbackPreparedPrepareEndLSN: descLSN("Rollback Prepared", "Prepare end LSN", 15, 3, "The end LSN of the prepared transaction."),
	FieldRollbackPreparedEndLSN:        descLSN("Rollback Prepared", "Rollback end LSN", 15, 3, "The end LSN of the rollback of the prepared transaction."),
	FieldRollbackPreparedPrepareTime:   descTime("Rollback Prepared", "Prepare timestamp", 15, 3, "Prepare timestamp of the transaction."),
	FieldRollbackPreparedTime:          descTime("Rollback Prepared", "Rollback timestamp", 15, 3, "Rollback timestamp of the transaction."),
	FieldRollbackPreparedXid:           descXid("Rollback Prepared", 15, 3, "Xid of the transaction."),
	FieldRollbackPreparedGID:           descGID("Rollback Prepared"),

	FieldStreamPrepare:       descGroup("Stream Prepare", 15, 3, "PREPARE TRANSACTION of a streamed transaction (two_phase with streaming)."),
	FieldStreamPrepareType:   descType("Stream Prepare", 'p', 15, 3, "a stream prepared transaction message"),
	FieldStreamPrepareFlags:  descFlags0("Stream Prepare", 15, 3),
	FieldStreamPrepareLSN:    descLSN("Stream Prepare", "Prepare LSN", 15, 3, "The LSN of the prepare."),
	FieldStreamPrepareEndLSN: descLSN("Stream Prepare", "End LSN", 15, 3, "The end LSN of the prepared transaction."),
	FieldStreamPrepareTime:   descTime("Stream Prepare", "Prepare timestamp", 15, 3, "Prepare timestamp of the transaction."),
	FieldStreamPrepareXid:    descXid("Stream Prepare", 15, 3, "Xid of the transaction."),
	FieldStreamPrepareGID:    descGID("Stream Prepare"),

	FieldTupleNew:         {Name: "New tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the new row, one entry per published column."},
	FieldTupleKey:         {Name: "Old key", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the old values of the replica identity key. Full width: one entry per published column, non-key columns sent as n (null)."},
	FieldTupleOld:         {Name: "Old tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the whole old row (REPLICA IDENTITY FULL)."},
	FieldTupleColumnCount: {Name: "Column count", Of: "TupleData", Format: FormatInt16, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Number of columns; the same count and order as the Relation message's columns."},
	FieldTupleColumn:      {Name: "Column", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "One column's data, in the order of the Relation message's columns."},
	FieldColumnKind:       {Name: "Kind", Of: "TupleData column", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "How the column's data is sent: n null, u unchanged TOAST value (not sent), t text, b binary (PostgreSQL 14).", Codes: codesColumn},
	FieldColumnLength:     {Name: "Length", Of: "TupleData column", Format: FormatInt32, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Length of the column value in bytes."},
	FieldColumnValue:      {Name: "Value", Of: "TupleData column", Format: FormatBytes, Kind: KindValue, Since: 10, Proto: 1, Meaning: "The value of the column, in the format given by the kind byte. Text values are in the connection's client_encoding and have no NUL terminator."},
}
