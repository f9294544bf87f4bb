package guide

import "pgoutput-inspector/decoder"

// The field guide's prose, per entry. Names, formats, meanings and codes of the fields are the
// field table's; layouts are checked against what the decoder emits (TestGuideLayouts). Only
// Data reads this table, so the page's main.wasm does not contain it (TestGuideAsset, web).
//
// Documentation wording was compared on the pages of the releases' documentation
// (protocol-logicalrep-message-formats.html): all of 16 and 18, the start of 10 to 15 (to the
// Relation message for 10, 12 and 13); Changes name the first release where a wording was seen
// and, when a release in between was not read, say so.

// guideText is what the guide says of one entry beyond the field table.
type guideText struct {
	id      string
	group   decoder.FieldID
	name    string // the title, when it is not the group field's name (TupleData)
	layer   Layer
	purpose string
	travels string
	fields  []Field
	rules   []string
	related []string
	doc     DocRef
	changes []Change
	// typ is the type byte of a frontend/backend message that shares its type with others
	// (SASLInitialResponse, SASLResponse and GSSResponse are 'p', as PasswordMessage is).
	typ byte
}

// Where pgoutput messages travel.
const travelsPgoutput = "From a walsender (START_REPLICATION SLOT … LOGICAL with plugin pgoutput), each message is the payload of one XLogData, itself inside one CopyData. " +
	"From the SQL functions pg_logical_slot_get_binary_changes() and pg_logical_slot_peek_binary_changes(), each message is the data of one row, with no envelope; the row's lsn and xid columns say where it came from."

// Conditions that several fields share.
const (
	condStreamXid = "only inside a streamed transaction (between Stream Start and Stream Stop): protocol 2, PostgreSQL 14, streaming on"
	condValue     = "only for the kinds 't' and 'b'"
	condParallel  = "only with streaming = parallel: protocol 4, PostgreSQL 16"
)

// Documentation pages.
const (
	pageLogicalRep  = "protocol-logicalrep-message-formats.html"
	pageReplication = "protocol-replication.html"
	pageMessages    = "protocol-message-formats.html"
	// anchorsSince: the first release whose documentation gives every message an anchor (the
	// 15 page has them, id="PROTOCOL-LOGICALREP-MESSAGE-FORMATS-BEGIN" and one per message:
	// protocol-logicalrep-message-formats.html of Debian's postgresql-doc-15 15.20; 16 and 18
	// have them, 14 and older do not).
	anchorsSince = 15
)

func logicalRepDoc(anchor string) DocRef {
	return DocRef{Page: pageLogicalRep, Anchor: "PROTOCOL-LOGICALREP-MESSAGE-FORMATS-" + anchor, AnchorSince: anchorsSince}
}

// Wording changes shared by several messages.
const (
	wordingTypes15 = "The documentation writes each field's C type beside its wire format from 15 on: Int64 (XLogRecPtr), Int64 (TimestampTz), Int32 (TransactionId), Int32 (Oid)."
	wordingOID     = "The documentation says \"OID of the relation\" where 10 to 14 said \"ID of the relation\" (seen in the 15 documentation, 15.20, and in 16's)."
	wordingFlags15 = "The documentation writes the flags as Int8(0), \"Flags; currently unused.\", where 10 to 14 said \"Int8: Flags; currently unused (must be 0).\""
)

