package decoder

import (
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// The frontend/backend protocol around the replication stream: a Conversation decodes every
// message of one connection, both directions, in the order they were captured, and keeps what
// the conversation said (the startup's parameters, the authentication asked for, the
// replication command and its options, the COPY in progress, the columns of the rows to come),
// so that each message is read as what it is: a CopyData of a replication stream with the
// options its START_REPLICATION asked for, a CopyData of a table's COPY as a row, a DataRow with
// its columns' names.

// Side says which end of a connection sent a message.
type Side uint8

// Sides.
const (
	SideUnknown Side = iota // not known: the bytes alone, as a paste gives them
	Frontend                // the client (frontend) sent it to the server
	Backend                 // the server (backend) sent it to the client
)

// String names the direction: "client → server", "server → client", or "".
func (s Side) String() string {
	switch s {
	case Frontend:
		return "client → server"
	case Backend:
		return "server → client"
	}
	return ""
}

// WireType describes one message type of the frontend/backend protocol.
type WireType struct {
	// Type is the type byte; 0 for the untyped messages (StartupMessage, SSLRequest,
	// GSSENCRequest, CancelRequest, and the server's one-byte answers to the encryption
	// requests).
	Type byte
	// Side is who sends it; SideUnknown: both (CopyData, CopyDone).
	Side Side
	// Group is the field of the whole message (its name is the message's); TypeField the field
	// of its type byte (FieldUnknown for the untyped ones).
	Group, TypeField FieldID
	// Fields is the message's layout after its type byte and length: its fields in order, with
	// the opcodes of cursor.run for what repeats. A message whose layout depends on the
	// conversation has a body function instead.
	Fields []FieldID
	body   func(cv *Conversation, c *cursor)
}

// Name returns the message's name as PostgreSQL's documentation writes it ("RowDescription").
func (w *WireType) Name() string { return w.Group.Info().Name }

// wireTable is every typed message of the frontend/backend protocol, by side. Authentication
// requests ('R') and the client's answers ('p') are one entry each: the code, or the request
// answered, picks the group (authGroups, passwordGroup).
var wireTable = []WireType{
	{Type: 'R', Side: Backend, Group: FieldAuthentication, TypeField: FieldAuthType, body: authBody},
	{Type: 'S', Side: Backend, Group: FieldParameterStatus, TypeField: FieldParameterStatusType, Fields: []FieldID{FieldParameterStatusName, FieldParameterStatusValue}},
	{Type: 'K', Side: Backend, Group: FieldBackendKeyData, TypeField: FieldBackendKeyDataType, Fields: progBackendKey},
	{Type: 'v', Side: Backend, Group: FieldNegotiateProtocolVersion, TypeField: FieldNegotiateType, Fields: progNegotiate},
	{Type: 'Z', Side: Backend, Group: FieldReadyForQuery, TypeField: FieldReadyForQueryType, Fields: []FieldID{FieldReadyForQueryStatus}},
	{Type: 'T', Side: Backend, Group: FieldRowDescription, TypeField: FieldRowDescriptionType, Fields: progRowDesc},
	{Type: 'D', Side: Backend, Group: FieldDataRow, TypeField: FieldDataRowType, Fields: progDataRow},
	{Type: 'C', Side: Backend, Group: FieldCommandComplete, TypeField: FieldCommandCompleteType, Fields: []FieldID{FieldCommandTag}},
	{Type: 'I', Side: Backend, Group: FieldEmptyQueryResponse, TypeField: FieldEmptyQueryResponseType, Fields: []FieldID{}},
	{Type: 'E', Side: Backend, Group: FieldErrorResponse, TypeField: FieldErrorResponseType, Fields: progNotice},
	{Type: 'N', Side: Backend, Group: FieldNoticeResponse, TypeField: FieldNoticeResponseType, Fields: progNotice},
	{Type: 'A', Side: Backend, Group: FieldNotificationResponse, TypeField: FieldNotificationResponseType, Fields: []FieldID{FieldNotificationPID, FieldNotificationChannel, FieldNotificationPayload}},
	{Type: 'G', Side: Backend, Group: FieldCopyInResponse, TypeField: FieldCopyInResponseType, Fields: progCopyResponse},
	{Type: 'H', Side: Backend, Group: FieldCopyOutResponse, TypeField: FieldCopyOutResponseType, Fields: progCopyResponse},
	{Type: 'W', Side: Backend, Group: FieldCopyBothResponse, TypeField: FieldCopyBothResponseType, Fields: progCopyResponse},
	{Type: '1', Side: Backend, Group: FieldParseComplete, TypeField: FieldParseCompleteType, Fields: []FieldID{}},
	{Type: '2', Side: Backend, Group: FieldBindComplete, TypeField: FieldBindCompleteType, Fields: []FieldID{}},
	{Type: '3', Side: Backend, Group: FieldCloseComplete, TypeField: FieldCloseCompleteType, Fields: []FieldID{}},
	{Type: 'n', Side: Backend, Group: FieldNoData, TypeField: FieldNoDataType, Fields: []FieldID{}},
	{Type: 's', Side: Backend, Group: FieldPortalSuspended, TypeField: FieldPortalSuspendedType, Fields: []FieldID{}},
	{Type: 't', Side: Backend, Group: FieldParameterDescription, TypeField: FieldParameterDescriptionType, Fields: progParamDesc},
	{Type: 'V', Side: Backend, Group: FieldFunctionCallResponse, TypeField: FieldFunctionCallResponseType, Fields: progFuncResponse},

	{Type: 'Q', Side: Frontend, Group: FieldQuery, TypeField: FieldQueryType, body: queryBody},
	{Type: 'p', Side: Frontend, Group: FieldPasswordMessage, TypeField: FieldPasswordType, body: passwordBody},
	{Type: 'P', Side: Frontend, Group: FieldParse, TypeField: FieldParseType, Fields: progParse},
	{Type: 'B', Side: Frontend, Group: FieldBind, TypeField: FieldBindType, Fields: progBind},
	{Type: 'D', Side: Frontend, Group: FieldDescribe, TypeField: FieldDescribeType, Fields: []FieldID{FieldDescribeKind, FieldDescribeName}},
	{Type: 'E', Side: Frontend, Group: FieldExecute, TypeField: FieldExecuteType, Fields: []FieldID{FieldExecutePortal, FieldExecuteMaxRows}},
	{Type: 'C', Side: Frontend, Group: FieldClose, TypeField: FieldCloseType, Fields: []FieldID{FieldCloseKind, FieldCloseName}},
	{Type: 'S', Side: Frontend, Group: FieldSync, TypeField: FieldSyncType, Fields: []FieldID{}},
	{Type: 'H', Side: Frontend, Group: FieldFlush, TypeField: FieldFlushType, Fields: []FieldID{}},
	{Type: 'f', Side: Frontend, Group: FieldCopyFail, TypeField: FieldCopyFailType, Fields: []FieldID{FieldCopyFailMessage}},
	{Type: 'X', Side: Frontend, Group: FieldTerminate, TypeField: FieldTerminateType, Fields: []FieldID{}},
	{Type: 'F', Side: Frontend, Group: FieldFunctionCall, TypeField: FieldFunctionCallType, Fields: progFunctionCall},

	{Type: 'd', Group: FieldCopyData, TypeField: FieldCopyDataType, body: copyDataWireBody},
	{Type: 'c', Group: FieldCopyDone, TypeField: FieldCopyDoneType, Fields: []FieldID{}},
}

// untypedTable is the messages without a type byte: what a client sends first (a length, then
// a code that says which), and the server's one-byte answers to the encryption requests.
var untypedTable = []WireType{
	{Side: Frontend, Group: FieldStartupMessage, Fields: progStartup},
	{Side: Frontend, Group: FieldSSLRequest, Fields: []FieldID{FieldSSLRequestCode}},
	{Side: Frontend, Group: FieldGSSENCRequest, Fields: []FieldID{FieldGSSENCRequestCode}},
	{Side: Frontend, Group: FieldCancelRequest, Fields: progCancel},
	{Side: Backend, Group: FieldSSLResponse, Fields: []FieldID{FieldSSLResponseCode}},
	{Side: Backend, Group: FieldGSSENCResponse, Fields: []FieldID{FieldGSSENCResponseCode}},
}

// The request codes of the untyped messages.
const (
	codeCancel     = 80877102
	codeSSL        = 80877103
	codeGSSENC     = 80877104
	codeProtocol30 = 3 << 16
)

// WireMessages returns a copy of the frontend/backend protocol's message types: the typed
// ones, then the untyped.
func WireMessages() []WireType {
	return append(append([]WireType(nil), wireTable...), untypedTable...)
}

// lookupWire returns the typed message sent by side with type byte typ, or nil.
func lookupWire(side Side, typ byte) *WireType {
	for i := range wireTable {
		w := &wireTable[i]
		if w.Type == typ && (w.Side == side || w.Side == SideUnknown) {
			return w
		}
	}
	return nil
}

// copyMode is the COPY a connection is in.
type copyMode uint8

const (
	copyNone        copyMode = iota
	copyReplication          // after CopyBothResponse: the replication stream
	copyOut                  // after CopyOutResponse: COPY … TO STDOUT
	copyIn                   // after CopyInResponse: COPY … FROM STDIN
)

// Conversation decodes the messages of one connection of the frontend/backend protocol, both
// directions, in the order they were sent (a capture's order), and keeps what they said. Its
// replication stream's CopyData are decoded by a Session set up with the options the
// START_REPLICATION command asked for. Messages whose side is not known are decoded as
// replication messages, by that Session, as a paste of them is.
type Conversation struct {
	s *Session
	// untyped: the client's next message is untyped (nothing, or only encryption requests,
	// sent yet). encAsked is the request code of an SSLRequest or GSSENCRequest the server has
	// not answered.
	untyped  bool
	encAsked uint32
	// lastAuth is the code of the server's last authentication request, -1 before one.
	lastAuth int
	copy     copyMode
	// copyFormat is the overall format of the COPY in progress; copyStarted says its binary
	// header has been read.
	copyFormat  byte
	copyStarted bool
	// columns are the columns of the rows to come: a RowDescription's, or a COPY command's.
	columns []Column
	// pending is what the last replication command or COPY asked for, until the server answers
	// (nil after another query).
	pending *ReplCommand
	// group is the field of the message being decoded (a 'p' message's or an 'R''s depends on
	// the conversation).
	group FieldID
	// Info is what the conversation has said so far.
	Info ConversationInfo
}

// ConversationInfo is what a connection's messages said about it.
type ConversationInfo struct {
	// Parameters of the StartupMessage, in order (user, database, replication,
	// application_name, …).
	Startup []Parameter
	// ServerVersion is the server_version the server reported (ParameterStatus), or "".
	ServerVersion string
	// Replication is the last START_REPLICATION command sent (nil before one); Streaming says
	// the server answered it with CopyBothResponse, and the stream was decoded with its options.
	Replication *ReplCommand
	Streaming   bool
	// Commands are the replication commands the client sent, in order.
	Commands []*ReplCommand
	// Errors are the messages of the server's ErrorResponses, in order.
	Errors []string
	// Encrypted names the encryption the server accepted ("SSL", "GSSAPI"), or "".
	Encrypted string
	// Terminated says the client sent Terminate.
	Terminated bool
}

// Parameter is a name and a value.
type Parameter struct{ Name, Value string }

// Startup returns the value of a StartupMessage parameter, or "".
func (ci *ConversationInfo) StartupValue(name string) string {
	for _, p := range ci.Startup {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// NewConversation returns a conversation whose replication stream is decoded with opts until
// a START_REPLICATION says otherwise. A conversation starts at the connection's start: the
// client's first messages are untyped. Resume starts one from the middle.
func NewConversation(opts Options) *Conversation {
	return &Conversation{s: NewSession(opts), untyped: true, lastAuth: -1}
}

// Resume says that the connection began before the first message this conversation sees: the
// client's messages are typed, and a CopyData is read as a replication message unless a
// CopyOutResponse or CopyInResponse came.
func (cv *Conversation) Resume() { cv.untyped = false }

// Session returns the session that decodes the replication stream.
func (cv *Conversation) Session() *Session { return cv.s }

// Decode decodes one message sent by side into a new Tree.
func (cv *Conversation) Decode(b []byte, side Side) *Tree {
	t := &Tree{}
	cv.DecodeInto(t, b, side)
	return t
}

// DecodeInto decodes one message sent by side into t, reusing t's storage, and applies it to
// the conversation. A message whose side is not known is a replication message.
func (cv *Conversation) DecodeInto(t *Tree, b []byte, side Side) {
	if side == SideUnknown || len(b) > 0 && b[0] == 'd' && (cv.copy == copyNone || cv.copy == copyReplication) && !(side == Frontend && cv.untyped) {
		cv.s.decodeMessage(t, b, false)
		t.Side = side
		return
	}
	s := cv.s
	c := s.start(t, b, false)
	t.Side = side
	if side == Frontend && cv.untyped && !untypedCode(b) {
		cv.untyped = false // the capture began after the startup
	}
	var w *WireType
	switch {
	case len(b) == 0:
		c.fail(ErrTruncated, FieldUnknownType, 1, detail{})
	case side == Frontend && cv.untyped:
		w = cv.untypedFrontend(c)
	case side == Backend && cv.encAsked != 0 && len(b) == 1:
		w = &untypedTable[4]
		if cv.encAsked == codeGSSENC {
			w = &untypedTable[5]
		}
		c.push(w.Group, 0)
		c.fields(w.Fields)
		c.pop()
	default:
		if w = lookupWire(side, b[0]); w == nil {
			c.leaf(FieldUnknownType, FormatByte1, 1)
			text := "expected the type byte of a message the server sends, found "
			if side == Frontend {
				text = "expected the type byte of a message the client sends, found "
			}
			c.failAt(ErrUnknownType, FieldUnknownType, 0, 0, detail{text: text, form: detailChar, ch: b[0]})
			break
		}
		group := w.Group
		switch w.Type {
		case 'R':
			group = authGroup(b)
		case 'p':
			group = cv.passwordGroup(b)
		}
		cv.group = group
		c.push(group, 0)
		c.Byte1(w.TypeField)
		c.lengthSelf(FieldWireLength)
		if w.Group == FieldDataRow {
			c.t.Columns = cv.columns
		}
		if w.body != nil {
			w.body(cv, c)
		} else {
			c.run(w.Fields)
		}
		c.pop()
	}
	t.Wire = w
	s.finish(t, c, false)
	if t.Err == nil || w != nil {
		cv.apply(t, side)
	}
	s.count++
}

// untypedFrontend decodes a message the client sent before its StartupMessage counted:
// StartupMessage, SSLRequest, GSSENCRequest or CancelRequest, by the code after its length.
func (cv *Conversation) untypedFrontend(c *cursor) *WireType {
	code := uint32(0)
	if len(c.b) >= 8 {
		code = uint32(c.b[4])<<24 | uint32(c.b[5])<<16 | uint32(c.b[6])<<8 | uint32(c.b[7])
	}
	w := &untypedTable[0]
	switch code {
	case codeSSL:
		w = &untypedTable[1]
	case codeGSSENC:
		w = &untypedTable[2]
	case codeCancel:
		w = &untypedTable[3]
	}
	c.push(w.Group, 0)
	c.lengthSelf(FieldUntypedLength)
	c.run(w.Fields)
	c.pop()
	return w
}

// untypedCode reports bytes that start as an untyped message: a length, then a request code or
// a protocol version 3.x.
func untypedCode(b []byte) bool {
	if len(b) < 8 {
		return false
	}
	code := uint32(b[4])<<24 | uint32(b[5])<<16 | uint32(b[6])<<8 | uint32(b[7])
	return code == codeSSL || code == codeGSSENC || code == codeCancel || code>>16 == 3
}

// lengthSelf reads a message's Int32 length, which counts itself, and ends the message there:
// a length below 4 or past the bytes there are fails on the field.
func (c *cursor) lengthSelf(f FieldID) {
	v, ok := c.Int32(f)
	if !ok {
		return
	}
	if int32(v) < 4 || int(v)-4 > c.remaining() {
		c.invalid(detail{form: detailCopyLength, num: int(int32(v)) - 4, num2: c.remaining()})
		return
	}
	c.end = c.pos + int(v) - 4
}

// apply records what a message decoded without error says about the conversation.
func (cv *Conversation) apply(t *Tree, side Side) {
	if t.Err != nil && t.Wire == nil || len(t.Nodes) == 0 {
		return
	}
	switch t.Nodes[0].Field {
	case FieldStartupMessage:
		cv.untyped = false
		cv.Info.Startup = pairs(t, FieldStartupName, cv.Info.Startup[:0])
	case FieldSSLRequest:
		cv.encAsked = codeSSL
	case FieldGSSENCRequest:
		cv.encAsked = codeGSSENC
	case FieldCancelRequest:
		cv.untyped = false
	case FieldSSLResponse, FieldGSSENCResponse:
		cv.encAsked = 0
		switch t.Bytes[0] {
		case 'S':
			cv.Info.Encrypted = "SSL"
		case 'G':
			cv.Info.Encrypted = "GSSAPI"
		}
	case FieldParameterStatus:
		if p := pairs(t, FieldParameterStatusName, nil); len(p) == 1 && p[0].Name == "server_version" {
			cv.Info.ServerVersion = p[0].Value
		}
	case FieldQuery:
		cv.query(t)
	case FieldCopyBothResponse:
		cv.copy = copyReplication
		if rc := cv.pending; rc != nil && rc.Command == "START_REPLICATION" {
			cv.Info.Streaming = true
			cv.s.setOptions(rc.DecoderOptions(cv.s.opts))
		}
	case FieldCopyOutResponse:
		cv.startCopy(copyOut, t.Bytes[5])
	case FieldCopyInResponse:
		if cv.copy != copyIn {
			cv.startCopy(copyIn, t.Bytes[5])
		}
		cv.copyFormat = t.Bytes[5]
	case FieldRowDescription:
		cv.rowDescription(t)
	case FieldErrorResponse:
		cv.Info.Errors = append(cv.Info.Errors, t.NoticeField('M'))
		cv.endCopy(side)
	case FieldCommandComplete, FieldReadyForQuery:
		cv.endCopy(side)
	case FieldTerminate:
		cv.Info.Terminated = true
	case FieldCopyData:
		if cv.copy == copyOut || cv.copy == copyIn {
			cv.copyStarted = true
		}
	default:
		if i := t.Find(0, FieldAuthCode); i >= 0 {
			cv.lastAuth = int(t.ValueOf(i).Num)
		}
	}
	if w := t.Wire; w != nil && w.Side == Backend && w.Type != 0 {
		cv.untyped = false // the server speaks past its encryption answers: the startup is over
	}
}

// pairs appends the name and value of each node of field name (a String followed by its
// value's String) to ps.
func pairs(t *Tree, name FieldID, ps []Parameter) []Parameter {
	for i := range t.Nodes {
		if t.Nodes[i].Field == name && i+1 < len(t.Nodes) {
			ps = append(ps, Parameter{string(t.ValueBytes(i)), string(t.ValueBytes(i + 1))})
		}
	}
	return ps
}

// query records what a Query asks for: a replication command, or a COPY whose CopyData may
// follow.
func (cv *Conversation) query(t *Tree) {
	cv.pending = nil
	if i := t.Find(0, FieldQueryString); i >= 0 {
		rc := parseCopyCommand(t.ValueBytes(i))
		cv.pending = rc
		if rc != nil && rc.Kind == "FROM" {
			// A client may send its CopyData before the server's CopyInResponse comes.
			cv.startCopy(copyIn, 0)
			if _, ok := rc.Option("format"); ok {
				cv.copyFormat = 1
			}
		}
		return
	}
	rc, _ := ParseReplCommand(t.Bytes[5 : len(t.Bytes)-1])
	if rc == nil {
		return
	}
	rc.tokens = nil // the words' places matter to the Query's decode only
	cv.pending = rc
	cv.Info.Commands = append(cv.Info.Commands, rc)
	if rc.Command == "START_REPLICATION" {
		cv.Info.Replication = rc
	}
}

// rowDescription takes the columns of the rows to come from a RowDescription.
func (cv *Conversation) rowDescription(t *Tree) {
	cv.columns = nil // trees decoded before keep the columns they were given
	for i := range t.Nodes {
		if t.Nodes[i].Field == FieldRowDescriptionName && i+3 < len(t.Nodes) {
			oid := uint32(t.ValueOf(i + 3).Num)
			cv.columns = append(cv.columns, Column{Name: string(t.ValueBytes(i)), TypeOID: oid, TypeName: cv.s.TypeName(oid)})
		}
	}
}

// startCopy starts a COPY in mode, in format (0 text, 1 binary), with the columns the COPY
// command named.
func (cv *Conversation) startCopy(mode copyMode, format byte) {
	cv.copy, cv.copyFormat, cv.copyStarted = mode, format, false
	cv.columns = nil // trees decoded before keep the columns they were given
	if cv.pending != nil {
		for _, name := range cv.pending.Columns {
			cv.columns = append(cv.columns, Column{Name: name})
		}
	}
}

// endCopy ends the COPY in progress when the server says the command is over.
func (cv *Conversation) endCopy(side Side) {
	if side == Backend {
		cv.copy = copyNone
	}
}

// authGroup names an authentication request by its code.
func authGroup(b []byte) FieldID {
	if len(b) < 9 {
		return FieldAuthentication
	}
	switch code := uint32(b[5])<<24 | uint32(b[6])<<16 | uint32(b[7])<<8 | uint32(b[8]); code {
	case 0:
		return FieldAuthOk
	case 2:
		return FieldAuthKerberosV5
	case 3:
		return FieldAuthCleartext
	case 5:
		return FieldAuthMD5
	case 7:
		return FieldAuthGSS
	case 8:
		return FieldAuthGSSContinue
	case 9:
		return FieldAuthSSPI
	case 10:
		return FieldAuthSASL
	case 11:
		return FieldAuthSASLContinue
	case 12:
		return FieldAuthSASLFinal
	}
	return FieldAuthentication
}

// passwordGroup names a client's 'p' message by the authentication request it answers, or,
// when that request is not in the capture, by its bytes.
func (cv *Conversation) passwordGroup(b []byte) FieldID {
	switch cv.lastAuth {
	case 3, 5:
		return FieldPasswordMessage
	case 10:
		return FieldSASLInitialResponse
	case 11, 12:
		return FieldSASLResponse
	case 7, 8, 9:
		return FieldGSSResponse
	}
	if saslInitial(b) {
		return FieldSASLInitialResponse
	}
	if len(b) > 5 && b[len(b)-1] == 0 && indexByte(string(b[5:len(b)-1]), 0) < 0 {
		return FieldPasswordMessage
	}
	return FieldSASLResponse
}

// saslInitial reports a 'p' message that reads as a SASLInitialResponse: a mechanism name, then
// a length that runs exactly to the end.
func saslInitial(b []byte) bool {
	if len(b) < 10 {
		return false
	}
	body := b[5:]
	i := indexByte(string(body), 0)
	if i <= 0 || i+5 > len(body) {
		return false
	}
	for _, ch := range body[:i] {
		if !(ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_') {
			return false
		}
	}
	n := int32(uint32(body[i+1])<<24 | uint32(body[i+2])<<16 | uint32(body[i+3])<<8 | uint32(body[i+4]))
	return n == -1 && i+5 == len(body) || n >= 0 && i+5+int(n) == len(body)
}

func authBody(cv *Conversation, c *cursor) {
	code, ok := c.Int32(FieldAuthCode)
	if !ok {
		return
	}
	switch code {
	case 5:
		c.Bytes(FieldAuthSalt, 4)
	case 10:
		for c.err == nil {
			if c.remaining() > 0 && c.b[c.pos] == 0 {
				c.Byte1(FieldAuthMechanismsEnd)
				return
			}
			c.String(FieldAuthMechanism)
		}
	case 8, 11, 12:
		c.Bytes(FieldAuthData, c.remaining())
	}
}

func passwordBody(cv *Conversation, c *cursor) {
	switch cv.group {
	case FieldPasswordMessage:
		c.String(FieldPassword)
	case FieldSASLInitialResponse:
		c.String(FieldSASLMechanism)
		if n, ok := c.Int32(FieldSASLLength); ok && int32(n) >= 0 {
			c.Bytes(FieldSASLData, int(n))
		}
	default:
		c.Bytes(FieldSASLData, c.remaining())
	}
}

// Layouts that repeat or run to a terminator are programs of FieldIDs for run: a field is read
// as its format says (c.fields), and these opcodes, above every field, read the rest.
const (
	// opCount16 COUNT GROUP ITEM… opEnd: an Int16 count, then as many items, each in a group
	// (FieldUnknown: none); opCount32 the same with an Int32 count.
	opCount16 FieldID = 0xfff0 + iota
	opCount32
	// opUntilNUL GROUP ITEM… opEnd END: items, each in a group, until a zero byte, read as END.
	opUntilNUL
	// opLenValue LENGTH VALUE: an Int32 length, then that many bytes of VALUE; -1 is NULL.
	opLenValue
	// opRest FIELD: the bytes that remain.
	opRest
	opEnd
)

// Programs of the messages whose layout repeats (run reads them).
var (
	progStartup      = []FieldID{FieldStartupVersion, opUntilNUL, FieldStartupParameter, FieldStartupName, FieldStartupValue, opEnd, FieldStartupEnd}
	progCancel       = []FieldID{FieldCancelRequestCode, FieldCancelPID, opRest, FieldCancelKey}
	progBackendKey   = []FieldID{FieldBackendKeyPID, opRest, FieldBackendKeySecret}
	progNegotiate    = []FieldID{FieldNegotiateMinor, opCount32, FieldNegotiateCount, FieldUnknown, FieldNegotiateOption, opEnd}
	progNotice       = []FieldID{opUntilNUL, FieldNoticeField, FieldNoticeFieldCode, FieldNoticeFieldValue, opEnd, FieldNoticeEnd}
	progCopyResponse = []FieldID{FieldCopyFormat, opCount16, FieldCopyColumnCount, FieldUnknown, FieldCopyColumnFormat, opEnd}
	progParamDesc    = []FieldID{opCount16, FieldParameterDescriptionCount, FieldUnknown, FieldParameterDescriptionTypeOID, opEnd}
	progFuncResponse = []FieldID{opLenValue, FieldFunctionResultLength, FieldFunctionResultValue}
	progParse        = []FieldID{FieldParseStatement, FieldParseQuery, opCount16, FieldParseCount, FieldUnknown, FieldParseTypeOID, opEnd}
	progRowDesc      = []FieldID{opCount16, FieldRowDescriptionCount, FieldRowDescriptionField, FieldRowDescriptionName, FieldRowDescriptionTable,
		FieldRowDescriptionColumn, FieldRowDescriptionTypeOID, FieldRowDescriptionTypeSize, FieldRowDescriptionTypeModifier, FieldRowDescriptionFormat, opEnd}
	progDataRow = []FieldID{opCount16, FieldDataRowCount, FieldDataRowColumn, opLenValue, FieldDataRowLength, FieldDataRowValue, opEnd}
	progBind    = []FieldID{FieldBindPortal, FieldBindStatement, opCount16, FieldBindFormatCount, FieldUnknown, FieldBindFormat, opEnd,
		opCount16, FieldBindParameterCount, FieldBindParameter, opLenValue, FieldBindParameterLength, FieldBindParameterValue, opEnd,
		opCount16, FieldBindResultCount, FieldUnknown, FieldBindResultFormat, opEnd}
	progFunctionCall = []FieldID{FieldFunctionOID, opCount16, FieldFunctionArgFormatCount, FieldUnknown, FieldFunctionArgFormat, opEnd,
		opCount16, FieldFunctionArgCount, FieldFunctionArg, opLenValue, FieldFunctionArgLength, FieldFunctionArgValue, opEnd, FieldFunctionResultFormat}
	progCopyTuple = []FieldID{opCount16, FieldCopyFieldCount, FieldCopyField, opLenValue, FieldCopyFieldLength, FieldCopyFieldValue, opEnd}
)

// progEnd returns the index of the opEnd that ends an item's program (or len(prog)).
func progEnd(prog []FieldID) int {
	k := 0
	for k < len(prog) && prog[k] != opEnd {
		switch prog[k] {
		case opCount16, opCount32:
			k += 3
			k += progEnd(prog[k:]) + 1
		case opUntilNUL:
			k += 2
			k += progEnd(prog[k:]) + 2
		case opLenValue:
			k += 3
		case opRest:
			k += 2
		default:
			k++
		}
	}
	return k
}

// run reads prog at the cursor, up to the end of prog or an opEnd that ends an item's program.
func (c *cursor) run(prog []FieldID) {
	k := 0
	for k < len(prog) && prog[k] != opEnd {
		op := prog[k]
		switch op {
		case opCount16, opCount32, opUntilNUL:
			var n uint64
			count := prog[k+1]
			group := count
			if op != opUntilNUL {
				format, size := FormatInt16, 2
				if op == opCount32 {
					format, size = FormatInt32, 4
				}
				v, ok := c.integer(count, format, size)
				// Each item takes a byte at least: a count past the bytes that remain is wrong.
				if ok && int(v) > c.remaining() {
					c.invalid(tooMany(int(v), c.remaining()))
				}
				n, group = v, prog[k+2]
				k++
				c.reserve(int(n) * 3)
			}
			item := prog[k+2:]
			for i := int32(1); c.err == nil && (op != opUntilNUL || c.remaining() > 0 && c.b[c.pos] != 0) && (op == opUntilNUL || uint64(i) <= n); i++ {
				if group != FieldUnknown {
					c.push(group, i)
				}
				c.run(item)
				if group != FieldUnknown {
					c.pop()
				}
			}
			k += 2 + progEnd(item) + 1
			if op == opUntilNUL {
				c.fields(prog[k : k+1])
				k++
			}
		case opLenValue:
			if v, ok := c.Int32(prog[k+1]); ok && int32(v) != -1 {
				if int32(v) < 0 || int(v) > c.remaining() {
					c.invalid(detail{form: detailCopyLength, num: int(int32(v)), num2: c.remaining()})
				} else {
					c.Bytes(prog[k+2], int(v))
				}
			}
			k += 3
		case opRest:
			c.Bytes(prog[k+1], c.remaining())
			k += 2
		default:
			c.fields(prog[k : k+1])
			k++
		}
	}
}

// tooMany says a count asks for more items than the bytes that remain can hold.
func tooMany(n, left int) detail {
	return detail{text: "a count of " + strconv.Itoa(n) + " items, more than the " + strconv.Itoa(left) + " bytes that remain can hold"}
}

// copyDataWireBody reads a CopyData of a COPY … TO STDOUT or FROM STDIN: rows of the text
// format, or the binary format's header and tuples.
func copyDataWireBody(cv *Conversation, c *cursor) {
	c.t.Columns = cv.columns
	if cv.copyFormat == 1 {
		binaryCopyBody(cv, c)
		return
	}
	for c.err == nil && c.remaining() > 0 {
		c.push(FieldCopyRow, 0)
		for k := int32(1); c.err == nil; k++ {
			rest := c.b[c.pos:c.end]
			i := 0
			for i < len(rest) && rest[i] != '\t' && rest[i] != '\n' {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				i++
			}
			c.leaf(FieldCopyValue, FormatBytes, i)
			if !c.probe {
				c.nodes[len(c.nodes)-1].Index = k
			}
			if i == len(rest) {
				break
			}
			if rest[i] == '\n' {
				c.Byte1(FieldCopyRowEnd)
				break
			}
			c.Byte1(FieldCopyDelimiter)
		}
		c.pop()
	}
}

// copySignature starts COPY's binary format.
const copySignature = "PGCOPY\n\xff\r\n\x00"

func binaryCopyBody(cv *Conversation, c *cursor) {
	if !cv.copyStarted {
		c.push(FieldCopyHeader, 0)
		if sig, ok := c.Bytes(FieldCopySignature, len(copySignature)); ok && string(sig) != copySignature {
			c.invalid(detail{text: "expected the signature of COPY's binary format, PGCOPY\\n\\377\\r\\n\\0"})
		}
		c.Int32(FieldCopyFlags)
		if n, ok := c.Int32(FieldCopyExtensionLength); ok {
			if int(n) > c.remaining() {
				c.invalid(detail{form: detailCopyLength, num: int(int32(n)), num2: c.remaining()})
			} else {
				c.Bytes(FieldCopyExtension, int(n))
			}
		}
		c.pop()
	}
	for c.err == nil && c.remaining() > 0 {
		if c.remaining() >= 2 && c.b[c.pos] == 0xff && c.b[c.pos+1] == 0xff {
			c.Int16(FieldCopyTrailer)
			continue
		}
		c.push(FieldCopyTuple, 0)
		c.run(progCopyTuple)
		c.pop()
	}
}

func queryBody(cv *Conversation, c *cursor) {
	rest := c.b[c.pos:c.end]
	end := indexByte(string(rest), 0)
	var cmd *ReplCommand
	if end >= 0 {
		cmd, _ = ParseReplCommand(rest[:end])
	}
	if cmd == nil {
		c.String(FieldQueryString)
		return
	}
	c.push(FieldReplCommand, 0)
	base := c.pos
	for _, tok := range cmd.tokens {
		switch tok.field {
		case FieldReplOptions, FieldReplOption:
			c.push(tok.field, 0)
		case FieldUnknown:
			c.pop()
		default:
			c.leaf(tok.field, FormatBytes, base+tok.end-c.pos)
		}
	}
	c.Byte1(FieldReplEnd)
	c.pop()
}

// SQLStateName returns the condition name of an SQLSTATE code ("42704": "undefined_object"),
// or "" for a code PostgreSQL 15 does not define.
func SQLStateName(code string) string {
	if len(code) != 5 {
		return ""
	}
	for s := sqlStates; len(s) > 5; {
		end := indexByte(s, '\n')
		if s[:5] == code {
			return s[5:end]
		}
		s = s[end+1:]
	}
	return ""
}

// Redact overwrites with '*' the secret bytes of a message a client sent, b whole (type byte
// and length included): a PasswordMessage's password (its terminator kept), the data of a
// SASLInitialResponse (its mechanism and length kept), a SASLResponse or a GSSResponse. It
// returns how many bytes it overwrote: 0 for any other message. Captures are read through it,
// so that no password or proof is shown, exported or shared.
func Redact(b []byte) int {
	from, to := SecretSpan(b)
	for i := from; i < to; i++ {
		b[i] = '*'
	}
	return to - from
}

// SecretSpan returns where the secret bytes of a message a client sent lie in b, the bytes
// Redact overwrites, from and to (not included); 0, 0 for a message that carries none.
func SecretSpan(b []byte) (from, to int) {
	if len(b) <= 5 || b[0] != 'p' {
		return 0, 0
	}
	from, to = 5, len(b)
	switch {
	case saslInitial(b):
		from += indexByte(string(b[5:]), 0) + 5
	case b[len(b)-1] == 0:
		to-- // a password's terminator
	}
	return from, to
}

// Connections decodes the messages of an input whose messages belong to connections (a packet
// capture): one Conversation for each, all with the same options. Messages of no connection
// (connection 0: a paste, a pg_recvlogical file) are replication messages, decoded by a
// conversation of their own.
type Connections struct {
	opts  Options
	convs []*Conversation
}

// NewConnections returns the conversations of an input, decoding with opts.
func NewConnections(opts Options) *Connections { return &Connections{opts: opts} }

// Conversation returns connection conn's conversation (0: the messages of no connection),
// starting it when it is new.
func (cs *Connections) Conversation(conn int) *Conversation {
	for len(cs.convs) <= conn {
		cs.convs = append(cs.convs, nil)
	}
	if cs.convs[conn] == nil {
		cs.convs[conn] = NewConversation(cs.opts)
	}
	return cs.convs[conn]
}

// Continue has connection conn go on with cv, a conversation begun on an input before this
// one (the part of a big file before).
func (cs *Connections) Continue(conn int, cv *Conversation) {
	cs.Conversation(conn)
	cs.convs[conn] = cv
}

// Proto returns the highest protocol version a replication stream of the input was decoded
// with (given or inferred), or 0.
func (cs *Connections) Proto() int {
	p := 0
	for _, cv := range cs.convs {
		if cv != nil {
			p = max(p, cv.s.Proto())
		}
	}
	return p
}

// Len returns one more than the highest connection number met.
func (cs *Connections) Len() int { return len(cs.convs) }

// DecodeInto decodes into t one message sent by side on connection conn.
func (cs *Connections) DecodeInto(t *Tree, b []byte, side Side, conn int) {
	cs.Conversation(conn).DecodeInto(t, b, side)
}

// Kind says what the connection was for: "logical replication", "physical replication"
// (the StartupMessage's replication parameter, else the START_REPLICATION command), or
// "ordinary"; when neither was captured, "unknown (its startup is not in the capture)".
func (ci *ConversationInfo) Kind() string {
	switch v := ci.StartupValue("replication"); {
	case v == "database":
		return "logical replication"
	case v == "true" || v == "on" || v == "yes" || v == "1":
		return "physical replication"
	case len(ci.Startup) > 0:
		return "ordinary"
	case ci.Replication != nil && ci.Replication.Kind == "LOGICAL":
		return "logical replication"
	case ci.Replication != nil: // PHYSICAL, or no keyword
		return "physical replication"
	}
	return "unknown (its startup is not in the capture)"
}

// Summary says what the connection was and who spoke on it: "logical replication,
// application_name sub, user postgres, database postgres, PostgreSQL 17.10".
func (ci *ConversationInfo) Summary() string {
	s := ci.Kind()
	for _, name := range [...]string{"application_name", "user", "database"} {
		if v := ci.StartupValue(name); v != "" {
			s += ", " + name + " " + pgvalue.SafeText(v)
		}
	}
	if ci.ServerVersion != "" {
		s += ", PostgreSQL " + pgvalue.SafeText(ci.ServerVersion)
	}
	return s
}

// Outcome says how the connection went, as far as its messages tell: the server's last
// error, "streaming" (its replication stream started), "closed by the client", or "".
func (ci *ConversationInfo) Outcome() string {
	switch {
	case len(ci.Errors) > 0:
		return "error: " + ci.Errors[len(ci.Errors)-1]
	case ci.Streaming && ci.Terminated:
		return "streamed, then closed by the client"
	case ci.Streaming:
		return "streaming"
	case ci.Terminated:
		return "closed by the client"
	}
	return ""
}

// NoticeField returns the value of an ErrorResponse's or NoticeResponse's field of the given
// code ('M' its message, 'C' its SQLSTATE), or "" when the message has none.
func (t *Tree) NoticeField(code byte) string {
	v := ""
	for i := range t.Nodes {
		if t.Nodes[i].Field == FieldNoticeFieldCode && t.Bytes[t.Nodes[i].Offset] == code && i+1 < len(t.Nodes) {
			v = string(t.ValueBytes(i + 1))
		}
	}
	return v
}
