package decoder

// Marker and flag values, shared by the fields that carry them.
var (
	codesUpdateOld = []Code{
		{'K', "old key", "the old values of the replica identity key columns follow (a TupleData; the other columns are sent as n). An Update carries the old key when the change has one: usually because the update changed a key column; the server also sends it when a key column is stored out of line (TOASTed). The bytes do not say which", 0},
		{'O', "old tuple", "the whole old row follows: the table has REPLICA IDENTITY FULL, so every update carries it", 0},
	}
	codesDeleteOld = []Code{
		{'K', "old key", "the old values of the replica identity key columns follow (a TupleData; the other columns are sent as n): a Delete carries the old key for every replica identity but FULL, the primary key included", 0},
		{'O', "old tuple", "the whole old row follows: the table has REPLICA IDENTITY FULL", 0},
	}
	codesTupleNew = []Code{{'N', "new tuple", "the new row follows", 0}}
	codesColumn   = []Code{
		{'n', "null", "the value is NULL; nothing follows", 0},
		{'u', "unchanged TOAST", "an unchanged TOASTed value: the update did not change this column and PostgreSQL did not send it; keep the value you have", 0},
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
// size: docs/performance.md, "Size tricks".
var fieldTable = [wireFieldsStart]FieldInfo{
	FieldUnknown:     {Name: "Unknown", Kind: KindUndecoded, Meaning: "A field this decoder does not know."},
	FieldUndecoded:   {Name: "Undecoded bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes not decoded because an earlier field was in error."},
	FieldTrailing:    {Name: "Trailing bytes", Format: FormatBytes, Kind: KindUndecoded, Meaning: "Bytes after the end of a complete message. The message's length comes from its envelope, so these should not be there."},
	FieldUnknownType: {Name: "Message type", Format: FormatByte1, Kind: KindUndecoded, Meaning: "The first byte of a message is its type code. This one is missing, or is not the type code of any pgoutput message or replication protocol envelope."},

	FieldCopyData:       {Name: "CopyData", Of: "CopyData", Format: FormatGroup, Kind: KindGroup, Meaning: "A frontend/backend protocol CopyData message; during replication every message travels inside one.", Explain: "{N} one CopyData message: the frontend/backend protocol message in which every replication message travels."},
	FieldCopyDataType:   {Name: "Type", Of: "CopyData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('d'): identifies the message as COPY data.", Explain: "{char}: the type byte of a CopyData message."},
	FieldCopyDataLength: {Name: "Length", Of: "CopyData", Format: FormatInt32, Kind: KindLength, Meaning: "Length of the message contents in bytes, including this field but not the type byte.", Explain: "{N} the CopyData length, {v}: the 4 bytes of the length itself and the {paylen} bytes of payload after it (the type byte is not counted)."},

	FieldXLogData:                   {Name: "XLogData", Of: "XLogData", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol XLogData message carrying one pgoutput message.", Explain: "{N} one XLogData message: WAL data from the server, here one pgoutput message with its LSN and send time."},
	FieldXLogDataType:               {Name: "Type", Of: "XLogData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('w'): identifies the message as WAL data.", Explain: "{char}: the type byte of an XLogData message."},
	FieldXLogDataStart:              {Name: "Start LSN", Of: "XLogData", Format: FormatInt64, Kind: KindLSN, Meaning: "The starting point of the WAL data in this message. For logical replication, the LSN of the record being sent, or 0 for a message written ahead of another (Type, Relation, and a Begin followed by an Origin).", Explain: "{N} the XLogData's start LSN, {v}: {lsnzero}"},
	FieldXLogDataEnd:                {Name: "WAL end", Of: "XLogData", Format: FormatInt64, Kind: KindLSN, Meaning: "The documentation says the current end of WAL on the server; in logical replication the walsender sets it to the same value as the start LSN.", Explain: "{N} the XLogData's WAL end, {v}. For logical replication the walsender writes the same value as the start LSN; the documentation's \"current end of WAL on the server\" is true of physical replication."},
	FieldXLogDataTime:               {Name: "Send time", Of: "XLogData", Format: FormatInt64, Kind: KindTime, Meaning: "The server's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the time the server sent this message, {v}."},
	FieldKeepalive:                  {Name: "Primary keepalive", Of: "Primary keepalive", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol keepalive from the server.", Explain: "{N} a Primary keepalive: the server is alive and says how far it has sent."},
	FieldKeepaliveType:              {Name: "Type", Of: "Primary keepalive", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('k'): identifies the message as a sender keepalive.", Explain: "{char}: the type byte of a Primary keepalive."},
	FieldKeepaliveWALEnd:            {Name: "WAL end", Of: "Primary keepalive", Format: FormatInt64, Kind: KindLSN, Meaning: "The current end of WAL on the server; for a logical walsender, the position sent so far.", Explain: "{N} the position the walsender has sent up to, {v} (the documentation calls it the current end of WAL; in logical replication it is the position sent so far)."},
	FieldKeepaliveTime:              {Name: "Send time", Of: "Primary keepalive", Format: FormatInt64, Kind: KindTime, Meaning: "The server's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the time the server sent this keepalive, {v}."},
	FieldKeepaliveReply:             {Name: "Reply requested", Of: "Primary keepalive", Format: FormatByte1, Kind: KindFlags, Meaning: "1 means the client should reply to this message as soon as possible, to avoid a timeout disconnect.", Codes: codesReply, Explain: "{N} {v}: {code}."},
	FieldStandbyStatus:              {Name: "Standby status update", Of: "Standby status update", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol status update from the client to the server.", Explain: "{N} a Standby status update: the client's report of how far it has received, flushed and applied the stream."},
	FieldStandbyStatusType:          {Name: "Type", Of: "Standby status update", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('r'): identifies the message as a receiver status update.", Explain: "{char}: the type byte of a Standby status update (34 bytes long; a Rollback Prepared, which shares the letter, is at least 39)."},
	FieldStandbyStatusWritten:       {Name: "Written LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 received and written to disk by the client.", Explain: "{N} the written position the client reports, {v}: the last WAL byte + 1 it received and wrote."},
	FieldStandbyStatusFlushed:       {Name: "Flushed LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 flushed by the client. For a logical slot this advances confirmed_flush_lsn.", Explain: "{N} the flushed position the client reports, {v}. For a logical slot the server takes it as the slot's confirmed_flush_lsn: transactions that end before it will not be sent again."},
	FieldStandbyStatusApplied:       {Name: "Applied LSN", Of: "Standby status update", Format: FormatInt64, Kind: KindLSN, Meaning: "The location of the last WAL byte + 1 applied by the client.", Explain: "{N} the applied position the client reports, {v}."},
	FieldStandbyStatusTime:          {Name: "Client time", Of: "Standby status update", Format: FormatInt64, Kind: KindTime, Meaning: "The client's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the client's clock when it sent the update, {v}."},
	FieldStandbyStatusReply:         {Name: "Reply requested", Of: "Standby status update", Format: FormatByte1, Kind: KindFlags, Meaning: "1 asks the server to reply at once (with a keepalive).", Codes: codesReply, Explain: "{N} {v}: {code}."},
	FieldHotStandby:                 {Name: "Hot standby feedback", Of: "Hot standby feedback", Format: FormatGroup, Kind: KindGroup, Meaning: "A replication protocol hot standby feedback message from the client.", Explain: "{N} a Hot standby feedback message: a standby's oldest transaction ids, which keep the primary from removing rows its queries still need."},
	FieldHotStandbyType:             {Name: "Type", Of: "Hot standby feedback", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('h'): identifies the message as a hot standby feedback message.", Explain: "{char}: the type byte of a Hot standby feedback message."},
	FieldHotStandbyTime:             {Name: "Client time", Of: "Hot standby feedback", Format: FormatInt64, Kind: KindTime, Meaning: "The client's system clock at the time of transmission. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the standby's clock when it sent the feedback, {v}."},
	FieldHotStandbyXmin:             {Name: "Xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The standby's current global xmin, excluding the catalog_xmin from replication slots. 0 (with catalog xmin 0) stops feedback.", Explain: "{N} the standby's xmin, {v}{xminzero}."},
	FieldHotStandbyXminEpoch:        {Name: "Xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the xmin xid.", Explain: "{N} the epoch of the xmin, {v}."},
	FieldHotStandbyCatalogXmin:      {Name: "Catalog xmin", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindXid, Meaning: "The lowest catalog_xmin of any replication slots on the standby.", Explain: "{N} the standby's catalog xmin, {v}{xminzero}."},
	FieldHotStandbyCatalogXminEpoch: {Name: "Catalog xmin epoch", Of: "Hot standby feedback", Format: FormatInt32, Kind: KindInteger, Meaning: "The epoch of the catalog xmin xid.", Explain: "{N} the epoch of the catalog xmin, {v}."},

	FieldStreamXid: {Name: "Xid", Of: "streamed change", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2,
		Meaning: "Xid of the (sub)transaction the change belongs to. Present only inside a streamed transaction (between Stream Start and Stream Stop).", Explain: "{N} the Xid of the (sub)transaction this {msg} belongs to, {v}. They are here because the message is inside a streamed transaction (between Stream Start and Stream Stop); outside a stream the field is absent."},

	FieldBegin:           {Name: "Begin", Of: "Begin", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Begin of a transaction. PostgreSQL 15 and later send it only before the first change that survives filtering, so empty transactions send nothing.", Explain: "{N} a Begin message: a transaction opens, and the changes up to its Commit belong to it."},
	FieldBeginType:       {Name: "Type", Of: "Begin", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('B'): identifies the message as a begin message.", Explain: "{char}: the type byte of a Begin message."},
	FieldBeginFinalLSN:   {Name: "Final LSN", Of: "Begin", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The final LSN of the transaction: the LSN of its commit record.", Explain: "{N} the transaction's final LSN, {v}: the position of its commit record. The Commit that closes the transaction carries the same LSN."},
	FieldBeginCommitTime: {Name: "Commit timestamp", Of: "Begin", Format: FormatInt64, Kind: KindTime, Since: 10, Proto: 1, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the transaction's commit time, {v}: pgoutput sends a transaction after it commits, so Begin already knows it."},
	FieldBeginXid:        {Name: "Xid", Of: "Begin", Format: FormatInt32, Kind: KindXid, Since: 10, Proto: 1, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},

	FieldMessage:        {Name: "Message", Of: "Message", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 1, Meaning: "A logical decoding message, from pg_logical_emit_message(). Sent only with the messages option.", Explain: "{N} a logical decoding Message, written with pg_logical_emit_message()."},
	FieldMessageType:    {Name: "Type", Of: "Message", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 1, Meaning: "Byte1('M'): identifies the message as a logical decoding message.", Explain: "{char}: the type byte of a logical decoding Message."},
	FieldMessageFlags:   {Name: "Flags", Of: "Message", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 1, Meaning: "Either 0 for no flags or 1 if the logical decoding message is transactional.", Codes: codesMessageFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldMessageLSN:     {Name: "LSN", Of: "Message", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 1, Meaning: "The LSN of the logical decoding message.", Explain: "{N} the LSN of the logical decoding message, {v}."},
	FieldMessagePrefix:  {Name: "Prefix", Of: "Message", Format: FormatString, Kind: KindString, Since: 14, Proto: 1, Meaning: "The prefix of the logical decoding message.", Explain: "{N} the message's prefix, {v}, with its NUL terminator: by convention it names the application the message is for."},
	FieldMessageLength:  {Name: "Content length", Of: "Message", Format: FormatInt32, Kind: KindLength, Since: 14, Proto: 1, Meaning: "Length of the content in bytes.", Explain: "{N} the length of the content: {nfollow}."},
	FieldMessageContent: {Name: "Content", Of: "Message", Format: FormatBytes, Kind: KindValue, Since: 14, Proto: 1, Meaning: "The content of the logical decoding message, raw bytes (not NUL-terminated).", Explain: "{N} the message's content: {v}. It is raw bytes, not NUL-terminated."},

	FieldCommit:       {Name: "Commit", Of: "Commit", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Commit of a transaction.", Explain: "{N} a Commit message: the transaction opened by Begin has committed."},
	FieldCommitType:   {Name: "Type", Of: "Commit", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('C'): identifies the message as a commit message.", Explain: "{char}: the type byte of a Commit message."},
	FieldCommitFlags:  {Name: "Flags", Of: "Commit", Format: FormatInt8, Kind: KindFlags, Since: 10, Proto: 1, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldCommitLSN:    {Name: "Commit LSN", Of: "Commit", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The LSN of the commit record (the Begin's final LSN).", Explain: "{N} the commit LSN, {v}: the position of the commit record, the same as its Begin's final LSN."},
	FieldCommitEndLSN: {Name: "End LSN", Of: "Commit", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The end LSN of the transaction: the end of its commit record.", Explain: "{N} the transaction's end LSN, {v}: the end of its commit record. A client confirms this position once it has applied the transaction."},
	FieldCommitTime:   {Name: "Commit timestamp", Of: "Commit", Format: FormatInt64, Kind: KindTime, Since: 10, Proto: 1, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the commit time, {v}."},

	FieldOrigin:     {Name: "Origin", Of: "Origin", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "The replication origin of the transaction's changes; follows Begin, Begin Prepare or the first Stream Start.", Explain: "{N} an Origin message: the transaction's changes came from a replication origin."},
	FieldOriginType: {Name: "Type", Of: "Origin", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('O'): identifies the message as an origin message.", Explain: "{char}: the type byte of an Origin message."},
	FieldOriginLSN:  {Name: "Origin commit LSN", Of: "Origin", Format: FormatInt64, Kind: KindLSN, Since: 10, Proto: 1, Meaning: "The LSN of the commit on the origin server. 0 when sent after a Stream Start.", Explain: "{N} the LSN of the commit on the origin server, {v}{originzero}."},
	FieldOriginName: {Name: "Origin name", Of: "Origin", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the origin.", Explain: "{N} the origin's name, {v}."},

	FieldRelation:                   {Name: "Relation", Of: "Relation", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Describes a relation's published columns. Sent before the first change to the relation in a session, and again after its definition changes.", Explain: "{N} a Relation message: it describes relation {relname} and the columns its changes carry."},
	FieldRelationType:               {Name: "Type", Of: "Relation", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('R'): identifies the message as a relation message.", Explain: "{char}: the type byte of a Relation message."},
	FieldRelationOID:                {Name: "Relation OID", Of: "Relation", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation.", Explain: "{N} the relation's OID, {v}: the changes that follow name the relation by this number."},
	FieldRelationNamespace:          {Name: "Namespace", Of: "Relation", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Namespace (schema); an empty string means pg_catalog.", Explain: "{N} the relation's schema, {v}."},
	FieldRelationName:               {Name: "Relation name", Of: "Relation", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Relation name.", Explain: "{N} the relation's name, {v}."},
	FieldRelationReplicaIdentity:    {Name: "Replica identity", Of: "Relation", Format: FormatInt8, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "The relation's replica identity setting (pg_class.relreplident).", Codes: codesReplicaIdentity, Explain: "{N} the replica identity, {char}: {code}. It decides what Update and Delete carry of the old row."},
	FieldRelationColumnCount:        {Name: "Column count", Of: "Relation", Format: FormatInt16, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Number of published columns that follow (generated columns are left out before PostgreSQL 18).", Explain: "{N} the number of published columns, {v}: the TupleData of this relation's changes has one entry per column, in this order."},
	FieldRelationColumn:             {Name: "Column", Of: "Relation", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "One published column, in attnum order.", Explain: "{N} the description of {relcol}."},
	FieldRelationColumnFlags:        {Name: "Flags", Of: "Relation column", Format: FormatInt8, Kind: KindFlags, Since: 10, Proto: 1, Meaning: "Either 0 for no flags or 1 if the column is part of the key (with REPLICA IDENTITY FULL, every column).", Codes: codesColumnFlags, Explain: "{N} the column's flags, {v}: {code}."},
	FieldRelationColumnName:         {Name: "Column name", Of: "Relation column", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the column.", Explain: "{N} the column's name, {v}."},
	FieldRelationColumnTypeOID:      {Name: "Type OID", Of: "Relation column", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the column's data type (atttypid).", Explain: "{N} the OID of the column's type, {v}: {typ}."},
	FieldRelationColumnTypeModifier: {Name: "Type modifier", Of: "Relation column", Format: FormatInt32, Kind: KindInteger, Since: 10, Proto: 1, Meaning: "Type modifier of the column (atttypmod); -1 when there is none.", Explain: "{N} the column's type modifier (atttypmod), {v}{typmodnone}."},

	FieldType:          {Name: "Type", Of: "Type", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "Describes a non-built-in data type used by a published column (OID 10000 and above). Sent just before the Relation message.", Explain: "{N} a Type message: it names a type that is not built in, used by a column of the Relation message that follows."},
	FieldTypeType:      {Name: "Type", Of: "Type", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('Y'): identifies the message as a type message.", Explain: "{char}: the type byte of a Type message."},
	FieldTypeOID:       {Name: "Type OID", Of: "Type", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the data type as the column uses it (may be a domain).", Explain: "{N} the type's OID, {v}, as the column uses it (for a domain, the domain's OID)."},
	FieldTypeNamespace: {Name: "Namespace", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Namespace of the base data type; an empty string means pg_catalog.", Explain: "{N} the schema of the type's base type, {v}."},
	FieldTypeName:      {Name: "Type name", Of: "Type", Format: FormatString, Kind: KindString, Since: 10, Proto: 1, Meaning: "Name of the base data type (the documentation says of the data type; for a domain the server sends its base type's name).", Explain: "{N} the name of the type's base type, {v}: for a domain the server sends the name of the type it is based on, not the domain's."},

	FieldInsert:            {Name: "Insert", Of: "Insert", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row inserted.", Explain: "{N} an Insert: a row was added to {relname}."},
	FieldInsertType:        {Name: "Type", Of: "Insert", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('I'): identifies the message as an insert message.", Explain: "{char}: the type byte of an Insert message."},
	FieldInsertRelationOID: {Name: "Relation OID", Of: "Insert", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message.", Explain: "{N} the OID of {rel}{relfrom}."},
	FieldInsertNew:         {Name: "New tuple marker", Of: "Insert", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew, Explain: "{char}: the new row follows, as a TupleData."},

	FieldUpdate:            {Name: "Update", Of: "Update", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row updated.", Explain: "{N} an Update: a row of {relname} changed."},
	FieldUpdateType:        {Name: "Type", Of: "Update", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('U'): identifies the message as an update message.", Explain: "{char}: the type byte of an Update message."},
	FieldUpdateRelationOID: {Name: "Relation OID", Of: "Update", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message.", Explain: "{N} the OID of {rel}{relfrom}."},
	FieldUpdateOld:         {Name: "Old tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'), optional: the old key (identity other than FULL) or the old row (FULL) follows. Sent whenever the decoded change has an old tuple: when key columns changed, or are stored out of line.", Codes: codesUpdateOld, Explain: "{char}: {code}"},
	FieldUpdateNew:         {Name: "New tuple marker", Of: "Update", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('N'): a TupleData with the new row follows.", Codes: codesTupleNew, Explain: "{char}: the new row follows, as a TupleData."},

	FieldDelete:            {Name: "Delete", Of: "Delete", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "A row deleted.", Explain: "{N} a Delete: a row of {relname} was removed."},
	FieldDeleteType:        {Name: "Type", Of: "Delete", Format: FormatByte1, Kind: KindType, Since: 10, Proto: 1, Meaning: "Byte1('D'): identifies the message as a delete message.", Explain: "{char}: the type byte of a Delete message."},
	FieldDeleteRelationOID: {Name: "Relation OID", Of: "Delete", Format: FormatInt32, Kind: KindOID, Since: 10, Proto: 1, Meaning: "OID of the relation, as sent in an earlier Relation message.", Explain: "{N} the OID of {rel}{relfrom}."},
	FieldDeleteOld:         {Name: "Old tuple marker", Of: "Delete", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "Byte1('K') or Byte1('O'): the old key follows (every identity but FULL, including the primary key), or the whole old row (FULL).", Codes: codesDeleteOld, Explain: "{char}: {code}"},

	FieldTruncate:              {Name: "Truncate", Of: "Truncate", Format: FormatGroup, Kind: KindGroup, Since: 11, Proto: 1, Meaning: "One TRUNCATE of one or more published relations.", Explain: "{N} a Truncate: one TRUNCATE of one or more published relations."},
	FieldTruncateType:          {Name: "Type", Of: "Truncate", Format: FormatByte1, Kind: KindType, Since: 11, Proto: 1, Meaning: "Byte1('T'): identifies the message as a truncate message.", Explain: "{char}: the type byte of a Truncate message."},
	FieldTruncateRelationCount: {Name: "Relation count", Of: "Truncate", Format: FormatInt32, Kind: KindLength, Since: 11, Proto: 1, Meaning: "Number of relations.", Explain: "{N} the number of relations truncated, {v}: as many relation OIDs follow the options."},
	FieldTruncateOptions:       {Name: "Option bits", Of: "Truncate", Format: FormatInt8, Kind: KindFlags, Since: 11, Proto: 1, Meaning: "Option bits for TRUNCATE: 1 for CASCADE, 2 for RESTART IDENTITY.", Codes: codesTruncate, Explain: "{N} the TRUNCATE options, {v}: {code}."},
	FieldTruncateRelationOID:   {Name: "Relation OID", Of: "Truncate", Format: FormatInt32, Kind: KindOID, Since: 11, Proto: 1, Meaning: "OID of a truncated relation.", Explain: "{N} the OID of {rel}, truncated{relfrom}."},

	FieldStreamStart:      {Name: "Stream Start", Of: "Stream Start", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Start of a block of changes of a large in-progress transaction, streamed before it commits.", Explain: "{N} a Stream Start: a block of changes of a transaction still in progress begins."},
	FieldStreamStartType:  {Name: "Type", Of: "Stream Start", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('S'): identifies the message as a stream start message.", Explain: "{char}: the type byte of a Stream Start message."},
	FieldStreamStartXid:   {Name: "Xid", Of: "Stream Start", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the transaction.", Explain: "{N} the xid of the streamed transaction, {v}: the changes in this block carry the Xid of their (sub)transaction."},
	FieldStreamStartFirst: {Name: "First segment", Of: "Stream Start", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 2, Meaning: "1 if this is the first stream segment for this Xid, 0 for any later segment.", Codes: codesFirstSegment, Explain: "{N} {v}: {code}."},

	FieldStreamStop:     {Name: "Stream Stop", Of: "Stream Stop", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "End of a block of streamed changes.", Explain: "{N} a Stream Stop: the block of streamed changes ends; changes after it carry no Xid until the next Stream Start."},
	FieldStreamStopType: {Name: "Type", Of: "Stream Stop", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('E'): identifies the message as a stream stop message.", Explain: "{char}: the type byte of a Stream Stop message."},

	FieldStreamCommit:       {Name: "Stream Commit", Of: "Stream Commit", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Commit of a streamed transaction.", Explain: "{N} a Stream Commit: a transaction streamed earlier in blocks has committed."},
	FieldStreamCommitType:   {Name: "Type", Of: "Stream Commit", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('c'): identifies the message as a stream commit message.", Explain: "{char}: the type byte of a Stream Commit message."},
	FieldStreamCommitXid:    {Name: "Xid", Of: "Stream Commit", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the transaction.", Explain: "{N} the xid of the streamed transaction that committed, {v}."},
	FieldStreamCommitFlags:  {Name: "Flags", Of: "Stream Commit", Format: FormatInt8, Kind: KindFlags, Since: 14, Proto: 2, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldStreamCommitLSN:    {Name: "Commit LSN", Of: "Stream Commit", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 2, Meaning: "The LSN of the commit record.", Explain: "{N} the commit LSN, {v}."},
	FieldStreamCommitEndLSN: {Name: "End LSN", Of: "Stream Commit", Format: FormatInt64, Kind: KindLSN, Since: 14, Proto: 2, Meaning: "The end LSN of the transaction.", Explain: "{N} the transaction's end LSN, {v}."},
	FieldStreamCommitTime:   {Name: "Commit timestamp", Of: "Stream Commit", Format: FormatInt64, Kind: KindTime, Since: 14, Proto: 2, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the commit time, {v}."},

	FieldStreamAbort:       {Name: "Stream Abort", Of: "Stream Abort", Format: FormatGroup, Kind: KindGroup, Since: 14, Proto: 2, Meaning: "Abort of a streamed transaction or of one of its subtransactions.", Explain: "{N} a Stream Abort: a streamed transaction, or one of its subtransactions, rolled back; its streamed changes are to be discarded."},
	FieldStreamAbortType:   {Name: "Type", Of: "Stream Abort", Format: FormatByte1, Kind: KindType, Since: 14, Proto: 2, Meaning: "Byte1('A'): identifies the message as a stream abort message.", Explain: "{char}: the type byte of a Stream Abort message."},
	FieldStreamAbortXid:    {Name: "Xid", Of: "Stream Abort", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the top-level transaction.", Explain: "{N} the xid of the streamed (top-level) transaction, {v}."},
	FieldStreamAbortSubXid: {Name: "Subtransaction Xid", Of: "Stream Abort", Format: FormatInt32, Kind: KindXid, Since: 14, Proto: 2, Meaning: "Xid of the aborted subtransaction; the same as the top-level Xid when the whole transaction aborts.", Explain: "{N} the xid of the aborted (sub)transaction, {v}{subxid}."},
	FieldStreamAbortLSN:    {Name: "Abort LSN", Of: "Stream Abort", Format: FormatInt64, Kind: KindLSN, Since: 16, Proto: 4, Meaning: "The LSN of the abort. Present only with streaming = parallel (PostgreSQL 16, protocol 4).", Explain: "{N} the abort LSN, {v}: sent only with streaming = parallel (protocol 4, PostgreSQL 16)."},
	FieldStreamAbortTime:   {Name: "Abort timestamp", Of: "Stream Abort", Format: FormatInt64, Kind: KindTime, Since: 16, Proto: 4, Meaning: "Abort timestamp of the transaction. Present only with streaming = parallel (PostgreSQL 16, protocol 4). Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the abort time, {v}: sent only with streaming = parallel (protocol 4, PostgreSQL 16)."},

	FieldBeginPrepare:       {Name: "Begin Prepare", Of: "Begin Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "Begin of a transaction prepared for two-phase commit (two_phase option).", Explain: "{N} a Begin Prepare: a transaction prepared for two-phase commit opens; its changes follow up to Prepare."},
	FieldBeginPrepareType:   {Name: "Type", Of: "Begin Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('b'): identifies the message as the beginning of a prepared transaction.", Explain: "{char}: the type byte of a Begin Prepare message."},
	FieldBeginPrepareLSN:    {Name: "Prepare LSN", Of: "Begin Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare.", Explain: "{N} the prepare LSN, {v}."},
	FieldBeginPrepareEndLSN: {Name: "End LSN", Of: "Begin Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction.", Explain: "{N} the prepared transaction's end LSN, {v}."},
	FieldBeginPrepareTime:   {Name: "Prepare timestamp", Of: "Begin Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the prepare time, {v}."},
	FieldBeginPrepareXid:    {Name: "Xid", Of: "Begin Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},
	FieldBeginPrepareGID:    {Name: "GID", Of: "Begin Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid').", Explain: "{N} the prepared transaction's GID, {v}, with its NUL terminator: the name given in PREPARE TRANSACTION."},

	FieldPrepare:       {Name: "Prepare", Of: "Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "PREPARE TRANSACTION of a transaction decoded since Begin Prepare.", Explain: "{N} a Prepare: the transaction opened by Begin Prepare was prepared (PREPARE TRANSACTION); Commit Prepared or Rollback Prepared decides it later."},
	FieldPrepareType:   {Name: "Type", Of: "Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('P'): identifies the message as a prepared transaction message.", Explain: "{char}: the type byte of a Prepare message."},
	FieldPrepareFlags:  {Name: "Flags", Of: "Prepare", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldPrepareLSN:    {Name: "Prepare LSN", Of: "Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare.", Explain: "{N} the prepare LSN, {v}."},
	FieldPrepareEndLSN: {Name: "End LSN", Of: "Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction.", Explain: "{N} the prepared transaction's end LSN, {v}."},
	FieldPrepareTime:   {Name: "Prepare timestamp", Of: "Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the prepare time, {v}."},
	FieldPrepareXid:    {Name: "Xid", Of: "Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},
	FieldPrepareGID:    {Name: "GID", Of: "Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid').", Explain: "{N} the prepared transaction's GID, {v}, with its NUL terminator."},

	FieldCommitPrepared:       {Name: "Commit Prepared", Of: "Commit Prepared", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "COMMIT PREPARED of a transaction prepared earlier.", Explain: "{N} a Commit Prepared: a transaction prepared earlier was committed (COMMIT PREPARED)."},
	FieldCommitPreparedType:   {Name: "Type", Of: "Commit Prepared", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('K'): identifies the message as the commit of a prepared transaction.", Explain: "{char}: the type byte of a Commit Prepared message (as the first byte of a message; inside Update and Delete 'K' marks an old key)."},
	FieldCommitPreparedFlags:  {Name: "Flags", Of: "Commit Prepared", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldCommitPreparedLSN:    {Name: "Commit LSN", Of: "Commit Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the commit prepared.", Explain: "{N} the LSN of the COMMIT PREPARED, {v}."},
	FieldCommitPreparedEndLSN: {Name: "End LSN", Of: "Commit Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the commit of the prepared transaction.", Explain: "{N} the end LSN of the COMMIT PREPARED, {v}."},
	FieldCommitPreparedTime:   {Name: "Commit timestamp", Of: "Commit Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Commit timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the commit time, {v}."},
	FieldCommitPreparedXid:    {Name: "Xid", Of: "Commit Prepared", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},
	FieldCommitPreparedGID:    {Name: "GID", Of: "Commit Prepared", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid').", Explain: "{N} the prepared transaction's GID, {v}, with its NUL terminator."},

	FieldRollbackPrepared:              {Name: "Rollback Prepared", Of: "Rollback Prepared", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "ROLLBACK PREPARED of a transaction prepared earlier.", Explain: "{N} a Rollback Prepared: a transaction prepared earlier was rolled back (ROLLBACK PREPARED)."},
	FieldRollbackPreparedType:          {Name: "Type", Of: "Rollback Prepared", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('r'): identifies the message as the rollback of a prepared transaction.", Explain: "{char}: the type byte of a Rollback Prepared message (at least 39 bytes long; a Standby status update, which shares the letter, is 34)."},
	FieldRollbackPreparedFlags:         {Name: "Flags", Of: "Rollback Prepared", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldRollbackPreparedPrepareEndLSN: {Name: "Prepare end LSN", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction.", Explain: "{N} the end LSN of the prepared transaction, {v}."},
	FieldRollbackPreparedEndLSN:        {Name: "Rollback end LSN", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the rollback of the prepared transaction.", Explain: "{N} the end LSN of the ROLLBACK PREPARED, {v}."},
	FieldRollbackPreparedPrepareTime:   {Name: "Prepare timestamp", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the time the transaction was prepared, {v}."},
	FieldRollbackPreparedTime:          {Name: "Rollback timestamp", Of: "Rollback Prepared", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Rollback timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the time it was rolled back, {v}."},
	FieldRollbackPreparedXid:           {Name: "Xid", Of: "Rollback Prepared", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},
	FieldRollbackPreparedGID:           {Name: "GID", Of: "Rollback Prepared", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid').", Explain: "{N} the prepared transaction's GID, {v}, with its NUL terminator."},

	FieldStreamPrepare:       {Name: "Stream Prepare", Of: "Stream Prepare", Format: FormatGroup, Kind: KindGroup, Since: 15, Proto: 3, Meaning: "PREPARE TRANSACTION of a streamed transaction (two_phase with streaming).", Explain: "{N} a Stream Prepare: a transaction streamed earlier in blocks was prepared (PREPARE TRANSACTION)."},
	FieldStreamPrepareType:   {Name: "Type", Of: "Stream Prepare", Format: FormatByte1, Kind: KindType, Since: 15, Proto: 3, Meaning: "Byte1('p'): identifies the message as a stream prepared transaction message.", Explain: "{char}: the type byte of a Stream Prepare message."},
	FieldStreamPrepareFlags:  {Name: "Flags", Of: "Stream Prepare", Format: FormatInt8, Kind: KindFlags, Since: 15, Proto: 3, Meaning: "Flags; currently unused, always 0.", Codes: codesZeroFlags, Explain: "{N} the flags, {v}: {code}."},
	FieldStreamPrepareLSN:    {Name: "Prepare LSN", Of: "Stream Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The LSN of the prepare.", Explain: "{N} the prepare LSN, {v}."},
	FieldStreamPrepareEndLSN: {Name: "End LSN", Of: "Stream Prepare", Format: FormatInt64, Kind: KindLSN, Since: 15, Proto: 3, Meaning: "The end LSN of the prepared transaction.", Explain: "{N} the prepared transaction's end LSN, {v}."},
	FieldStreamPrepareTime:   {Name: "Prepare timestamp", Of: "Stream Prepare", Format: FormatInt64, Kind: KindTime, Since: 15, Proto: 3, Meaning: "Prepare timestamp of the transaction. Microseconds since 2000-01-01 00:00:00 UTC.", Explain: "{N} the prepare time, {v}."},
	FieldStreamPrepareXid:    {Name: "Xid", Of: "Stream Prepare", Format: FormatInt32, Kind: KindXid, Since: 15, Proto: 3, Meaning: "Xid of the transaction.", Explain: "{N} the transaction's xid, {v}."},
	FieldStreamPrepareGID:    {Name: "GID", Of: "Stream Prepare", Format: FormatString, Kind: KindString, Since: 15, Proto: 3, Meaning: "The user-defined global identifier of the prepared transaction (PREPARE TRANSACTION 'gid').", Explain: "{N} the prepared transaction's GID, {v}, with its NUL terminator."},

	FieldTupleNew:         {Name: "New tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the new row, one entry per published column.", Explain: "{N} the new row: a TupleData with one entry per column of {relname}."},
	FieldTupleKey:         {Name: "Old key", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the old values of the replica identity key. Full width: one entry per published column, non-key columns sent as n (null).", Explain: "{N} the old key: a TupleData with the old values of the replica identity key columns; the other columns are sent as 'n'."},
	FieldTupleOld:         {Name: "Old tuple", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "TupleData: the whole old row (REPLICA IDENTITY FULL).", Explain: "{N} the whole old row (REPLICA IDENTITY FULL): a TupleData with one entry per column."},
	FieldTupleColumnCount: {Name: "Column count", Of: "TupleData", Format: FormatInt16, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Number of columns; the same count and order as the Relation message's columns.", Explain: "{N} the number of columns, {v}{colcount}."},
	FieldTupleColumn:      {Name: "Column", Of: "TupleData", Format: FormatGroup, Kind: KindGroup, Since: 10, Proto: 1, Meaning: "One column's data, in the order of the Relation message's columns.", Explain: "{N} {col}."},
	FieldColumnKind:       {Name: "Kind", Of: "TupleData column", Format: FormatByte1, Kind: KindMarker, Since: 10, Proto: 1, Meaning: "How the column's data is sent: n null, u unchanged TOAST value (not sent), t text, b binary (PostgreSQL 14).", Codes: codesColumn, Explain: "{char} for {col}: {code}."},
	FieldColumnLength:     {Name: "Length", Of: "TupleData column", Format: FormatInt32, Kind: KindLength, Since: 10, Proto: 1, Meaning: "Length of the column value in bytes.", Explain: "{N} the length of {col}'s value: {nfollow}."},
	FieldColumnValue:      {Name: "Value", Of: "TupleData column", Format: FormatBytes, Kind: KindValue, Since: 10, Proto: 1, Meaning: "The value of the column, in the format given by the kind byte. Text values are in the connection's client_encoding and have no NUL terminator.", Explain: "{N} the value of {col} in {format} format: {v}."},
}