var guideTable = []guideText{
	{id: "begin", group: decoder.FieldBegin,
		purpose: "Opens a transaction: the changes that follow, up to Commit, belong to it. It carries what is known only once the transaction has committed (its commit LSN and commit time), because pgoutput sends a transaction only after it commits (unless it is streamed or prepared).",
		travels: travelsPgoutput + " In a walsender stream a Begin followed by an Origin message is written with XLogData LSNs 0.",
		fields:  []Field{{Field: decoder.FieldBeginType}, {Field: decoder.FieldBeginFinalLSN}, {Field: decoder.FieldBeginCommitTime}, {Field: decoder.FieldBeginXid}},
		rules: []string{
			"Begin … Commit enclose one transaction; Begin's Final LSN is the Commit LSN of its Commit, and both carry the same commit timestamp.",
			"An Origin message may follow Begin when the transaction's changes came from a replication origin.",
			"From PostgreSQL 15, Begin is sent only when the first change of the transaction is published: a transaction with no published change sends nothing at all.",
		},
		related: []string{"commit", "origin", "stream-start", "begin-prepare"},
		doc:     logicalRepDoc("BEGIN"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Begin is part of the first protocol."},
			{Release: 15, Kind: ChangeBytes, Text: "Empty transactions are skipped: Begin is sent just before the first published change (or transactional Message), so its XLogData carries that change's LSN rather than the transaction's first LSN; a transaction whose changes are all filtered out sends neither Begin nor Commit."},
			{Release: 15, Kind: ChangeWording, Text: wordingTypes15},
		}},
	{id: "message", group: decoder.FieldMessage,
		purpose: "Carries a logical decoding message written with pg_logical_emit_message(transactional, prefix, content): application data that travels in the WAL without being stored in a table.",
		travels: travelsPgoutput + " A non-transactional message is sent on its own as soon as it is decoded; a transactional one travels inside its transaction, between Begin and Commit.",
		fields: []Field{{Field: decoder.FieldMessageType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldMessageFlags}, {Field: decoder.FieldMessageLSN},
			{Field: decoder.FieldMessagePrefix}, {Field: decoder.FieldMessageLength}, {Field: decoder.FieldMessageContent}},
		rules: []string{
			"Sent only when the messages option is true.",
			"Inside a streamed transaction the Xid comes right after the type byte, before the flags.",
			"The content is raw bytes of the given length, with no NUL terminator and no encoding conversion.",
		},
		related: []string{"begin", "commit", "stream-start"},
		doc:     logicalRepDoc("MESSAGE"),
		changes: []Change{
			{Release: 14, Proto: 1, Kind: ChangeOption, Text: "Message arrives with the messages option; it works with protocol 1."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeWording, Text: wordingTypes15},
		}},
	{id: "commit", group: decoder.FieldCommit,
		purpose: "Closes the transaction opened by Begin: everything since Begin has committed.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSNs are the transaction's end LSN, the position a client confirms in its Standby status update once it has applied the transaction.",
		fields:  []Field{{Field: decoder.FieldCommitType}, {Field: decoder.FieldCommitFlags}, {Field: decoder.FieldCommitLSN}, {Field: decoder.FieldCommitEndLSN}, {Field: decoder.FieldCommitTime}},
		rules: []string{
			"Commit LSN equals the Final LSN of its Begin; End LSN is the end of the commit record, after it.",
			"PostgreSQL's own reader rejects non-zero flags.",
		},
		related: []string{"begin", "stream-commit", "commit-prepared"},
		doc:     logicalRepDoc("COMMIT"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Commit is part of the first protocol."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldCommitFlags, Text: wordingFlags15},
		}},
	{id: "origin", group: decoder.FieldOrigin,
		purpose: "Names the replication origin the transaction's changes came from (set on the server with pg_replication_origin_session_setup, as a subscriber's apply worker does), so a receiver can tell replicated changes from local ones.",
		travels: travelsPgoutput,
		fields:  []Field{{Field: decoder.FieldOriginType}, {Field: decoder.FieldOriginLSN}, {Field: decoder.FieldOriginName}},
		rules: []string{
			"Sent right after Begin, Begin Prepare or the first Stream Start of a transaction whose changes carry an origin.",
			"After a Stream Start the origin LSN is 0: the commit on the origin is not known yet.",
			"The documentation notes there can be several Origin messages in one transaction.",
		},
		related: []string{"begin", "begin-prepare", "stream-start"},
		doc:     logicalRepDoc("ORIGIN"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Origin is part of the first protocol."},
			{Release: 16, Kind: ChangeOption, Text: "The origin option (none or any) can drop changes that carry an origin: with origin = none those transactions are not sent."},
		}},
	{id: "relation", group: decoder.FieldRelation,
		purpose: "Describes a table (relation) before its changes: OID, schema, name, replica identity and the published columns with their types. Changes name the relation only by OID, and their TupleData columns follow this message's column list.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSNs are 0, because it is written ahead of the change it describes.",
		fields: []Field{{Field: decoder.FieldRelationType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldRelationOID}, {Field: decoder.FieldRelationNamespace},
			{Field: decoder.FieldRelationName}, {Field: decoder.FieldRelationReplicaIdentity}, {Field: decoder.FieldRelationColumnCount},
			{Field: decoder.FieldRelationColumnFlags, Repeat: "column"}, {Field: decoder.FieldRelationColumnName, Repeat: "column"},
			{Field: decoder.FieldRelationColumnTypeOID, Repeat: "column"}, {Field: decoder.FieldRelationColumnTypeModifier, Repeat: "column"}},
		rules: []string{
			"Sent before the first change of the relation in a decoding session, and again after the relation's definition (or its publication) changes; every call of the SQL functions is a new session and sends it again.",
			"Type messages for its columns' non-built-in types come just before it.",
			"Columns are listed in attnum order, without dropped columns, columns left out of the publication's column list (PostgreSQL 15) and generated columns (unless published, PostgreSQL 18).",
			"With REPLICA IDENTITY FULL every column has the key flag; with NOTHING none has.",
			"In a streamed transaction it is sent again for each streamed transaction, inside the stream, with an Xid.",
		},
		related: []string{"type", "insert", "update", "delete", "truncate", "tupledata"},
		doc:     logicalRepDoc("RELATION"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Relation is part of the first protocol."},
			{Release: 12, Kind: ChangeBytes, Field: decoder.FieldRelationColumnCount, Text: "Generated columns (new in 12) are not published: they are left out of the column list. The documentation says \"for each column (except generated columns)\"."},
			{Release: 13, Kind: ChangeBytes, Text: "publish_via_partition_root: a partition's changes can be published as its root table's, so the Relation sent is the root's."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeBytes, Field: decoder.FieldRelationColumnCount, Text: "Column lists: a publication can publish some columns only; the documentation says \"for each column included in the publication (except generated columns)\"."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldRelationOID, Text: wordingOID},
			{Release: 18, Kind: ChangeBytes, Field: decoder.FieldRelationColumnCount, Text: "Stored generated columns are published when the publication sets publish_generated_columns = stored or names them in its column list; the documentation drops \"(except generated columns)\". 17 still leaves them out and its documentation still says \"(except generated columns)\": both changed with PostgreSQL 18's \"Replicate generated columns when specified in the column list\" (proto.c and protocol.sgml, posted in October 2024, after 17 was released)."},
		}},
	{id: "type", group: decoder.FieldType,
		purpose: "Names a data type that is not built in (an enum, a domain, a composite, an extension's type, an array of those) used by a published column, so the receiver can interpret its values.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSNs are 0.",
		fields:  []Field{{Field: decoder.FieldTypeType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldTypeOID}, {Field: decoder.FieldTypeNamespace}, {Field: decoder.FieldTypeName}},
		rules: []string{
			"Sent just before the Relation message, once for each column whose type OID is 10000 or more (types made by CREATE TYPE, CREATE DOMAIN, extensions); built-in types never get one.",
			"The OID is the column's own type, but the namespace and name are those of its base type: for a domain over int4 the server sends the domain's OID with pg_catalog (\"\") and int4. The documentation says \"OID of the data type\" and \"Name of the data type\".",
		},
		related: []string{"relation"},
		doc:     logicalRepDoc("TYPE"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Type is part of the first protocol."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldTypeOID, Text: "The documentation says \"OID of the data type\" where 10 to 14 said \"ID of the data type\" (seen in the 15 documentation, 15.20, and in 16's)."},
		}},
	{id: "insert", group: decoder.FieldInsert,
		purpose: "A row inserted into a published table: the relation's OID, then the new row.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSN is the LSN of the insert's WAL record.",
		fields: []Field{{Field: decoder.FieldInsertType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldInsertRelationOID},
			{Field: decoder.FieldInsertNew}, {Field: decoder.FieldTupleNew, Entry: "tupledata"}},
		rules: []string{
			"The Relation message for its OID came earlier in the session; the TupleData has one entry per column of that Relation message, in its order.",
			"With a row filter (PostgreSQL 15), an UPDATE whose old row did not match the filter and whose new row does is sent as an Insert.",
		},
		related: []string{"relation", "tupledata", "update", "delete"},
		doc:     logicalRepDoc("INSERT"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Insert is part of the first protocol."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldInsertRelationOID, Text: wordingOID},
		}},
	{id: "update", group: decoder.FieldUpdate,
		purpose: "A row updated in a published table: the relation's OID, optionally the old key or the old row, then the new row.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSN is the LSN of the update's WAL record.",
		fields: []Field{{Field: decoder.FieldUpdateType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldUpdateRelationOID},
			{Field: decoder.FieldUpdateOld, Condition: "only when the change has an old tuple: 'O' with REPLICA IDENTITY FULL, 'K' otherwise"},
			{Field: decoder.FieldTupleKey, Entry: "tupledata", Condition: "only after 'K'"},
			{Field: decoder.FieldTupleOld, Entry: "tupledata", Condition: "only after 'O'", Alternative: true},
			{Field: decoder.FieldUpdateNew}, {Field: decoder.FieldTupleNew, Entry: "tupledata"}},
		rules: []string{
			"An Update carries a 'K' part or an 'O' part or neither, never both.",
			"'O' (the whole old row) is sent for every update of a table with REPLICA IDENTITY FULL.",
			"'K' (the old key) is sent when the change has an old key: the documentation says when the update changed a column of the replica identity; the server also sends it when a key column is stored out of line (TOASTed). Without 'K' the key did not change, and the new row's key identifies the row.",
			"The old key is a full-width TupleData: one entry per column, non-key columns sent as 'n'.",
			"In the new row, 'u' marks a TOASTed column the update did not change: its value is not sent, keep the old one.",
			"Tables with REPLICA IDENTITY NOTHING (or DEFAULT without a primary key) cannot publish updates: the UPDATE fails on the server.",
		},
		related: []string{"relation", "tupledata", "insert", "delete"},
		doc:     logicalRepDoc("UPDATE"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Update is part of the first protocol."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeBytes, Text: "Row filters: an update whose old row matched the filter and whose new row does not is sent as a Delete, the reverse as an Insert, and one matching neither is not sent."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldUpdateRelationOID, Text: wordingOID},
		}},
	{id: "delete", group: decoder.FieldDelete,
		purpose: "A row deleted from a published table: the relation's OID, then the old key or the whole old row.",
		travels: travelsPgoutput + " In a walsender stream its XLogData LSN is the LSN of the delete's WAL record.",
		fields: []Field{{Field: decoder.FieldDeleteType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldDeleteRelationOID},
			{Field: decoder.FieldDeleteOld},
			{Field: decoder.FieldTupleKey, Entry: "tupledata", Condition: "after 'K'"},
			{Field: decoder.FieldTupleOld, Entry: "tupledata", Condition: "after 'O'", Alternative: true}},
		rules: []string{
			"A Delete carries either a 'K' part or an 'O' part, never both, and always one of them.",
			"'O' is sent with REPLICA IDENTITY FULL, 'K' for every other identity, the primary key included; the documentation says 'K' is sent when the table \"uses an index as REPLICA IDENTITY\", which the primary key (DEFAULT) also is.",
			"The old key is a full-width TupleData: one entry per column, non-key columns sent as 'n'. Old rows and keys never contain 'u': the server logs them in full.",
		},
		related: []string{"relation", "tupledata", "update"},
		doc:     logicalRepDoc("DELETE"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "Delete is part of the first protocol."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldDeleteRelationOID, Text: wordingOID},
		}},
	{id: "truncate", group: decoder.FieldTruncate,
		purpose: "One TRUNCATE of one or more published tables: how many, the options (CASCADE, RESTART IDENTITY), and their OIDs.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldTruncateType}, {Field: decoder.FieldStreamXid, Condition: condStreamXid}, {Field: decoder.FieldTruncateRelationCount},
			{Field: decoder.FieldTruncateOptions}, {Field: decoder.FieldTruncateRelationOID, Repeat: "relation"}},
		rules: []string{
			"Sent only for tables whose publications include truncate; the Relation message of each table came earlier.",
			"One TRUNCATE of several tables (or one that cascades) is one message listing them all.",
		},
		related: []string{"relation"},
		doc:     logicalRepDoc("TRUNCATE"),
		changes: []Change{
			{Release: 11, Proto: 1, Kind: ChangeBytes, Text: "Truncate arrives in PostgreSQL 11, within protocol 1: a 10 server never sends it."},
			{Release: 14, Proto: 2, Kind: ChangeBytes, Field: decoder.FieldStreamXid, Text: "Inside a streamed transaction the Xid follows the type byte (protocol 2)."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldTruncateRelationOID, Text: wordingOID},
		}},
	{id: "stream-start", group: decoder.FieldStreamStart,
		purpose: "Opens a block of changes of a transaction that is still in progress: when a transaction's decoded changes exceed logical_decoding_work_mem, pgoutput streams them before it commits instead of spilling them to disk.",
		travels: travelsPgoutput,
		fields:  []Field{{Field: decoder.FieldStreamStartType}, {Field: decoder.FieldStreamStartXid}, {Field: decoder.FieldStreamStartFirst}},
		rules: []string{
			"Sent only with the streaming option (protocol 2 or more).",
			"Between Stream Start and Stream Stop every change, Relation, Type and Message carries the Xid of its (sub)transaction after its type byte.",
			"A transaction may be streamed in several blocks; the first has First segment 1. It ends with Stream Commit, Stream Abort or Stream Prepare, outside any block.",
		},
		related: []string{"stream-stop", "stream-commit", "stream-abort", "stream-prepare"},
		doc:     logicalRepDoc("STREAM-START"),
		changes: []Change{
			{Release: 14, Proto: 2, Kind: ChangeBytes, Text: "Streaming of in-progress transactions arrives with protocol 2 and the streaming option."},
			{Release: 16, Kind: ChangeOption, Text: "streaming = parallel lets a subscriber apply a stream in parallel workers (protocol 4); debug_logical_replication_streaming = immediate streams every transaction (for tests)."},
		}},
	{id: "stream-stop", group: decoder.FieldStreamStop,
		purpose: "Closes a block of streamed changes. The transaction goes on; more blocks may follow, interleaved with other transactions.",
		travels: travelsPgoutput,
		fields:  []Field{{Field: decoder.FieldStreamStopType}},
		rules: []string{
			"It has no fields: the block it closes is the one the last Stream Start opened.",
			"After it, changes carry no Xid until the next Stream Start.",
		},
		related: []string{"stream-start", "stream-commit", "stream-abort"},
		doc:     logicalRepDoc("STREAM-STOP"),
		changes: []Change{
			{Release: 14, Proto: 2, Kind: ChangeBytes, Text: "Arrives with protocol 2 and the streaming option."},
		}},
	{id: "stream-commit", group: decoder.FieldStreamCommit,
		purpose: "Commits a transaction whose changes were streamed earlier in blocks.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldStreamCommitType}, {Field: decoder.FieldStreamCommitXid}, {Field: decoder.FieldStreamCommitFlags},
			{Field: decoder.FieldStreamCommitLSN}, {Field: decoder.FieldStreamCommitEndLSN}, {Field: decoder.FieldStreamCommitTime}},
		rules: []string{
			"Sent outside any block, after the transaction's last Stream Stop.",
			"The Xid is the top-level transaction's, the one its Stream Start messages carried.",
		},
		related: []string{"stream-start", "stream-stop", "stream-abort", "commit"},
		doc:     logicalRepDoc("STREAM-COMMIT"),
		changes: []Change{
			{Release: 14, Proto: 2, Kind: ChangeBytes, Text: "Arrives with protocol 2 and the streaming option."},
			{Release: 15, Kind: ChangeWording, Field: decoder.FieldStreamCommitFlags, Text: wordingFlags15},
		}},
	{id: "stream-abort", group: decoder.FieldStreamAbort,
		purpose: "Aborts a streamed transaction, or one of its subtransactions (a ROLLBACK TO SAVEPOINT): the receiver discards the changes it received for that (sub)transaction.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldStreamAbortType}, {Field: decoder.FieldStreamAbortXid}, {Field: decoder.FieldStreamAbortSubXid},
			{Field: decoder.FieldStreamAbortLSN, Condition: condParallel}, {Field: decoder.FieldStreamAbortTime, Condition: condParallel}},
		rules: []string{
			"When the whole transaction aborts, Subtransaction Xid equals Xid.",
			"The abort LSN and timestamp are sent only with streaming = parallel, which needs protocol 4; with streaming = on the message is 9 bytes long even at protocol 4. Nothing in the message says which: the receiver knows from the options it asked for.",
		},
		related: []string{"stream-start", "stream-stop", "stream-commit"},
		doc:     logicalRepDoc("STREAM-ABORT"),
		changes: []Change{
			{Release: 14, Proto: 2, Kind: ChangeBytes, Text: "Arrives with protocol 2 and the streaming option: Xid and Subtransaction Xid."},
			{Release: 16, Proto: 4, Kind: ChangeBytes, Field: decoder.FieldStreamAbortLSN, Text: "With streaming = parallel (protocol 4) the abort LSN and abort timestamp follow, so a parallel apply worker can record the abort's position; the documentation says \"This field is available since protocol version 4.\""},
			{Release: 16, Kind: ChangeWording, Field: decoder.FieldStreamAbortLSN, Text: "The documentation adds that the abort LSN and timestamp are \"present only when streaming is set to parallel\": a correction of June 2025 (\"Doc: Improve documentation of stream abort.\") made to the 16, 17 and 18 documentation alike (back-patched to REL_16_STABLE and REL_17_STABLE), so every release that sends them now says so."},
		}},
	{id: "begin-prepare", group: decoder.FieldBeginPrepare,
		purpose: "Opens a transaction prepared for two-phase commit (PREPARE TRANSACTION): with the two_phase option, its changes are sent at PREPARE time, before the COMMIT PREPARED or ROLLBACK PREPARED that decides it.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldBeginPrepareType}, {Field: decoder.FieldBeginPrepareLSN}, {Field: decoder.FieldBeginPrepareEndLSN},
			{Field: decoder.FieldBeginPrepareTime}, {Field: decoder.FieldBeginPrepareXid}, {Field: decoder.FieldBeginPrepareGID}},
		rules: []string{
			"Sent only with two_phase = true (protocol 3 or more). Unlike Begin, it has no flags byte.",
			"Begin Prepare … Prepare enclose the transaction's changes; Commit Prepared or Rollback Prepared follows later, perhaps after other transactions.",
			"Without two_phase the same transaction arrives at COMMIT PREPARED as an ordinary Begin … Commit.",
		},
		related: []string{"prepare", "commit-prepared", "rollback-prepared", "stream-prepare"},
		doc:     logicalRepDoc("BEGIN-PREPARE"),
		changes: []Change{
			{Release: 15, Proto: 3, Kind: ChangeBytes, Text: "Two-phase decoding arrives with protocol 3 and the two_phase option."},
		}},
	{id: "prepare", group: decoder.FieldPrepare,
		purpose: "Closes a transaction opened by Begin Prepare: it was prepared (PREPARE TRANSACTION 'gid').",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldPrepareType}, {Field: decoder.FieldPrepareFlags}, {Field: decoder.FieldPrepareLSN}, {Field: decoder.FieldPrepareEndLSN},
			{Field: decoder.FieldPrepareTime}, {Field: decoder.FieldPrepareXid}, {Field: decoder.FieldPrepareGID}},
		rules: []string{
			"Its LSNs, Xid and GID repeat those of its Begin Prepare.",
		},
		related: []string{"begin-prepare", "commit-prepared", "rollback-prepared"},
		doc:     logicalRepDoc("PREPARE"),
		changes: []Change{
			{Release: 15, Proto: 3, Kind: ChangeBytes, Text: "Arrives with protocol 3 and the two_phase option."},
		}},
	{id: "commit-prepared", group: decoder.FieldCommitPrepared,
		purpose: "COMMIT PREPARED of a transaction prepared earlier (sent as Begin Prepare … Prepare or as a stream ending in Stream Prepare).",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldCommitPreparedType}, {Field: decoder.FieldCommitPreparedFlags}, {Field: decoder.FieldCommitPreparedLSN},
			{Field: decoder.FieldCommitPreparedEndLSN}, {Field: decoder.FieldCommitPreparedTime}, {Field: decoder.FieldCommitPreparedXid}, {Field: decoder.FieldCommitPreparedGID}},
		rules: []string{
			"Its type byte 'K' is the same letter as the old-key marker inside Update and Delete; as the first byte of a message it is Commit Prepared.",
		},
		related: []string{"begin-prepare", "prepare", "rollback-prepared", "stream-prepare"},
		doc:     logicalRepDoc("COMMIT-PREPARED"),
		changes: []Change{
			{Release: 15, Proto: 3, Kind: ChangeBytes, Text: "Arrives with protocol 3 and the two_phase option."},
		}},
	{id: "rollback-prepared", group: decoder.FieldRollbackPrepared,
		purpose: "ROLLBACK PREPARED of a transaction prepared earlier: the receiver discards the prepared transaction.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldRollbackPreparedType}, {Field: decoder.FieldRollbackPreparedFlags}, {Field: decoder.FieldRollbackPreparedPrepareEndLSN},
			{Field: decoder.FieldRollbackPreparedEndLSN}, {Field: decoder.FieldRollbackPreparedPrepareTime}, {Field: decoder.FieldRollbackPreparedTime},
			{Field: decoder.FieldRollbackPreparedXid}, {Field: decoder.FieldRollbackPreparedGID}},
		rules: []string{
			"It has two timestamps: the prepare's and the rollback's.",
			"Its type byte 'r' is also a Standby status update's; a Standby status update is exactly 34 bytes, a Rollback Prepared at least 39.",
		},
		related: []string{"begin-prepare", "prepare", "commit-prepared", "standby-status-update"},
		doc:     logicalRepDoc("ROLLBACK-PREPARED"),
		changes: []Change{
			{Release: 15, Proto: 3, Kind: ChangeBytes, Text: "Arrives with protocol 3 and the two_phase option."},
		}},
	{id: "stream-prepare", group: decoder.FieldStreamPrepare,
		purpose: "PREPARE TRANSACTION of a transaction whose changes were streamed (two_phase and streaming together): it ends the stream like Stream Commit, but the transaction is only prepared.",
		travels: travelsPgoutput,
		fields: []Field{{Field: decoder.FieldStreamPrepareType}, {Field: decoder.FieldStreamPrepareFlags}, {Field: decoder.FieldStreamPrepareLSN},
			{Field: decoder.FieldStreamPrepareEndLSN}, {Field: decoder.FieldStreamPrepareTime}, {Field: decoder.FieldStreamPrepareXid}, {Field: decoder.FieldStreamPrepareGID}},
		rules: []string{
			"Same layout as Prepare. Sent outside any block, after the transaction's last Stream Stop; Commit Prepared or Rollback Prepared follows later.",
		},
		related: []string{"stream-start", "prepare", "commit-prepared", "rollback-prepared"},
		doc:     logicalRepDoc("STREAM-PREPARE"),
		changes: []Change{
			{Release: 15, Proto: 3, Kind: ChangeBytes, Text: "Arrives with protocol 3 and the two_phase and streaming options."},
		}},
	{id: "tupledata", group: decoder.FieldTupleNew, name: "TupleData", layer: LayerTupleData,
		purpose: "A row's values, one entry per column of the relation's Relation message: the part of Insert, Update and Delete that carries a new row, an old row or an old key.",
		travels: "Inside Insert (the new row), Update (an optional old key or old row, then the new row) and Delete (the old key or the old row), after the marker byte N, K or O.",
		fields: []Field{{Field: decoder.FieldTupleColumnCount}, {Field: decoder.FieldColumnKind, Repeat: "column"},
			{Field: decoder.FieldColumnLength, Repeat: "column", Condition: condValue}, {Field: decoder.FieldColumnValue, Repeat: "column", Condition: condValue}},
		rules: []string{
			"The column count and order are those of the Relation message's columns.",
			"'n' and 'u' have nothing after them; 't' and 'b' are followed by an Int32 length and that many bytes.",
			"'t' values are the type's text output, in the connection's client_encoding, without a NUL; 'b' values are the type's binary send format (binary = true), used only for types that have one: others still come as 't'.",
			"'u' appears only in the new row of an Update, for a TOASTed column the update left unchanged.",
		},
		related: []string{"insert", "update", "delete", "relation"},
		doc:     logicalRepDoc("TUPLEDATA"),
		changes: []Change{
			{Release: 10, Proto: 1, Kind: ChangeBytes, Text: "TupleData with 'n', 'u' and 't' is part of the first protocol; the documentation says the value is \"in text format. (A future release might support additional formats.)\"."},
			{Release: 12, Kind: ChangeBytes, Field: decoder.FieldTupleColumnCount, Text: "Generated columns are left out: \"for each column (except generated columns)\"."},
			{Release: 14, Kind: ChangeOption, Field: decoder.FieldColumnKind, Text: "The binary option adds the kind 'b': values in the type's binary send format (usable with protocol 1). The documentation says the value is \"either in binary or in text format. (As specified in the preceding format byte)\"."},
			{Release: 18, Kind: ChangeBytes, Field: decoder.FieldTupleColumnCount, Text: "Published stored generated columns are included; the documentation says \"for each published column\". 17 still leaves generated columns out and says \"for each column (except generated columns)\": both changed with PostgreSQL 18's \"Replicate generated columns when specified in the column list\" (posted in October 2024, after 17 was released)."},
		}},
	{id: "copydata", group: decoder.FieldCopyData, layer: LayerEnvelope,
		purpose: "The frontend/backend protocol message that carries every replication message once START_REPLICATION has switched the connection to COPY BOTH mode: XLogData and keepalives from the server, status updates and feedback from the client.",
		travels: "On the wire of a replication connection (replication=database for logical replication), in both directions, after the CopyBothResponse that answers START_REPLICATION. Tools that record the stream (pg_recvlogical, pglogrepl, the capture command) usually keep only its payload; a network capture (tshark, Wireshark) shows it whole. The same message carries a COPY's rows (COPY data) after a CopyOutResponse or CopyInResponse, as in a subscription's table synchronization.",
		fields: []Field{{Field: decoder.FieldCopyDataType}, {Field: decoder.FieldCopyDataLength}, {Payload: "one replication message: XLogData or Primary keepalive from the server, Standby status update or Hot standby feedback from the client", Entry: "xlogdata"},
			{Payload: "in a COPY … TO STDOUT or FROM STDIN instead of a replication stream: COPY data, a row of COPY's text or binary format", Entry: "copy-data", Alternative: true}},
		rules: []string{
			"The length counts itself (4 bytes) and the payload, not the type byte.",
			"The CopyData boundaries are the only boundaries of a pgoutput message: pgoutput messages have no length of their own.",
		},
		related: []string{"xlogdata", "primary-keepalive", "standby-status-update", "hot-standby-feedback", "copybothresponse", "copy-data", "copydone"},
		doc:     DocRef{Page: pageMessages, Anchor: "PROTOCOL-MESSAGE-FORMATS-COPYDATA", AnchorSince: anchorsSince},
		changes: []Change{{Kind: ChangeBytes, Text: "Unchanged since before logical replication (PostgreSQL 10)."}}},
	{id: "xlogdata", group: decoder.FieldXLogData, layer: LayerEnvelope,
		purpose: "Carries WAL data from the server: in logical replication, exactly one pgoutput message, with the LSN it belongs to and the time it was sent.",
		travels: "Inside CopyData, from the walsender to the client, after START_REPLICATION.",
		fields: []Field{{Field: decoder.FieldXLogDataType}, {Field: decoder.FieldXLogDataStart}, {Field: decoder.FieldXLogDataEnd}, {Field: decoder.FieldXLogDataTime},
			{Payload: "one pgoutput message (Begin, Insert, Commit, …)", Entry: "begin"}},
		rules: []string{
			"For logical replication the walsender sets the start LSN and the WAL end to the same value, the LSN of the record the message comes from, or 0 for a message written ahead of another (Type, Relation, and a Begin followed by an Origin). The documentation's \"current end of WAL on the server\" is true of physical replication only.",
			"A client confirms progress by sending, in a Standby status update, the end LSN of the last Commit it applied.",
		},
		related: []string{"copydata", "primary-keepalive", "standby-status-update", "begin"},
		doc:     DocRef{Page: pageReplication, Anchor: "PROTOCOL-REPLICATION-XLOGDATA", AnchorSince: anchorsSince},
		changes: []Change{{Kind: ChangeBytes, Text: "Unchanged since before logical replication (PostgreSQL 10)."}}},
	{id: "primary-keepalive", group: decoder.FieldKeepalive, layer: LayerEnvelope,
		purpose: "Tells the client the server is alive and how far it has sent, and can ask for an immediate reply.",
		travels: "Inside CopyData, from the walsender to the client, between XLogData messages.",
		fields:  []Field{{Field: decoder.FieldKeepaliveType}, {Field: decoder.FieldKeepaliveWALEnd}, {Field: decoder.FieldKeepaliveTime}, {Field: decoder.FieldKeepaliveReply}},
		rules: []string{
			"With reply requested (1) the client should answer with a Standby status update at once; the server asks when half of wal_sender_timeout passed without a reply.",
			"In logical replication the WAL end is the position sent so far (or the LSN of a skipped empty transaction), not the server's end of WAL.",
		},
		related: []string{"standby-status-update", "xlogdata", "copydata"},
		doc:     DocRef{Page: pageReplication, Anchor: "PROTOCOL-REPLICATION-PRIMARY-KEEPALIVE-MESSAGE", AnchorSince: anchorsSince},
		changes: []Change{{Kind: ChangeBytes, Text: "Unchanged since before logical replication (PostgreSQL 10)."}}},
	{id: "standby-status-update", group: decoder.FieldStandbyStatus, layer: LayerEnvelope,
		purpose: "The client's report of how far it has received, flushed and applied the stream; for a logical slot the flushed position becomes the slot's confirmed_flush_lsn, so the server can recycle WAL and will not send those transactions again.",
		travels: "Inside CopyData, from the client to the walsender, at any time.",
		fields: []Field{{Field: decoder.FieldStandbyStatusType}, {Field: decoder.FieldStandbyStatusWritten}, {Field: decoder.FieldStandbyStatusFlushed},
			{Field: decoder.FieldStandbyStatusApplied}, {Field: decoder.FieldStandbyStatusTime}, {Field: decoder.FieldStandbyStatusReply}},
		rules: []string{
			"It is exactly 34 bytes; its type byte 'r' is also Rollback Prepared's, which is at least 39 bytes.",
			"With reply requested (1) the server answers at once with a Primary keepalive.",
			"Each position is shown in pg_stat_replication (write_lsn, flush_lsn, replay_lsn) and is what a synchronous commit waits for (synchronous_commit remote_write, on, remote_apply); only flushed moves a logical slot: it becomes confirmed_flush_lsn, and once it passes the point the decoding recorded, restart_lsn and catalog_xmin move on too.",
			"WAL from the slot's restart_lsn on is kept (up to max_slot_wal_keep_size): a consumer that stops reporting a higher flushed position keeps every later WAL segment on the server.",
			"A flushed position past what the client has durably stored is data loss waiting: the server never sends those transactions again, even after the client crashes. A 0 means not reported (pg_recvlogical sends 0 as applied); PostgreSQL's own subscriber reports as applied the position it has committed locally, ahead of its flushed one.",
			"pgoutput-inspect consumer measures, on a capture, how long each transaction end took to be reported written, flushed and applied, and finds the reports that put the slot or the data at risk (docs/cli.md, \"consumer\").",
		},
		related: []string{"primary-keepalive", "hot-standby-feedback", "copydata"},
		doc:     DocRef{Page: pageReplication, Anchor: "PROTOCOL-REPLICATION-STANDBY-STATUS-UPDATE", AnchorSince: anchorsSince},
		changes: []Change{{Kind: ChangeBytes, Text: "Unchanged since before logical replication (PostgreSQL 10)."}}},
	{id: "hot-standby-feedback", group: decoder.FieldHotStandby, layer: LayerEnvelope,
		purpose: "A standby's oldest running transaction ids, so the primary keeps the rows its queries still need (hot_standby_feedback = on).",
		travels: "Inside CopyData, from a standby's walreceiver to the walsender; logical replication clients do not send it.",
		fields: []Field{{Field: decoder.FieldHotStandbyType}, {Field: decoder.FieldHotStandbyTime}, {Field: decoder.FieldHotStandbyXmin}, {Field: decoder.FieldHotStandbyXminEpoch},
			{Field: decoder.FieldHotStandbyCatalogXmin}, {Field: decoder.FieldHotStandbyCatalogXminEpoch}},
		rules: []string{
			"An xmin and a catalog xmin of 0 say feedback stops; later non-zero messages start it again.",
		},
		related: []string{"standby-status-update", "copydata"},
		doc:     DocRef{Page: pageReplication, Anchor: "PROTOCOL-REPLICATION-HOT-STANDBY-FEEDBACK-MESSAGE", AnchorSince: anchorsSince},
		changes: []Change{{Kind: ChangeBytes, Text: "Unchanged since before logical replication (PostgreSQL 10)."}}},
}

