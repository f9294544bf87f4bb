package decoder

// Marker and flag values, shared by the fields that carry them.
var (
	codesTupleOld = []Code{
		{'K', "old key", "the old values of the replica identity key columns follow (other columns are sent as n); sent for every identity but FULL", 0},
		{'O', "old tuple", "the whole old row follows; sent when the table's REPLICA IDENTITY is FULL", 0},
	}
	codesTupleNew = []Code{{'N', "new tuple", "the new row follows", 0}}
	codesColumn   = []Code{
		{'n', "null", "the value is NULL; nothing follows", 0},
		{'u', "unchanged TOAST", "an unchanged TOASTed value: the value is not sent, keep the one you have", 0},
		{'t', "text", "the value in text format (the type's output function) follows, after an Int32 length", 0},
		{'b', "binary", "the value in binary format (the type's send function) follows, after an Int32 length (PostgreSQL 14, binary option)", 14},
	}
	codesReplicaIdentity = []Code{
		{'d', "default", "the primary key identifies rows (pg_class.relreplident 'd')", 0},
		{'n', "nothing", "no old row data is logged (REPLICA IDENTITY NOTHING)", 0},
		{'f', "full", "the whole old row is logged (REPLICA IDENTITY FULL)", 0},
		{'i', "index", "the columns of a chosen unique index identify rows (REPLICA IDENTITY USING INDEX)", 0},
	}
	codesTruncate = []Code{
		{0, "none", "a plain TRUNCATE: neither CASCADE nor RESTART IDENTITY", 0},
		{1, "CASCADE", "TRUNCATE … CASCADE", 0},
		{2, "RESTART IDENTITY", "TRUNCATE … RESTART IDENTITY", 0},
	}
	codesColumnFlags = []Code{
		{0, "none", "the column is not part of the replica identity key", 0},
		{1, "key", "the column is part of the replica identity key", 0},
	}
	codesMessageFlags = []Code{
		{0, "none", "not transactional: sent as soon as it is decoded, whether or not the transaction that emitted it commits", 0},
		{1, "transactional", "the message was emitted inside a transaction and is delivered with it", 0},
	}
	codesFirstSegment = []Code{
		{0, "continued", "a later segment of a transaction already streamed in part", 0},
		{1, "first", "the first streamed segment of this transaction", 0},
	}
	codesReply = []Code{
		{0, "no reply", "no reply requested", 0},
		{1, "reply now", "the sender asks for an immediate reply", 0},
	}
	codesZeroFlags = []Code{{0, "none", "currently always 0", 0}}
)

