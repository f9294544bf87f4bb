package decoder

// The fields of the frontend/backend protocol's messages (protocol 3.0 and 3.2), the
// conversation a replication connection holds around its CopyData: the startup, the
// authentication, replication commands as queries and their results, the COPY that starts the
// stream or a table's copy, errors and notices. Names follow PostgreSQL's documentation
// ("Message Formats"); CopyData keeps its fields of the replication envelopes (fieldtable.go).

// Fields of the frontend/backend protocol, in wire order within each message.
const (
	// The length every typed message has after its type byte.
	FieldWireLength FieldID = wireFieldsStart + iota

	// Untyped messages a client sends before or instead of its StartupMessage.
	FieldUntypedLength
	FieldStartupMessage
	FieldStartupVersion
	FieldStartupParameter
	FieldStartupName
	FieldStartupValue
	FieldStartupEnd
	FieldSSLRequest
	FieldSSLRequestCode
	FieldGSSENCRequest
	FieldGSSENCRequestCode
	FieldCancelRequest
	FieldCancelRequestCode
	FieldCancelPID
	FieldCancelKey
	// The server's one-byte answer to an SSLRequest or a GSSENCRequest.
	FieldSSLResponse
	FieldSSLResponseCode
	FieldGSSENCResponse
	FieldGSSENCResponseCode

	// Authentication requests from the server, one group per code.
	FieldAuthentication
	FieldAuthOk
	FieldAuthKerberosV5
	FieldAuthCleartext
	FieldAuthMD5
	FieldAuthGSS
	FieldAuthGSSContinue
	FieldAuthSSPI
	FieldAuthSASL
	FieldAuthSASLContinue
	FieldAuthSASLFinal
	FieldAuthType
	FieldAuthCode
	FieldAuthSalt
	FieldAuthMechanism
	FieldAuthMechanismsEnd
	FieldAuthData

	// The client's answers ('p'): what they carry is secret and redacted (Redact).
	FieldPasswordMessage
	FieldSASLInitialResponse
	FieldSASLResponse
	FieldGSSResponse
	FieldPasswordType
	FieldPassword
	FieldSASLMechanism
	FieldSASLLength
	FieldSASLData

	FieldParameterStatus
	FieldParameterStatusType
	FieldParameterStatusName
	FieldParameterStatusValue

	FieldBackendKeyData
	FieldBackendKeyDataType
	FieldBackendKeyPID
	FieldBackendKeySecret

	FieldNegotiateProtocolVersion
	FieldNegotiateType
	FieldNegotiateMinor
	FieldNegotiateCount
	FieldNegotiateOption

	FieldReadyForQuery
	FieldReadyForQueryType
	FieldReadyForQueryStatus

	FieldQuery
	FieldQueryType
	FieldQueryString
	// A replication command in a Query, read word by word.
	FieldReplCommand
	FieldReplKeyword
	FieldReplWord
	FieldReplSlot
	FieldReplPlugin
	FieldReplLSN
	FieldReplTimeline
	FieldReplName
	FieldReplOptions
	FieldReplOption
	FieldReplOptionName
	FieldReplOptionValue
	FieldReplSyntax
	FieldReplEnd

	FieldRowDescription
	FieldRowDescriptionType
	FieldRowDescriptionCount
	FieldRowDescriptionField
	FieldRowDescriptionName
	FieldRowDescriptionTable
	FieldRowDescriptionColumn
	FieldRowDescriptionTypeOID
	FieldRowDescriptionTypeSize
	FieldRowDescriptionTypeModifier
	FieldRowDescriptionFormat

	FieldDataRow
	FieldDataRowType
	FieldDataRowCount
	FieldDataRowColumn
	FieldDataRowLength
	FieldDataRowValue

	FieldCommandComplete
	FieldCommandCompleteType
	FieldCommandTag

	FieldEmptyQueryResponse
	FieldEmptyQueryResponseType

	FieldErrorResponse
	FieldErrorResponseType
	FieldNoticeResponse
	FieldNoticeResponseType
	// The fields of an ErrorResponse or a NoticeResponse.
	FieldNoticeField
	FieldNoticeFieldCode
	FieldNoticeFieldValue
	FieldNoticeEnd

	FieldNotificationResponse
	FieldNotificationResponseType
	FieldNotificationPID
	FieldNotificationChannel
	FieldNotificationPayload

	FieldCopyInResponse
	FieldCopyInResponseType
	FieldCopyOutResponse
	FieldCopyOutResponseType
	FieldCopyBothResponse
	FieldCopyBothResponseType
	// The fields of the three Copy…Response messages.
	FieldCopyFormat
	FieldCopyColumnCount
	FieldCopyColumnFormat

	FieldCopyDone
	FieldCopyDoneType
	FieldCopyFail
	FieldCopyFailType
	FieldCopyFailMessage

	// The WAL an XLogData of physical replication carries.
	FieldXLogDataWAL

	// The COPY data a CopyData carries after a CopyOutResponse or a CopyInResponse.
	FieldCopyRow
	FieldCopyValue
	FieldCopyDelimiter
	FieldCopyRowEnd
	FieldCopyHeader
	FieldCopySignature
	FieldCopyFlags
	FieldCopyExtensionLength
	FieldCopyExtension
	FieldCopyTuple
	FieldCopyFieldCount
	FieldCopyField
	FieldCopyFieldLength
	FieldCopyFieldValue
	FieldCopyTrailer

	// The extended query protocol.
	FieldParse
	FieldParseType
	FieldParseStatement
	FieldParseQuery
	FieldParseCount
	FieldParseTypeOID
	FieldBind
	FieldBindType
	FieldBindPortal
	FieldBindStatement
	FieldBindFormatCount
	FieldBindFormat
	FieldBindParameterCount
	FieldBindParameter
	FieldBindParameterLength
	FieldBindParameterValue
	FieldBindResultCount
	FieldBindResultFormat
	FieldDescribe
	FieldDescribeType
	FieldDescribeKind
	FieldDescribeName
	FieldExecute
	FieldExecuteType
	FieldExecutePortal
	FieldExecuteMaxRows
	FieldClose
	FieldCloseType
	FieldCloseKind
	FieldCloseName
	FieldSync
	FieldSyncType
	FieldFlush
	FieldFlushType
	FieldParseComplete
	FieldParseCompleteType
	FieldBindComplete
	FieldBindCompleteType
	FieldCloseComplete
	FieldCloseCompleteType
	FieldNoData
	FieldNoDataType
	FieldPortalSuspended
	FieldPortalSuspendedType
	FieldParameterDescription
	FieldParameterDescriptionType
	FieldParameterDescriptionCount
	FieldParameterDescriptionTypeOID

	FieldTerminate
	FieldTerminateType

	FieldFunctionCall
	FieldFunctionCallType
	FieldFunctionOID
	FieldFunctionArgFormatCount
	FieldFunctionArgFormat
	FieldFunctionArgCount
	FieldFunctionArg
	FieldFunctionArgLength
	FieldFunctionArgValue
	FieldFunctionResultFormat
	FieldFunctionCallResponse
	FieldFunctionCallResponseType
	FieldFunctionResultLength
	FieldFunctionResultValue

	numFields
)