// releaseTable is what each release changed for logical replication's bytes, options and
// documentation.
var releaseTable = []Release{
	{Release: 10, Options: []string{"proto_version", "publication_names"},
		Summary: "Logical replication arrives with pgoutput and protocol 1: Begin, Commit, Origin, Relation, Type, Insert, Update, Delete, and TupleData with 'n', 'u' and 't'."},
	{Release: 11, Options: []string{"proto_version", "publication_names"},
		Summary: "Truncate, within protocol 1."},
	{Release: 12, Options: []string{"proto_version", "publication_names"},
		Summary: "Generated columns arrive and are not published: they are left out of Relation and TupleData."},
	{Release: 13, Options: []string{"proto_version", "publication_names"},
		Summary: "publish_via_partition_root: a partition's changes can be sent as its root table's (the root's OID and columns). No new message or field."},
	{Release: 14, Options: []string{"proto_version", "publication_names", "binary", "messages", "streaming"},
		Summary: "Protocol 2 streams large in-progress transactions (Stream Start, Stream Stop, Stream Commit, Stream Abort, and an Xid in the messages inside a stream); the binary option ('b' values) and the messages option (Message) work with protocol 1 too."},
	{Release: 15, Options: []string{"proto_version", "publication_names", "binary", "messages", "streaming", "two_phase"},
		Summary: "Protocol 3 sends prepared transactions at PREPARE time (Begin Prepare, Prepare, Commit Prepared, Rollback Prepared, Stream Prepare) with two_phase; empty transactions are no longer sent; row filters and column lists choose rows and columns. The documentation writes each field's C type and changes its introduction's wording."},
	{Release: 16, Options: []string{"proto_version", "publication_names", "binary", "messages", "streaming", "two_phase", "origin"},
		Summary: "Protocol 4: streaming = parallel, with which Stream Abort carries the abort LSN and timestamp; the origin option. The documentation gives each message an anchor."},
	{Release: 17, Options: []string{"proto_version", "publication_names", "binary", "messages", "streaming", "two_phase", "origin"},
		Summary: "No change to the messages, fields or options."},
	{Release: 18, Options: []string{"proto_version", "publication_names", "binary", "messages", "streaming", "two_phase", "origin"},
		Summary: "Stored generated columns can be published (publish_generated_columns = stored, or named in a column list): they appear in Relation and TupleData. No new message or field."},
}