// fieldTable holds the description of every field, indexed by FieldID. It is data only: plain
// literals, with no calls, so the compiler lays it out as static data instead of building it
// when the program starts (a constructor call per entry cost 7 KB of the page's WASM).
var fieldTable = [numFields]FieldInfo{
	FieldUnknown:     {Name: "Unknown", Kind: KindUndecoded, Meaning: "A field this decoder does not know."},
	FieldUndecoded:   {Name: "Undecoded bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes not decoded because an earlier field was in error."},
	FieldTrailing:    {Name: "Trailing bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes after the end of a complete message. The message's length comes from its envelope, so these should not be there."},
	FieldUnknownType: {Name: "Message type", Format: FormatByte1, Kind: KindUndecoded, Meaning: "The first byte of a message is its type code. This one is missing, or is not the type code of any pgoutput message or replication protocol envelope."},

	FieldCopyData:       {Name: "CopyData", Of: "CopyData", Format: FormatGroup, Kind: KindGroup, Meaning: "A frontend/backend protocol CopyData message; during replication every message travels inside one."},
	FieldCopyDataType:   {Name: "Type", Of: "CopyData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('d'): identifies the message as COPY data."},
	FieldCopyDataLength: {Name: "Length", Of: "CopyData", Format: FormatInt32, Kind: KindLength, Meaning: "Length of the message contents in bytes, including this field but not the type byte."},

	FieldXLogData:                   {Name: "XLogData", Of: "XLogData", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol XLogData message carrying one pgoutput message."},
	FieldXLogDataType:               {Name: "Type", Of: "XLogData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('w'): identifies the message as WAL data."},
	FieldXLogDataStart:              {Name: "Start LSN", Of: "XLogData", Format: FormatInt64, Kind: KindLSN, Meaning: "The starting point of the WAL data in this message. For logical replication, the LSN of the record being sent, or 0 for a message written ahead of another (Type, Relation, and a Begin followed by an Origin)."},
	FieldXLogDataEnd:                {Name: "WAL end", Of: "XLogData", Format: FormatInt64, Kind: KindLSN, Meaning: "The documentation says the current end of WAL on the server; in logical replication the walsender sets it to the same value as the start LSN."},
	FieldXLogDataTime:               {Name: "Send time", Of: "XLogData", Format: FormatInt64, Kind: KindTime, Meaning: "The server's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldKeepalive:                  {Name: "Primary keepalive", Of: "Primary keepalive", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol keepalive from the server."},
	FieldKeepaliveType:              {Name: "Type", Of: "Primary keepalive", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('k'): identifies the message as a sender keepalive."},
	FieldKeepaliveWALEnd:            {Name: "WAL end", Of: "Primary keepalive", Format: FormatInt64, Kind: KindLSN, Meaning: "The current end of WAL on the server; for a logical walsender, the position sent so far."},
	FieldKeepaliveTime:              {Name: "Send time", Of: "Primary keepalive", Format: FormatInt64, Kind: KindTime, Meaning: "The server's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldKeepaliveReply:             {Name: "Reply requested", Of: "Primary keepalive", Format: FormatByte1, Kind: KindFlags, Meaning: "1 means the client should reply to this message as soon as possible, to avoid a timeout disconnect.", Codes: codesReply},
	FieldStandbyStatus:              {Name: "Standby status update", Of: "Standby status update", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol status update from the client to the server."},
	FieldStandbyStatusType:          {Name: "Type", Of: "Standby status update", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('r'): identifies the message as a receiver status update."},
	FieldStandbyStatusWritten:       {Name: "Written LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 received and written to disk by the client."},
	FieldStandbyStatusFlushed:       {Name: "Flushed LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 flushed by the client. For a logical slot this advances confirmed_flush_lsn."},
	FieldStandbyStatusApplied:       {Name: "Applied LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 applied by the client."},
	FieldStandbyStatusTime:          {Name: "Client time", Of: "Standby status update", Format: FormatInt64, Kind: KindTime, Meaning: "The client's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldStandbyStatusReply:         {Name: "Reply requested", Of: "Standby status update", Format: FormatByte1, Kind: KindFlags, Meaning: "1 asks the server to reply at once (with a keepalive).", Codes: codesReply},
	FieldHotStandby:                 {Name: "Hot standby feedback", Of: "Hot standby feedback", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol hot standby feedback message from the client."},
	FieldHotStandbyType:             {Name: "Type", Of: "Hot standby feedback", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('h'): identifies the message as a hot standby feedback message."},
	FieldHotStandbyTime:             {Name: "Client time", Of: "Hot standby feedback", Format: FormatInt64, Kind: KindTime, Meaning: "The client's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldHotStandbyXmin:             {Name: "Xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The standby's current global xmin, excluding the catalog_xmin from replication slots. 0 (with catalog xmin 0) stops feedback."},
	FieldHotStandbyXminEpoch:        {Name: "Xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the xmin xid."},
	FieldHotStandbyCatalogXmin:      {Name: "Catalog xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The lowest catalog_xmin of any replication slots on the standby."},
	FieldHotStandbyCatalogXminEpoch: {Name: "Catalog xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the catalog xmin xid."},

	FieldStreamXid: {Name: "Xid", Of: "streamed change", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2,
		Meaning: "Xid of the (sub)transaction the change belongs to. Present only inside a streamed transaction (between Stream Start and Stream Stop)."},

	FieldBegin:           {Name: "Begin", Of: "Begin", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Begin of a transaction. PostgreSQL 15 and later send it only before the first change that survives filtering, so empty transactions send nothing."},
	FieldBeginType:       {Name: "Type", Of: "Begin", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('B'): identifies the message as a begin message."},
	FieldBeginFinalLSN:   {Name: "Final LSN", Of: "Begin", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The final LSN of the transaction: the LSN of its commit record."},
	FieldBeginCommitTime: {Name: "Commit timestamp", Of: "Begin", Format: FormatInt64, Kind: KindTime, Since: 10, Proto: 1, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldBeginXid:        {Name: "Xid", Of: "Begin", Format: FormatInt32, Kind: KindXid, Since: 10, Proto: 1, Meaning: "Xid of the transaction."},

	FieldMessage:        {Name: "Message", Of: "Message", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 1, Meaning: "A logical decoding message, from pg_logical_emit_message(). Sent only with the messages option."},
	FieldMessageType:    {Name: "Type", Of: "Message", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 1, Meaning: "Byte1('M'): identifies the message as a logical decoding message."},
	FieldMessageFlags:   {Name: "Flags", Of: "Message", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 1, Meaning: "Either 0 for no flags or 1 if the logical decoding message is transactional.", Codes: codesMessageFlags},
	FieldMessageLSN:     {Name: "LSN", Of: "Message", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 1, Meaning: "The LSN of the logical decoding message."},
	FieldMessagePrefix:  {Name: "Prefix", Of: "Message", Format: FormatString, Kind: KindString, Since: 14, Proto: 1, Meaning: "The prefix of the logical decoding message."},
	FieldMessageLength:  {Name: "Content length", Of: "Message", Format: FormatInt32, Kind: KindLength, Since: 14, Proto: 1, Meaning: "Length of the content in bytes."},
	FieldMessageContent: {Name: "Content", Of: "Message", Format: FormatBytes, Kind: KindValue, Since: 14, Proto: 1, Meaning: "The content of the logical decoding message, raw bytes (not NUL-terminated)."},

	FieldCommit:       {Name: "Commit", Of: "Commit", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Commit of a transaction."},
	FieldCommitType:   {Name: "Type", Of: "Commit", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('C'): identifies the message as a commit message."},
	FieldCommitFlags:  {Name: "Flags", Of: "Commit", Format: FormatInt8, Kind: KindFlags, Since: 10, Proto: 1, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldCommitLSN:    {Name: "Commit LSN", Of: "Commit", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The LSN of the commit record (the Begin's final LSN)."},
	FieldCommitEndLSN: {Name: "End LSN", Of: "Commit", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The end LSN of the transaction: the end of its commit record."},
	FieldCommitTime:   {Name: "Commit timestamp", Of: "Commit", Format: FormatInt64, Kind: KindTime, Since: 10, Proto: 1, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},

	FieldOrigin:     {Name: "Origin", Of: "Origin", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "The replication origin of the transaction's changes; follows Begin, Begin Prepare or the first Stream Start."},
	FieldOriginType: {Name: "Type", Of: "Origin", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('O'): identifies the message as an origin message."},
	FieldOriginLSN:  {Name: "Origin commit LSN", Of: "Origin", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The LSN of the commit on the origin server. 0 when sent after a Stream Start."},
	FieldOriginName: {Name: "Origin name", Of: "Origin", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the origin."},

	FieldRelation:                   {Name: "Relation", Of: "Relation", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Describes a relation's published columns. Sent before the first change to the relation in a session, and again after its definition changes."},
	FieldRelationType:               {Name: "Type", Of: "Relation", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('R'): identifies the message as a relation message."},
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

	FieldType:          {Name: "Type", Of: "Type", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Describes a non-built-in data type used by a published column (OID 10000 and above). Sent just before the Relation message."},
	FieldTypeType:      {Name: "Type", Of: "Type", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('Y'): identifies the message as a type message."},
	FieldTypeOID:       {Name: "Type OID", Of: "Type", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the data type as the column uses it (may be a domain)."},
	FieldTypeNamespace: {Name: "Namespace", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Namespace of the base data type; an empty string means pg_catalog."},
	FieldTypeName:      {Name: "Type name", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the base data type (the documentation says of the data type; for a domain the server sends its base type's name)."},

	FieldInsert:            {Name: "Insert", Of: "Insert", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row inserted."},
	FieldInsertType:        {Name: "Type", Of: "Insert", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('I'): identifies the message as an insert message."},
	FieldInsertRelationOID: {Name: "Relation OID", Of: "Insert", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message."},
	FieldInsertNew:         {Name: "New tuple marker", Of: "Insert", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew},

	FieldUpdate:            {Name: "Update", Of: "Update", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row updated."},
	FieldUpdateType:        {Name: "Type", Of: "Update", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('U'): identifies the message as an update message."},
	FieldUpdateRelationOID: {Name: "Relation OID", Of: "Update", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message."},
	FieldUpdateOld:         {Name: "Old tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'), optional: the old key (identity other than FULL) or the old row (FULL) follows. Sent whenever the decoded change has an old tuple: when key columns changed, or are stored out of line.", Codes: codesTupleOld},
	FieldUpdateNew:         {Name: "New tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew},

	FieldDelete:            {Name: "Delete", Of: "Delete", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row deleted."},
	FieldDeleteType:        {Name: "Type", Of: "Delete", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('D'): identifies the message as a delete message."},
	FieldDeleteRelationOID: {Name: "Relation OID", Of: "Delete", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message."},
	FieldDeleteOld:         {Name: "Old tuple marker", Of: "Delete", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'): the old key follows (every identity but FULL, including the primary key), or the whole old row (FULL).", Codes: codesTupleOld},

	FieldTruncate:              {Name: "Truncate", Of: "Truncate", Format: FormatGroup, Kind: KindGroup, Since: 11, Proto: 1, Meaning: "One TRUNCATE of one or more published relations."},
	FieldTruncateType:          {Name: "Type", Of: "Truncate", Format: FormatByte1, Kind: KindType, Since: 11, Proto: 1, Meaning: "Byte1('T'): identifies the message as a truncate message."},
	FieldTruncateRelationCount: {Name: "Relation count", Of: "Truncate", Format: FormatInt32, Kind: KindLength, Since: 11, Proto: 1, Meaning: "Number of relations."},
	FieldTruncateOptions:       {Name: "Option bits", Of: "Truncate", Format: FormatInt8, Kind: KindFlags, Since: 11, Proto: 1, Meaning: "Option bits for TRUNCATE: 1 for CASCADE, 2 for RESTART IDENTITY.", Codes: codesTruncate},
	FieldTruncateRelationOID:   {Name: "Relation OID", Of: "Truncate", Format: FormatInt32, Kind: KindOID, Since: 11, Proto: 1, Meaning: "OID of a truncated relation."},

	FieldStreamStart:      {Name: "Stream Start", Of: "Stream Start", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Start of a block of changes of a large in-progress transaction, streamed before it commits."},
	FieldStreamStartType:  {Name: "Type", Of: "Stream Start", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('S'): identifies the message as a stream start message."},
	FieldStreamStartXid:   {Name: "Xid", Of: "Stream Start", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the transaction."},
	FieldStreamStartFirst: {Name: "First segment", Of: "Stream Start", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 2, Meaning: "1 if this is the first stream segment for this Xid, 0 for any later segment.", Codes: codesFirstSegment},

	FieldStreamStop:     {Name: "Stream Stop", Of: "Stream Stop", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "End of a block of streamed changes."},
	FieldStreamStopType: {Name: "Type", Of: "Stream Stop", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('E'): identifies the message as a stream stop message."},

	FieldStreamCommit:       {Name: "Stream Commit", Of: "Stream Commit", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Commit of a streamed transaction."},
	FieldStreamCommitType:   {Name: "Type", Of: "Stream Commit", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('c'): identifies the message as a stream commit message."},
	FieldStreamCommitXid:    {Name: "Xid", Of: "Stream Commit", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the transaction."},
	FieldStreamCommitFlags:  {Name: "Flags", Of: "Stream Commit", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 2, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldStreamCommitLSN:    {Name: "Commit LSN", Of: "Stream Commit", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 2, Meaning: "The LSN of the commit record."},
	FieldStreamCommitEndLSN: {Name: "End LSN", Of: "Stream Commit", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 2, Meaning: "The end LSN of the transaction."},
	FieldStreamCommitTime:   {Name: "Commit timestamp", Of: "Stream Commit", Format: FormatInt64, Kind: KindTime, Since: 14, Proto: 2, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},

	FieldStreamAbort:       {Name: "Stream Abort", Of: "Stream Abort", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Abort of a streamed transaction or of one of its subtransactions."},
	FieldStreamAbortType:   {Name: "Type", Of: "Stream Abort", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('A'): identifies the message as a stream abort message."},
	FieldStreamAbortXid:    {Name: "Xid", Of: "Stream Abort", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the top-level transaction."},
	FieldStreamAbortSubXid: {Name: "Subtransaction Xid", Of: "Stream Abort", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the aborted subtransaction; the same as the top-level Xid when the whole transaction aborts."},
	FieldStreamAbortLSN:    {Name: "Abort LSN", Of: "Stream Abort", Format: FormatInt64, Kind: KindLSN, Since: 16, Proto: 4, Meaning: "The LSN of the abort. Present only with streaming = parallel (PostgreSQL 16, protocol 4)."},
	FieldStreamAbortTime:   {Name: "Abort timestamp", Of: "Stream Abort", Format: FormatInt64, Kind: KindTime, Since: 16, Proto: 4, Meaning: "Abort timestamp of the transaction. Present only with streaming = parallel (PostgreSQL 16, protocol 4). Microseconds since 2000-01-01 00:00:00 UTC."},

	FieldBeginPrepare:       {Name: "Begin Prepare", Of: "Begin Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "Begin of a transaction prepared for two-phase commit (two_phase option)."},
	FieldBeginPrepareType:   {Name: "Type", Of: "Begin Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('b'): identifies the message as the beginning of a prepared transaction."},
	FieldBeginPrepareLSN:    {Name: "Prepare LSN", Of: "Begin Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare."},
	FieldBeginPrepareEndLSN: {Name: "End LSN", Of: "Begin Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction."},
	FieldBeginPrepareTime:   {Name: "Prepare timestamp", Of: "Begin Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldBeginPrepareXid:    {Name: "Xid", Of: "Begin Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction."},
	FieldBeginPrepareGID:    {Name: "GID", Of: "Begin Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."},

	FieldPrepare:       {Name: "Prepare", Of: "Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "PREPARE TRANSACTION of a transaction decoded since Begin Prepare."},
	FieldPrepareType:   {Name: "Type", Of: "Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('P'): identifies the message as a prepared transaction message."},
	FieldPrepareFlags:  {Name: "Flags", Of: "Prepare", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldPrepareLSN:    {Name: "Prepare LSN", Of: "Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare."},
	FieldPrepareEndLSN: {Name: "End LSN", Of: "Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction."},
	FieldPrepareTime:   {Name: "Prepare timestamp", Of: "Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldPrepareXid:    {Name: "Xid", Of: "Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction."},
	FieldPrepareGID:    {Name: "GID", Of: "Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."},

	FieldCommitPrepared:       {Name: "Commit Prepared", Of: "Commit Prepared", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "COMMIT PREPARED of a transaction prepared earlier."},
	FieldCommitPreparedType:   {Name: "Type", Of: "Commit Prepared", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('K'): identifies the message as the commit of a prepared transaction."},
	FieldCommitPreparedFlags:  {Name: "Flags", Of: "Commit Prepared", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldCommitPreparedLSN:    {Name: "Commit LSN", Of: "Commit Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the commit prepared."},
	FieldCommitPreparedEndLSN: {Name: "End LSN", Of: "Commit Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the commit of the prepared transaction."},
	FieldCommitPreparedTime:   {Name: "Commit timestamp", Of: "Commit Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldCommitPreparedXid:    {Name: "Xid", Of: "Commit Prepared", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction."},
	FieldCommitPreparedGID:    {Name: "GID", Of: "Commit Prepared", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."},

	FieldRollbackPrepared:              {Name: "Rollback Prepared", Of: "Rollback Prepared", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "ROLLBACK PREPARED of a transaction prepared earlier."},
	FieldRollbackPreparedType:          {Name: "Type", Of: "Rollback Prepared", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('r'): identifies the message as the rollback of a prepared transaction."},
	FieldRollbackPreparedFlags:         {Name: "Flags", Of: "Rollback Prepared", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldRollbackPreparedPrepareEndLSN: {Name: "Prepare end LSN", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction."},
	FieldRollbackPreparedEndLSN:        {Name: "Rollback end LSN", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the rollback of the prepared transaction."},
	FieldRollbackPreparedPrepareTime:   {Name: "Prepare timestamp", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldRollbackPreparedTime:          {Name: "Rollback timestamp", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Rollback timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldRollbackPreparedXid:           {Name: "Xid", Of: "Rollback Prepared", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction."},
	FieldRollbackPreparedGID:           {Name: "GID", Of: "Rollback Prepared", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."},

	FieldStreamPrepare:       {Name: "Stream Prepare", Of: "Stream Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "PREPARE TRANSACTION of a streamed transaction (two_phase with streaming)."},
	FieldStreamPrepareType:   {Name: "Type", Of: "Stream Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('p'): identifies the message as a stream prepared transaction message."},
	FieldStreamPrepareFlags:  {Name: "Flags", Of: "Stream Prepare", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags},
	FieldStreamPrepareLSN:    {Name: "Prepare LSN", Of: "Stream Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare."},
	FieldStreamPrepareEndLSN: {Name: "End LSN", Of: "Stream Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction."},
	FieldStreamPrepareTime:   {Name: "Prepare timestamp", Of: "Stream Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC."},
	FieldStreamPrepareXid:    {Name: "Xid", Of: "Stream Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction."},
	FieldStreamPrepareGID:    {Name: "GID", Of: "Stream Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid')."},

	FieldTupleNew:         {Name: "New tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the new row, one entry per published column."},
	FieldTupleKey:         {Name: "Old key", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the old values of the replica identity key. Full width: one entry per published column, non-key columns sent as n (null)."},
	FieldTupleOld:         {Name: "Old tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the whole old row (REPLICA IDENTITY FULL)."},
	FieldTupleColumnCount: {Name: "Column count", Of: "TupleData", Format: FormatInt16, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Number of columns; the same count and order as the Relation message's columns."},
	FieldTupleColumn:      {Name: "Column", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "One column's data, in the order of the Relation message's columns."},
	FieldColumnKind:       {Name: "Kind", Of: "TupleData column", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "How the column's data is sent: n null, u unchanged TOAST value (not sent), t text, b binary (PostgreSQL 14).", Codes: codesColumn},
	FieldColumnLength:     {Name: "Length", Of: "TupleData column", Format: FormatInt32, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Length of the column value in bytes."},
	FieldColumnValue:      {Name: "Value", Of: "TupleData column", Format: FormatBytes, Kind: KindValue, Since: 10, Proto: 1, Meaning: "The value of the column, in the format given by the kind byte. Text values are in the connection's client_encoding and have no NUL terminator."},
}