// Values of the frontend/backend protocol's markers and codes.
var (
	codesStartupVersion = []Code{
		{196608, "3.0", "protocol 3.0 (major 3 in the high 16 bits, minor 0 in the low)", 0},
		{196610, "3.2", "protocol 3.2 (PostgreSQL 18): a BackendKeyData's secret key may be longer than 4 bytes", 18},
	}
	codesSSLResponse = []Code{
		{'S', "willing", "the server accepts: the TLS handshake follows, and every later byte is encrypted", 0},
		{'N', "unwilling", "the server refuses SSL: the connection goes on unencrypted (or the client closes it)", 0},
	}
	codesGSSENCResponse = []Code{
		{'G', "willing", "the server accepts: the GSSAPI handshake follows, and every later byte is encrypted", 12},
		{'N', "unwilling", "the server refuses GSSAPI encryption: the connection goes on unencrypted", 0},
	}
	codesAuth = []Code{
		{0, "Ok", "authentication succeeded", 0},
		{2, "KerberosV5", "Kerberos V5 authentication is required (no longer supported by servers)", 0},
		{3, "CleartextPassword", "a clear-text password is required: a PasswordMessage follows", 0},
		{5, "MD5Password", "an MD5-hashed password is required, salted with the 4 bytes that follow", 0},
		{7, "GSS", "GSSAPI authentication is required", 0},
		{8, "GSSContinue", "GSSAPI or SSPI authentication data follow", 0},
		{9, "SSPI", "SSPI authentication is required", 0},
		{10, "SASL", "SASL authentication is required; the mechanisms the server offers follow", 10},
		{11, "SASLContinue", "a SASL challenge follows", 10},
		{12, "SASLFinal", "SASL authentication has completed; the server's final data follow", 10},
	}
	codesTransactionStatus = []Code{
		{'I', "idle", "not in a transaction block", 0},
		{'T', "in transaction", "in a transaction block", 0},
		{'E', "failed", "in a failed transaction block: queries are rejected until it ends", 0},
	}
	codesFormat = []Code{
		{0, "text", "text format", 0},
		{1, "binary", "binary format", 0},
	}
	codesCopyDelimiter = []Code{{'\t', "tab", "the text format's delimiter", 0}}
	codesCopyRowEnd    = []Code{{'\n', "newline", "the end of the row", 0}}
	codesDescribe      = []Code{
		{'S', "statement", "a prepared statement", 0},
		{'P', "portal", "a portal", 0},
	}
	codesNoticeField = []Code{
		{'S', "Severity", "ERROR, FATAL or PANIC (in an error), WARNING, NOTICE, DEBUG, INFO or LOG (in a notice), possibly translated", 0},
		{'V', "Severity (not translated)", "the severity, never translated (PostgreSQL 9.6)", 0},
		{'C', "SQLSTATE", "the SQLSTATE code of the error; never translated", 0},
		{'M', "Message", "the primary human-readable error message", 0},
		{'D', "Detail", "an optional secondary message carrying more detail", 0},
		{'H', "Hint", "an optional suggestion what to do about the problem", 0},
		{'P', "Position", "a cursor position, an index into the original query string (the first character is 1)", 0},
		{'p', "Internal position", "a cursor position into an internally generated command", 0},
		{'q', "Internal query", "the text of an internally generated command that failed", 0},
		{'W', "Where", "the context in which the error occurred: a call stack traceback of PL functions or internal queries", 0},
		{'s', "Schema name", "the schema of the object the error is about", 0},
		{'t', "Table name", "the table of the object the error is about", 0},
		{'c', "Column name", "the column the error is about", 0},
		{'d', "Data type name", "the data type the error is about", 0},
		{'n', "Constraint name", "the constraint the error is about", 0},
		{'F', "File", "the file name of the source-code location where the error was reported", 0},
		{'L', "Line", "the line number of the source-code location where the error was reported", 0},
		{'R', "Routine", "the name of the source-code routine reporting the error", 0},
	}
)