// optionTable is pgoutput's options, as parse_output_parameters reads them.
var optionTable = []Option{
	{Name: "proto_version", Values: "an integer, 1 to the release's highest", Since: 10, Proto: 1,
		Bytes:   "Chooses which messages and fields may be sent: 2 allows streaming (Stream messages, Xid in streamed messages), 3 two-phase messages, 4 the parallel Stream Abort fields. Required.",
		Changes: []Change{{Release: 14, Proto: 2, Kind: ChangeOption, Text: "2 accepted."}, {Release: 15, Proto: 3, Kind: ChangeOption, Text: "3 accepted."}, {Release: 16, Proto: 4, Kind: ChangeOption, Text: "4 accepted."}}},
	{Name: "publication_names", Values: "a comma-separated list of publication names (SQL identifiers: unquoted names are folded to lower case)", Since: 10, Proto: 1,
		Bytes: "Chooses the tables, actions (insert, update, delete, truncate), and from 15 the rows and columns whose changes are sent. Required."},
	{Name: "binary", Values: "boolean", Default: "false", Since: 14, Proto: 1,
		Bytes: "TupleData values come as 'b' in each type's binary send format instead of 't' text, for types that have a send function."},
	{Name: "messages", Values: "boolean", Default: "false", Since: 14, Proto: 1,
		Bytes: "Message messages (from pg_logical_emit_message) are sent."},
	{Name: "streaming", Values: "boolean; from 16 also off, on, parallel", Default: "off", Since: 14, Proto: 2,
		Bytes:   "Transactions larger than logical_decoding_work_mem are streamed in Stream Start … Stream Stop blocks before they end, the messages inside a block carry an Xid, and Stream Commit or Stream Abort ends them. With parallel (protocol 4) Stream Abort also carries the abort LSN and timestamp.",
		Changes: []Change{{Release: 16, Proto: 4, Kind: ChangeOption, Text: "Takes off, on or parallel; parallel needs protocol 4."}}},
	{Name: "two_phase", Values: "boolean", Default: "false", Since: 15, Proto: 3,
		Bytes: "Prepared transactions are sent at PREPARE TRANSACTION as Begin Prepare … Prepare (or a stream ending in Stream Prepare), then Commit Prepared or Rollback Prepared; without it they arrive at COMMIT PREPARED as ordinary transactions."},
	{Name: "origin", Values: "none or any", Default: "any", Since: 16, Proto: 1,
		Bytes: "With none, transactions whose changes carry a replication origin (applied by a subscriber) are not sent; with any they are, with an Origin message."},
}

// Data returns the field guide, without the examples and captures that scripts/guide adds
// from testdata. Native programs only: the page reads the guide from its asset (Read), so
// that this prose is not part of main.wasm.
func Data() *Guide {
	g := &Guide{}
	for _, gt := range append(guideTable[:len(guideTable):len(guideTable)], guideWireTable...) {
		e := Entry{ID: gt.id, Group: gt.group, Name: gt.name, Layer: gt.layer, Purpose: gt.purpose, Travels: gt.travels,
			Fields: gt.fields, Rules: gt.rules, Related: gt.related, Doc: gt.doc, Changes: gt.changes}
		if e.Name == "" {
			e.Name = gt.group.Info().Name
		}
		switch gt.layer {
		case LayerMessage:
			for _, m := range decoder.Messages() {
				if m.Group == gt.group {
					e.Type = m.Type
				}
			}
		case LayerEnvelope:
			for _, env := range decoder.Envelopes() {
				if env.Group == gt.group {
					e.Type = env.Type
				}
			}
		case LayerWire:
			e.Type = gt.typ
			for _, w := range decoder.WireMessages() {
				if w.Group == gt.group && w.Type != 0 { // the untyped ones keep gt.typ
					e.Type = w.Type
				}
			}
		}
		g.Entries = append(g.Entries, e)
	}
	for _, r := range releaseTable {
		r.MaxProto = decoder.MaxProtoAt(r.Release)
		g.Releases = append(g.Releases, r)
	}
	g.Options = append(g.Options, optionTable...)
	return g
}