// wireFieldTable holds the descriptions of the frontend/backend protocol's fields, indexed by
// FieldID minus wireFieldsStart. Data only, like fieldTable. The messages have no Explain
// templates: explain mode says their name, value and meaning.
var wireFieldTable = [numFields - wireFieldsStart]FieldInfo{
	FieldWireLength - wireFieldsStart: {Name: "Length", Of: "message", Format: FormatInt32, Kind: KindLength, Meaning: "Length of the message contents in bytes, including this field but not the type byte."},

	FieldUntypedLength - wireFieldsStart:      {Name: "Length", Of: "untyped message", Format: FormatInt32, Kind: KindLength, Meaning: "Length of the message in bytes, including this field; a code follows instead of a type byte."},
	FieldStartupMessage - wireFieldsStart:     {Name: "StartupMessage", Of: "StartupMessage", Format: FormatGroup, Kind: KindGroup, Meaning: "The client's first message: the protocol version and its parameters (user, database, replication …)."},
	FieldStartupVersion - wireFieldsStart:     {Name: "Protocol version", Of: "StartupMessage", Format: FormatInt32, Kind: KindInteger, Codes: codesStartupVersion, Meaning: "The protocol version: major in the high 16 bits (3), minor in the low (0; 2 from PostgreSQL 18)."},
	FieldStartupParameter - wireFieldsStart:   {Name: "Parameter", Of: "StartupMessage", Format: FormatGroup, Kind: KindGroup, Meaning: "A parameter: user, database, replication (database: a logical walsender), options, or any setting."},
	FieldStartupName - wireFieldsStart:        {Name: "Parameter name", Of: "StartupMessage", Format: FormatString, Kind: KindString, Meaning: "The name of a parameter."},
	FieldStartupValue - wireFieldsStart:       {Name: "Parameter value", Of: "StartupMessage", Format: FormatString, Kind: KindString, Meaning: "The value of the parameter before it."},
	FieldStartupEnd - wireFieldsStart:         {Name: "Terminator", Of: "StartupMessage", Format: FormatByte1, Kind: KindInteger, Meaning: "A zero byte: the end of the parameter list."},
	FieldSSLRequest - wireFieldsStart:         {Name: "SSLRequest", Of: "SSLRequest", Format: FormatGroup, Kind: KindGroup, Meaning: "The client asks to encrypt with SSL (TLS) before its StartupMessage; the server answers S or N."},
	FieldSSLRequestCode - wireFieldsStart:     {Name: "Request code", Of: "SSLRequest", Format: FormatInt32, Kind: KindInteger, Meaning: "The SSL request code, 80877103 (1234 and 5679)."},
	FieldGSSENCRequest - wireFieldsStart:      {Name: "GSSENCRequest", Of: "GSSENCRequest", Format: FormatGroup, Kind: KindGroup, Since: 12, Meaning: "The client asks to encrypt with GSSAPI before its StartupMessage; the server answers G or N."},
	FieldGSSENCRequestCode - wireFieldsStart:  {Name: "Request code", Of: "GSSENCRequest", Format: FormatInt32, Kind: KindInteger, Since: 12, Meaning: "The GSSAPI encryption request code, 80877104 (1234 and 5680)."},
	FieldCancelRequest - wireFieldsStart:      {Name: "CancelRequest", Of: "CancelRequest", Format: FormatGroup, Kind: KindGroup, Meaning: "Cancels the query of another connection, named by its BackendKeyData; the server closes this one."},
	FieldCancelRequestCode - wireFieldsStart:  {Name: "Request code", Of: "CancelRequest", Format: FormatInt32, Kind: KindInteger, Meaning: "The cancel request code, 80877102 (1234 in the most significant 16 bits and 5678 in the least)."},
	FieldCancelPID - wireFieldsStart:          {Name: "Process ID", Of: "CancelRequest", Format: FormatInt32, Kind: KindInteger, Meaning: "The process ID of the backend whose query is to be cancelled."},
	FieldCancelKey - wireFieldsStart:          {Name: "Secret key", Of: "CancelRequest", Format: FormatBytes, Kind: KindValue, Meaning: "That backend's secret key: 4 bytes in protocol 3.0, up to 256 in 3.2."},
	FieldSSLResponse - wireFieldsStart:        {Name: "SSLResponse", Of: "SSLResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "The server's one-byte answer to an SSLRequest: no type byte and no length."},
	FieldSSLResponseCode - wireFieldsStart:    {Name: "Answer", Of: "SSLResponse", Format: FormatByte1, Kind: KindMarker, Codes: codesSSLResponse, Meaning: "S: the server will encrypt with SSL; N: it will not."},
	FieldGSSENCResponse - wireFieldsStart:     {Name: "GSSENCResponse", Of: "GSSENCResponse", Format: FormatGroup, Kind: KindGroup, Since: 12, Meaning: "The server's one-byte answer to a GSSENCRequest: no type byte and no length."},
	FieldGSSENCResponseCode - wireFieldsStart: {Name: "Answer", Of: "GSSENCResponse", Format: FormatByte1, Kind: KindMarker, Since: 12, Codes: codesGSSENCResponse, Meaning: "G: the server will encrypt with GSSAPI; N: it will not."},

	FieldAuthentication - wireFieldsStart:    {Name: "Authentication request", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "An authentication request with a code this decoder does not know."},
	FieldAuthOk - wireFieldsStart:            {Name: "AuthenticationOk", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "Authentication succeeded; ParameterStatus, BackendKeyData and ReadyForQuery follow."},
	FieldAuthKerberosV5 - wireFieldsStart:    {Name: "AuthenticationKerberosV5", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "Kerberos V5 authentication is required (servers no longer support it)."},
	FieldAuthCleartext - wireFieldsStart:     {Name: "AuthenticationCleartextPassword", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "The server asks for the password in clear text: a PasswordMessage answers."},
	FieldAuthMD5 - wireFieldsStart:           {Name: "AuthenticationMD5Password", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "The server asks for the password hashed with MD5 and the salt that follows."},
	FieldAuthGSS - wireFieldsStart:           {Name: "AuthenticationGSS", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "The server asks for GSSAPI authentication."},
	FieldAuthGSSContinue - wireFieldsStart:   {Name: "AuthenticationGSSContinue", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "GSSAPI or SSPI authentication data from the server."},
	FieldAuthSSPI - wireFieldsStart:          {Name: "AuthenticationSSPI", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Meaning: "The server asks for SSPI authentication."},
	FieldAuthSASL - wireFieldsStart:          {Name: "AuthenticationSASL", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Since: 10, Meaning: "The server asks for SASL authentication (scram-sha-256) and lists its mechanisms."},
	FieldAuthSASLContinue - wireFieldsStart:  {Name: "AuthenticationSASLContinue", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Since: 10, Meaning: "A SASL challenge: for SCRAM, the server-first-message (nonce, salt, iterations)."},
	FieldAuthSASLFinal - wireFieldsStart:     {Name: "AuthenticationSASLFinal", Of: "Authentication request", Format: FormatGroup, Kind: KindGroup, Since: 10, Meaning: "SASL authentication completed: for SCRAM, the server's signature."},
	FieldAuthType - wireFieldsStart:          {Name: "Type", Of: "Authentication request", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('R'): identifies the message as an authentication request."},
	FieldAuthCode - wireFieldsStart:          {Name: "Authentication code", Of: "Authentication request", Format: FormatInt32, Kind: KindInteger, Codes: codesAuth, Meaning: "What the server asks for, or that authentication succeeded (0)."},
	FieldAuthSalt - wireFieldsStart:          {Name: "Salt", Of: "Authentication request", Format: FormatBytes, Kind: KindValue, Meaning: "The salt the password is hashed with: \"md5\" + md5(md5(password + user) + salt)."},
	FieldAuthMechanism - wireFieldsStart:     {Name: "SASL mechanism", Of: "Authentication request", Format: FormatString, Kind: KindString, Meaning: "A SASL mechanism the server offers: SCRAM-SHA-256, SCRAM-SHA-256-PLUS, OAUTHBEARER (18)."},
	FieldAuthMechanismsEnd - wireFieldsStart: {Name: "Terminator", Of: "Authentication request", Format: FormatByte1, Kind: KindInteger, Meaning: "A zero byte: the end of the list of mechanisms."},
	FieldAuthData - wireFieldsStart:          {Name: "Data", Of: "Authentication request", Format: FormatBytes, Kind: KindValue, Meaning: "Mechanism data: for SCRAM r=nonce,s=salt,i=iterations or v=signature; a GSSAPI or SSPI token."},

	FieldPasswordMessage - wireFieldsStart:     {Name: "PasswordMessage", Of: "PasswordMessage", Format: FormatGroup, Kind: KindGroup, Meaning: "The client's password, clear or MD5-hashed; its bytes are replaced by '*' as a capture is read."},
	FieldSASLInitialResponse - wireFieldsStart: {Name: "SASLInitialResponse", Of: "SASLInitialResponse", Format: FormatGroup, Kind: KindGroup, Since: 10, Meaning: "The client's SASL mechanism and first message; its data are replaced by '*' as a capture is read."},
	FieldSASLResponse - wireFieldsStart:        {Name: "SASLResponse", Of: "SASLResponse", Format: FormatGroup, Kind: KindGroup, Since: 10, Meaning: "The client's answer to a SASL challenge (SCRAM's proof); replaced by '*' as a capture is read."},
	FieldGSSResponse - wireFieldsStart:         {Name: "GSSResponse", Of: "GSSResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "A GSSAPI or SSPI token from the client. Its data are replaced by '*' when a capture is read."},
	FieldPasswordType - wireFieldsStart:        {Name: "Type", Of: "PasswordMessage", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('p'): a password, SASL or GSSAPI response, as the server's last request says."},
	FieldPassword - wireFieldsStart:            {Name: "Password", Of: "PasswordMessage", Format: FormatString, Kind: KindValue, Meaning: "The password or \"md5\" and the hash; replaced by '*' as the capture was read."},
	FieldSASLMechanism - wireFieldsStart:       {Name: "Mechanism", Of: "PasswordMessage", Format: FormatString, Kind: KindString, Since: 10, Meaning: "The SASL mechanism the client chose among those the server offered."},
	FieldSASLLength - wireFieldsStart:          {Name: "Length of data", Of: "PasswordMessage", Format: FormatInt32, Kind: KindLength, Since: 10, Meaning: "The length of the mechanism's initial response that follows, or -1 if there is none."},
	FieldSASLData - wireFieldsStart:            {Name: "Data", Of: "PasswordMessage", Format: FormatBytes, Kind: KindValue, Meaning: "Mechanism data (SCRAM's client messages, with the proof); replaced by '*' as the capture was read."},

	FieldParameterStatus - wireFieldsStart:      {Name: "ParameterStatus", Of: "ParameterStatus", Format: FormatGroup, Kind: KindGroup, Meaning: "The current value of a run-time parameter (server_version, client_encoding, TimeZone …)."},
	FieldParameterStatusType - wireFieldsStart:  {Name: "Type", Of: "ParameterStatus", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('S'): identifies the message as a run-time parameter status report."},
	FieldParameterStatusName - wireFieldsStart:  {Name: "Parameter name", Of: "ParameterStatus", Format: FormatString, Kind: KindString, Meaning: "The name of the run-time parameter being reported."},
	FieldParameterStatusValue - wireFieldsStart: {Name: "Parameter value", Of: "ParameterStatus", Format: FormatString, Kind: KindString, Meaning: "The current value of the parameter."},

	FieldBackendKeyData - wireFieldsStart:     {Name: "BackendKeyData", Of: "BackendKeyData", Format: FormatGroup, Kind: KindGroup, Meaning: "The key a client needs to cancel a query on this connection (CancelRequest on a new connection)."},
	FieldBackendKeyDataType - wireFieldsStart: {Name: "Type", Of: "BackendKeyData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('K'): identifies the message as cancellation key data."},
	FieldBackendKeyPID - wireFieldsStart:      {Name: "Process ID", Of: "BackendKeyData", Format: FormatInt32, Kind: KindInteger, Meaning: "The process ID of this backend (pg_stat_activity.pid, pg_stat_replication.pid for a walsender)."},
	FieldBackendKeySecret - wireFieldsStart:   {Name: "Secret key", Of: "BackendKeyData", Format: FormatBytes, Kind: KindValue, Meaning: "The secret key of this backend: 4 bytes in protocol 3.0, up to 256 in protocol 3.2 (PostgreSQL 18)."},

	FieldNegotiateProtocolVersion - wireFieldsStart: {Name: "NegotiateProtocolVersion", Of: "NegotiateProtocolVersion", Format: FormatGroup, Kind: KindGroup, Meaning: "The server lacks the minor version or the _pq_ options the client asked for: its newest, and those unknown."},
	FieldNegotiateType - wireFieldsStart:            {Name: "Type", Of: "NegotiateProtocolVersion", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('v'): identifies the message as a protocol version negotiation."},
	FieldNegotiateMinor - wireFieldsStart:           {Name: "Newest minor version", Of: "NegotiateProtocolVersion", Format: FormatInt32, Kind: KindInteger, Meaning: "The newest minor protocol version the server supports for the major version the client asked for."},
	FieldNegotiateCount - wireFieldsStart:           {Name: "Option count", Of: "NegotiateProtocolVersion", Format: FormatInt32, Kind: KindLength, Meaning: "The number of protocol options the server did not recognize."},
	FieldNegotiateOption - wireFieldsStart:          {Name: "Option name", Of: "NegotiateProtocolVersion", Format: FormatString, Kind: KindString, Meaning: "A protocol option of the StartupMessage the server did not recognize."},

	FieldReadyForQuery - wireFieldsStart:       {Name: "ReadyForQuery", Of: "ReadyForQuery", Format: FormatGroup, Kind: KindGroup, Meaning: "The server is ready for a new query cycle: sent after the startup and after every query's results."},
	FieldReadyForQueryType - wireFieldsStart:   {Name: "Type", Of: "ReadyForQuery", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('Z'): identifies the message as ready for a new query cycle."},
	FieldReadyForQueryStatus - wireFieldsStart: {Name: "Transaction status", Of: "ReadyForQuery", Format: FormatByte1, Kind: KindMarker, Codes: codesTransactionStatus, Meaning: "The transaction status: I idle, T in a transaction block, E in a failed one."},

	FieldQuery - wireFieldsStart:           {Name: "Query", Of: "Query", Format: FormatGroup, Kind: KindGroup, Meaning: "A simple query: SQL, or on a walsender connection a replication command."},
	FieldQueryType - wireFieldsStart:       {Name: "Type", Of: "Query", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('Q'): identifies the message as a simple query."},
	FieldQueryString - wireFieldsStart:     {Name: "Query string", Of: "Query", Format: FormatString, Kind: KindString, Meaning: "The query string itself."},
	FieldReplCommand - wireFieldsStart:     {Name: "Replication command", Of: "Query", Format: FormatGroup, Kind: KindGroup, Meaning: "The query string, a replication command (a walsender connection's), read word by word."},
	FieldReplKeyword - wireFieldsStart:     {Name: "Command", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The replication command: IDENTIFY_SYSTEM, CREATE_REPLICATION_SLOT, START_REPLICATION, SHOW …"},
	FieldReplWord - wireFieldsStart:        {Name: "Keyword", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "A keyword of the command: SLOT, LOGICAL, PHYSICAL, TEMPORARY, TIMELINE, an older option …"},
	FieldReplSlot - wireFieldsStart:        {Name: "Slot name", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The name of the replication slot the command creates, uses or drops."},
	FieldReplPlugin - wireFieldsStart:      {Name: "Output plugin", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The logical decoding output plugin the slot uses: pgoutput for logical replication."},
	FieldReplLSN - wireFieldsStart:         {Name: "Start LSN", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "Where to start, X/X; a logical slot starts at its confirmed_flush_lsn when that is later."},
	FieldReplTimeline - wireFieldsStart:    {Name: "Timeline", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "A timeline ID."},
	FieldReplName - wireFieldsStart:        {Name: "Name", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The name of the run-time parameter SHOW reports, or of the slot READ_REPLICATION_SLOT reads."},
	FieldReplOptions - wireFieldsStart:     {Name: "Options", Of: "Query", Format: FormatGroup, Kind: KindGroup, Meaning: "The options in parentheses: for START_REPLICATION … LOGICAL, the output plugin's (pgoutput's)."},
	FieldReplOption - wireFieldsStart:      {Name: "Option", Of: "Query", Format: FormatGroup, Kind: KindGroup, Meaning: "One option: a name and, usually, a value."},
	FieldReplOptionName - wireFieldsStart:  {Name: "Option name", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The option's name."},
	FieldReplOptionValue - wireFieldsStart: {Name: "Option value", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "The option's value, a quoted string, a number or a word."},
	FieldReplSyntax - wireFieldsStart:      {Name: "Syntax", Of: "Query", Format: FormatBytes, Kind: KindString, Meaning: "Punctuation of the command: a parenthesis or a comma between options."},
	FieldReplEnd - wireFieldsStart:         {Name: "Terminator", Of: "Query", Format: FormatByte1, Kind: KindInteger, Meaning: "A zero byte: the end of the query string."},

	FieldRowDescription - wireFieldsStart:             {Name: "RowDescription", Of: "RowDescription", Format: FormatGroup, Kind: KindGroup, Meaning: "The columns of the rows a query returns, sent before its DataRow messages."},
	FieldRowDescriptionType - wireFieldsStart:         {Name: "Type", Of: "RowDescription", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('T'): identifies the message as a row description."},
	FieldRowDescriptionCount - wireFieldsStart:        {Name: "Field count", Of: "RowDescription", Format: FormatInt16, Kind: KindLength, Meaning: "The number of fields in a row (can be zero)."},
	FieldRowDescriptionField - wireFieldsStart:        {Name: "Field", Of: "RowDescription", Format: FormatGroup, Kind: KindGroup, Meaning: "One column of the result."},
	FieldRowDescriptionName - wireFieldsStart:         {Name: "Field name", Of: "RowDescription", Format: FormatString, Kind: KindString, Meaning: "The column's name."},
	FieldRowDescriptionTable - wireFieldsStart:        {Name: "Table OID", Of: "RowDescription", Format: FormatInt32, Kind: KindOID, Meaning: "If the column is a column of a table, the table's OID; otherwise zero."},
	FieldRowDescriptionColumn - wireFieldsStart:       {Name: "Column attribute number", Of: "RowDescription", Format: FormatInt16, Kind: KindInteger, Meaning: "If the column is a column of a table, its attribute number (pg_attribute.attnum); otherwise zero."},
	FieldRowDescriptionTypeOID - wireFieldsStart:      {Name: "Type OID", Of: "RowDescription", Format: FormatInt32, Kind: KindOID, Meaning: "The OID of the column's data type."},
	FieldRowDescriptionTypeSize - wireFieldsStart:     {Name: "Type size", Of: "RowDescription", Format: FormatInt16, Kind: KindInteger, Meaning: "The data type's size (pg_type.typlen); negative values denote variable-width types."},
	FieldRowDescriptionTypeModifier - wireFieldsStart: {Name: "Type modifier", Of: "RowDescription", Format: FormatInt32, Kind: KindInteger, Meaning: "The type modifier (pg_attribute.atttypmod); its meaning is type-specific, -1 for none."},
	FieldRowDescriptionFormat - wireFieldsStart:       {Name: "Format code", Of: "RowDescription", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "The format of the column's values: 0 text, 1 binary."},

	FieldDataRow - wireFieldsStart:       {Name: "DataRow", Of: "DataRow", Format: FormatGroup, Kind: KindGroup, Meaning: "One row of a query's result; the RowDescription before it names its columns."},
	FieldDataRowType - wireFieldsStart:   {Name: "Type", Of: "DataRow", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('D'): identifies the message as a data row."},
	FieldDataRowCount - wireFieldsStart:  {Name: "Column count", Of: "DataRow", Format: FormatInt16, Kind: KindLength, Meaning: "The number of column values that follow (possibly zero)."},
	FieldDataRowColumn - wireFieldsStart: {Name: "Column", Of: "DataRow", Format: FormatGroup, Kind: KindGroup, Meaning: "One column value: its length, then its bytes."},
	FieldDataRowLength - wireFieldsStart: {Name: "Length", Of: "DataRow", Format: FormatInt32, Kind: KindLength, Meaning: "The value's length in bytes; -1 is NULL, and no bytes follow."},
	FieldDataRowValue - wireFieldsStart:  {Name: "Value", Of: "DataRow", Format: FormatBytes, Kind: KindString, Meaning: "The column's value, in the format its RowDescription names."},

	FieldCommandComplete - wireFieldsStart:     {Name: "CommandComplete", Of: "CommandComplete", Format: FormatGroup, Kind: KindGroup, Meaning: "A command finished."},
	FieldCommandCompleteType - wireFieldsStart: {Name: "Type", Of: "CommandComplete", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('C'): identifies the message as a command-completed response."},
	FieldCommandTag - wireFieldsStart:          {Name: "Command tag", Of: "CommandComplete", Format: FormatString, Kind: KindString, Meaning: "Which command finished (START_REPLICATION when a stream ends; COPY 3 after a copy)."},

	FieldEmptyQueryResponse - wireFieldsStart:     {Name: "EmptyQueryResponse", Of: "EmptyQueryResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "The answer to an empty query string, in place of CommandComplete."},
	FieldEmptyQueryResponseType - wireFieldsStart: {Name: "Type", Of: "EmptyQueryResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('I'): identifies the message as a response to an empty query string."},

	FieldErrorResponse - wireFieldsStart:      {Name: "ErrorResponse", Of: "ErrorResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "An error: the command (or, FATAL, the connection) ended. Each field starts with a byte naming it."},
	FieldErrorResponseType - wireFieldsStart:  {Name: "Type", Of: "ErrorResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('E'): identifies the message as an error."},
	FieldNoticeResponse - wireFieldsStart:     {Name: "NoticeResponse", Of: "NoticeResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "A notice or warning; the command goes on. Its fields are those of an ErrorResponse."},
	FieldNoticeResponseType - wireFieldsStart: {Name: "Type", Of: "NoticeResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('N'): identifies the message as a notice."},
	FieldNoticeField - wireFieldsStart:        {Name: "Field", Of: "ErrorResponse and NoticeResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "One field of the error or notice: a byte saying which, then its value."},
	FieldNoticeFieldCode - wireFieldsStart:    {Name: "Field type", Of: "ErrorResponse and NoticeResponse", Format: FormatByte1, Kind: KindMarker, Codes: codesNoticeField, Meaning: "Which field this is. Clients ignore types they do not know."},
	FieldNoticeFieldValue - wireFieldsStart:   {Name: "Value", Of: "ErrorResponse and NoticeResponse", Format: FormatString, Kind: KindString, Meaning: "The field's value."},
	FieldNoticeEnd - wireFieldsStart:          {Name: "Terminator", Of: "ErrorResponse and NoticeResponse", Format: FormatByte1, Kind: KindInteger, Meaning: "A zero byte: the end of the fields."},

	FieldNotificationResponse - wireFieldsStart:     {Name: "NotificationResponse", Of: "NotificationResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "A NOTIFY on a channel this session LISTENs on."},
	FieldNotificationResponseType - wireFieldsStart: {Name: "Type", Of: "NotificationResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('A'): identifies the message as a notification response."},
	FieldNotificationPID - wireFieldsStart:          {Name: "Process ID", Of: "NotificationResponse", Format: FormatInt32, Kind: KindInteger, Meaning: "The process ID of the notifying backend."},
	FieldNotificationChannel - wireFieldsStart:      {Name: "Channel", Of: "NotificationResponse", Format: FormatString, Kind: KindString, Meaning: "The name of the channel the notify was raised on."},
	FieldNotificationPayload - wireFieldsStart:      {Name: "Payload", Of: "NotificationResponse", Format: FormatString, Kind: KindString, Meaning: "The payload string passed from the notifying process."},

	FieldCopyInResponse - wireFieldsStart:       {Name: "CopyInResponse", Of: "CopyInResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "The server is ready for COPY … FROM STDIN data: CopyData, then CopyDone or CopyFail."},
	FieldCopyInResponseType - wireFieldsStart:   {Name: "Type", Of: "CopyInResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('G'): identifies the message as a Start Copy In response."},
	FieldCopyOutResponse - wireFieldsStart:      {Name: "CopyOutResponse", Of: "CopyOutResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "COPY … TO STDOUT data follow (a subscriber's table synchronization): CopyData rows, then CopyDone."},
	FieldCopyOutResponseType - wireFieldsStart:  {Name: "Type", Of: "CopyOutResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('H'): identifies the message as a Start Copy Out response."},
	FieldCopyBothResponse - wireFieldsStart:     {Name: "CopyBothResponse", Of: "CopyBothResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "The answer to START_REPLICATION: the stream starts; both sides send CopyData until CopyDone."},
	FieldCopyBothResponseType - wireFieldsStart: {Name: "Type", Of: "CopyBothResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('W'): identifies the message as a Start Copy Both response."},
	FieldCopyFormat - wireFieldsStart:           {Name: "Overall format", Of: "CopyInResponse, CopyOutResponse and CopyBothResponse", Format: FormatInt8, Kind: KindInteger, Codes: codesFormat, Meaning: "0: the COPY data are text; 1: binary. A replication stream is 0."},
	FieldCopyColumnCount - wireFieldsStart:      {Name: "Column count", Of: "CopyInResponse, CopyOutResponse and CopyBothResponse", Format: FormatInt16, Kind: KindLength, Meaning: "The number of columns in the data (0 for a replication stream)."},
	FieldCopyColumnFormat - wireFieldsStart:     {Name: "Column format", Of: "CopyInResponse, CopyOutResponse and CopyBothResponse", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "The format of one column: 0 text, 1 binary. In text COPY every column is 0."},

	FieldCopyDone - wireFieldsStart:        {Name: "CopyDone", Of: "CopyDone", Format: FormatGroup, Kind: KindGroup, Meaning: "The end of this side's COPY data; in replication either side may send it to end the stream."},
	FieldCopyDoneType - wireFieldsStart:    {Name: "Type", Of: "CopyDone", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('c'): identifies the message as a COPY-complete indicator."},
	FieldCopyFail - wireFieldsStart:        {Name: "CopyFail", Of: "CopyFail", Format: FormatGroup, Kind: KindGroup, Meaning: "The client gives up a COPY FROM STDIN: the server answers with an ErrorResponse."},
	FieldCopyFailType - wireFieldsStart:    {Name: "Type", Of: "CopyFail", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('f'): identifies the message as a COPY-failure indicator."},
	FieldCopyFailMessage - wireFieldsStart: {Name: "Error message", Of: "CopyFail", Format: FormatString, Kind: KindString, Meaning: "The reason the COPY failed."},

	FieldXLogDataWAL - wireFieldsStart: {Name: "WAL data", Of: "XLogData", Format: FormatBytes, Kind: KindValue, Meaning: "WAL records from the start LSN on: physical replication streams WAL, not pgoutput messages."},

	FieldCopyRow - wireFieldsStart:             {Name: "COPY row", Of: "COPY data", Format: FormatGroup, Kind: KindGroup, Meaning: "A row of COPY's text format: the columns' values in text, separated by tabs, ending with a newline."},
	FieldCopyValue - wireFieldsStart:           {Name: "Column value", Of: "COPY data", Format: FormatBytes, Kind: KindString, Meaning: "A column's value in COPY's text format: backslash escapes (\\t, \\n, \\\\ …), and \\N for NULL."},
	FieldCopyDelimiter - wireFieldsStart:       {Name: "Delimiter", Of: "COPY data", Format: FormatByte1, Kind: KindMarker, Codes: codesCopyDelimiter, Meaning: "The character between two columns: a tab in the text format unless COPY was told otherwise."},
	FieldCopyRowEnd - wireFieldsStart:          {Name: "End of row", Of: "COPY data", Format: FormatByte1, Kind: KindMarker, Codes: codesCopyRowEnd, Meaning: "A newline: the end of the row."},
	FieldCopyHeader - wireFieldsStart:          {Name: "COPY binary header", Of: "COPY data", Format: FormatGroup, Kind: KindGroup, Meaning: "The header of COPY's binary format, before the first tuple."},
	FieldCopySignature - wireFieldsStart:       {Name: "Signature", Of: "COPY data", Format: FormatBytes, Kind: KindValue, Meaning: "PGCOPY\\n\\377\\r\\n\\0: 11 bytes naming the format."},
	FieldCopyFlags - wireFieldsStart:           {Name: "Flags", Of: "COPY data", Format: FormatInt32, Kind: KindFlags, Meaning: "Flags of the file; bit 16 says the tuples carry OIDs (before PostgreSQL 12). Other bits are 0."},
	FieldCopyExtensionLength - wireFieldsStart: {Name: "Header extension length", Of: "COPY data", Format: FormatInt32, Kind: KindLength, Meaning: "The length of the header extension that follows (0 today)."},
	FieldCopyExtension - wireFieldsStart:       {Name: "Header extension", Of: "COPY data", Format: FormatBytes, Kind: KindValue, Meaning: "Header extension data, for future use."},
	FieldCopyTuple - wireFieldsStart:           {Name: "COPY tuple", Of: "COPY data", Format: FormatGroup, Kind: KindGroup, Meaning: "A row of COPY's binary format: its field count, then each field's length and bytes."},
	FieldCopyFieldCount - wireFieldsStart:      {Name: "Field count", Of: "COPY data", Format: FormatInt16, Kind: KindLength, Meaning: "The number of fields in the tuple."},
	FieldCopyField - wireFieldsStart:           {Name: "Field", Of: "COPY data", Format: FormatGroup, Kind: KindGroup, Meaning: "One field of the tuple: its length, then its bytes."},
	FieldCopyFieldLength - wireFieldsStart:     {Name: "Length", Of: "COPY data", Format: FormatInt32, Kind: KindLength, Meaning: "The length of the field's value in bytes; -1 is NULL, and no bytes follow."},
	FieldCopyFieldValue - wireFieldsStart:      {Name: "Value", Of: "COPY data", Format: FormatBytes, Kind: KindValue, Meaning: "The field's value in its type's binary format (its send function)."},
	FieldCopyTrailer - wireFieldsStart:         {Name: "File trailer", Of: "COPY data", Format: FormatInt16, Kind: KindInteger, Meaning: "-1 in place of a field count: the end of the binary COPY data."},

	FieldParse - wireFieldsStart:                       {Name: "Parse", Of: "Parse", Format: FormatGroup, Kind: KindGroup, Meaning: "Prepares a statement (extended query protocol)."},
	FieldParseType - wireFieldsStart:                   {Name: "Type", Of: "Parse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('P'): identifies the message as a Parse command."},
	FieldParseStatement - wireFieldsStart:              {Name: "Statement name", Of: "Parse", Format: FormatString, Kind: KindString, Meaning: "The name of the prepared statement (an empty string is the unnamed statement)."},
	FieldParseQuery - wireFieldsStart:                  {Name: "Query string", Of: "Parse", Format: FormatString, Kind: KindString, Meaning: "The query string to be parsed."},
	FieldParseCount - wireFieldsStart:                  {Name: "Parameter type count", Of: "Parse", Format: FormatInt16, Kind: KindLength, Meaning: "The number of parameter data types given (which may be fewer than the query's parameters)."},
	FieldParseTypeOID - wireFieldsStart:                {Name: "Parameter type OID", Of: "Parse", Format: FormatInt32, Kind: KindOID, Meaning: "The OID of a parameter's data type; zero leaves it unspecified."},
	FieldBind - wireFieldsStart:                        {Name: "Bind", Of: "Bind", Format: FormatGroup, Kind: KindGroup, Meaning: "Binds parameter values to a prepared statement, making a portal (extended query protocol)."},
	FieldBindType - wireFieldsStart:                    {Name: "Type", Of: "Bind", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('B'): identifies the message as a Bind command."},
	FieldBindPortal - wireFieldsStart:                  {Name: "Portal name", Of: "Bind", Format: FormatString, Kind: KindString, Meaning: "The name of the destination portal (an empty string is the unnamed portal)."},
	FieldBindStatement - wireFieldsStart:               {Name: "Statement name", Of: "Bind", Format: FormatString, Kind: KindString, Meaning: "The name of the source prepared statement (an empty string is the unnamed statement)."},
	FieldBindFormatCount - wireFieldsStart:             {Name: "Parameter format count", Of: "Bind", Format: FormatInt16, Kind: KindLength, Meaning: "The number of parameter format codes: 0 (all text), 1 (for all) or one each."},
	FieldBindFormat - wireFieldsStart:                  {Name: "Parameter format code", Of: "Bind", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "A parameter's format: 0 text, 1 binary."},
	FieldBindParameterCount - wireFieldsStart:          {Name: "Parameter count", Of: "Bind", Format: FormatInt16, Kind: KindLength, Meaning: "The number of parameter values that follow."},
	FieldBindParameter - wireFieldsStart:               {Name: "Parameter", Of: "Bind", Format: FormatGroup, Kind: KindGroup, Meaning: "One parameter value: its length, then its bytes."},
	FieldBindParameterLength - wireFieldsStart:         {Name: "Length", Of: "Bind", Format: FormatInt32, Kind: KindLength, Meaning: "The length of the parameter value in bytes; -1 is NULL, and no bytes follow."},
	FieldBindParameterValue - wireFieldsStart:          {Name: "Value", Of: "Bind", Format: FormatBytes, Kind: KindString, Meaning: "The value of the parameter, in its format."},
	FieldBindResultCount - wireFieldsStart:             {Name: "Result format count", Of: "Bind", Format: FormatInt16, Kind: KindLength, Meaning: "The number of result format codes: 0 (all text), 1 (for all) or one each."},
	FieldBindResultFormat - wireFieldsStart:            {Name: "Result format code", Of: "Bind", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "A result column's format: 0 text, 1 binary."},
	FieldDescribe - wireFieldsStart:                    {Name: "Describe", Of: "Describe", Format: FormatGroup, Kind: KindGroup, Meaning: "Asks for a description of a prepared statement or a portal (extended query protocol)."},
	FieldDescribeType - wireFieldsStart:                {Name: "Type", Of: "Describe", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('D'): identifies the message as a Describe command."},
	FieldDescribeKind - wireFieldsStart:                {Name: "Kind", Of: "Describe", Format: FormatByte1, Kind: KindMarker, Codes: codesDescribe, Meaning: "S to describe a prepared statement, P a portal."},
	FieldDescribeName - wireFieldsStart:                {Name: "Name", Of: "Describe", Format: FormatString, Kind: KindString, Meaning: "The name of the statement or portal (an empty string is the unnamed one)."},
	FieldExecute - wireFieldsStart:                     {Name: "Execute", Of: "Execute", Format: FormatGroup, Kind: KindGroup, Meaning: "Runs a portal (extended query protocol)."},
	FieldExecuteType - wireFieldsStart:                 {Name: "Type", Of: "Execute", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('E'): identifies the message as an Execute command."},
	FieldExecutePortal - wireFieldsStart:               {Name: "Portal name", Of: "Execute", Format: FormatString, Kind: KindString, Meaning: "The name of the portal to execute (an empty string is the unnamed portal)."},
	FieldExecuteMaxRows - wireFieldsStart:              {Name: "Maximum rows", Of: "Execute", Format: FormatInt32, Kind: KindInteger, Meaning: "The most rows to return; zero means no limit."},
	FieldClose - wireFieldsStart:                       {Name: "Close", Of: "Close", Format: FormatGroup, Kind: KindGroup, Meaning: "Closes a prepared statement or a portal (extended query protocol)."},
	FieldCloseType - wireFieldsStart:                   {Name: "Type", Of: "Close", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('C'): identifies the message as a Close command."},
	FieldCloseKind - wireFieldsStart:                   {Name: "Kind", Of: "Close", Format: FormatByte1, Kind: KindMarker, Codes: codesDescribe, Meaning: "S to close a prepared statement, P a portal."},
	FieldCloseName - wireFieldsStart:                   {Name: "Name", Of: "Close", Format: FormatString, Kind: KindString, Meaning: "The name of the statement or portal (an empty string is the unnamed one)."},
	FieldSync - wireFieldsStart:                        {Name: "Sync", Of: "Sync", Format: FormatGroup, Kind: KindGroup, Meaning: "Ends an extended-query cycle: commit or rollback, then ReadyForQuery."},
	FieldSyncType - wireFieldsStart:                    {Name: "Type", Of: "Sync", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('S'): identifies the message as a Sync command."},
	FieldFlush - wireFieldsStart:                       {Name: "Flush", Of: "Flush", Format: FormatGroup, Kind: KindGroup, Meaning: "Asks the server to send the output it holds, without ending the cycle."},
	FieldFlushType - wireFieldsStart:                   {Name: "Type", Of: "Flush", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('H'): identifies the message as a Flush command."},
	FieldParseComplete - wireFieldsStart:               {Name: "ParseComplete", Of: "ParseComplete", Format: FormatGroup, Kind: KindGroup, Meaning: "A Parse succeeded."},
	FieldParseCompleteType - wireFieldsStart:           {Name: "Type", Of: "ParseComplete", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('1'): identifies the message as a Parse-complete indicator."},
	FieldBindComplete - wireFieldsStart:                {Name: "BindComplete", Of: "BindComplete", Format: FormatGroup, Kind: KindGroup, Meaning: "A Bind succeeded."},
	FieldBindCompleteType - wireFieldsStart:            {Name: "Type", Of: "BindComplete", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('2'): identifies the message as a Bind-complete indicator."},
	FieldCloseComplete - wireFieldsStart:               {Name: "CloseComplete", Of: "CloseComplete", Format: FormatGroup, Kind: KindGroup, Meaning: "A Close succeeded."},
	FieldCloseCompleteType - wireFieldsStart:           {Name: "Type", Of: "CloseComplete", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('3'): identifies the message as a Close-complete indicator."},
	FieldNoData - wireFieldsStart:                      {Name: "NoData", Of: "NoData", Format: FormatGroup, Kind: KindGroup, Meaning: "The statement or portal described returns no rows."},
	FieldNoDataType - wireFieldsStart:                  {Name: "Type", Of: "NoData", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('n'): identifies the message as a no-data indicator."},
	FieldPortalSuspended - wireFieldsStart:             {Name: "PortalSuspended", Of: "PortalSuspended", Format: FormatGroup, Kind: KindGroup, Meaning: "An Execute stopped at its row limit; the portal can be executed again for more."},
	FieldPortalSuspendedType - wireFieldsStart:         {Name: "Type", Of: "PortalSuspended", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('s'): identifies the message as a portal-suspended indicator."},
	FieldParameterDescription - wireFieldsStart:        {Name: "ParameterDescription", Of: "ParameterDescription", Format: FormatGroup, Kind: KindGroup, Meaning: "The parameters a prepared statement needs, in answer to Describe."},
	FieldParameterDescriptionType - wireFieldsStart:    {Name: "Type", Of: "ParameterDescription", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('t'): identifies the message as a parameter description."},
	FieldParameterDescriptionCount - wireFieldsStart:   {Name: "Parameter count", Of: "ParameterDescription", Format: FormatInt16, Kind: KindLength, Meaning: "The number of parameters the statement uses (can be zero)."},
	FieldParameterDescriptionTypeOID - wireFieldsStart: {Name: "Parameter type OID", Of: "ParameterDescription", Format: FormatInt32, Kind: KindOID, Meaning: "The OID of a parameter's data type."},

	FieldTerminate - wireFieldsStart:     {Name: "Terminate", Of: "Terminate", Format: FormatGroup, Kind: KindGroup, Meaning: "The client closes the connection."},
	FieldTerminateType - wireFieldsStart: {Name: "Type", Of: "Terminate", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('X'): identifies the message as a termination."},

	FieldFunctionCall - wireFieldsStart:             {Name: "FunctionCall", Of: "FunctionCall", Format: FormatGroup, Kind: KindGroup, Meaning: "Calls a function by its OID (the fast-path interface; large objects use it)."},
	FieldFunctionCallType - wireFieldsStart:         {Name: "Type", Of: "FunctionCall", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('F'): identifies the message as a function call."},
	FieldFunctionOID - wireFieldsStart:              {Name: "Function OID", Of: "FunctionCall", Format: FormatInt32, Kind: KindOID, Meaning: "The OID of the function to call."},
	FieldFunctionArgFormatCount - wireFieldsStart:   {Name: "Argument format count", Of: "FunctionCall", Format: FormatInt16, Kind: KindLength, Meaning: "The number of argument format codes that follow: 0, 1 or one per argument."},
	FieldFunctionArgFormat - wireFieldsStart:        {Name: "Argument format code", Of: "FunctionCall", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "An argument's format: 0 text, 1 binary."},
	FieldFunctionArgCount - wireFieldsStart:         {Name: "Argument count", Of: "FunctionCall", Format: FormatInt16, Kind: KindLength, Meaning: "The number of arguments that follow."},
	FieldFunctionArg - wireFieldsStart:              {Name: "Argument", Of: "FunctionCall", Format: FormatGroup, Kind: KindGroup, Meaning: "One argument: its length, then its bytes."},
	FieldFunctionArgLength - wireFieldsStart:        {Name: "Length", Of: "FunctionCall", Format: FormatInt32, Kind: KindLength, Meaning: "The length of the argument's value in bytes; -1 is NULL, and no bytes follow."},
	FieldFunctionArgValue - wireFieldsStart:         {Name: "Value", Of: "FunctionCall", Format: FormatBytes, Kind: KindValue, Meaning: "The argument's value, in its format."},
	FieldFunctionResultFormat - wireFieldsStart:     {Name: "Result format code", Of: "FunctionCall", Format: FormatInt16, Kind: KindInteger, Codes: codesFormat, Meaning: "The format of the function's result: 0 text, 1 binary."},
	FieldFunctionCallResponse - wireFieldsStart:     {Name: "FunctionCallResponse", Of: "FunctionCallResponse", Format: FormatGroup, Kind: KindGroup, Meaning: "The result of a FunctionCall."},
	FieldFunctionCallResponseType - wireFieldsStart: {Name: "Type", Of: "FunctionCallResponse", Format: FormatByte1, Kind: KindType, Meaning: "Byte1('V'): identifies the message as a function call result."},
	FieldFunctionResultLength - wireFieldsStart:     {Name: "Length", Of: "FunctionCallResponse", Format: FormatInt32, Kind: KindLength, Meaning: "The length of the result in bytes; -1 is NULL, and no bytes follow."},
	FieldFunctionResultValue - wireFieldsStart:      {Name: "Value", Of: "FunctionCallResponse", Format: FormatBytes, Kind: KindValue, Meaning: "The function's result, in the format asked for."},
}
