package dump

import (
	"io"
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
)

// The JSON of decode --json and --json-lines is a public interface, documented in docs/cli.md:
// keys are added only with documentation, never renamed or removed.
//
// JSON writes it by appending to one buffer that every message reuses: no reflection, no
// values built to be encoded. --json writes one document ("format", "header", …, "messages")
// laid out exactly as encoding/json's Encoder with a two-space indent lays it out; --json-lines
// writes each message's object on a line of its own, compact as json.Marshal writes it. The
// buffer goes to w whenever it holds jsonFlushAt bytes, and long values (hex, strings, binary
// column values) are written a piece at a time, so memory does not depend on a message's size.
type JSON struct {
	w     io.Writer
	lines bool // --json-lines: one compact object a line, messages only
	b     []byte
	n     int // messages written
	err   error
	// comments are a capture file's "#" lines that came between messages of a text read piece
	// by piece, written after the messages.
	comments []jsonComment
	// lateErrors are the errors met reading an input in pieces, written after the messages.
	lateErrors []*input.Error
	// conns are a capture's connections, written after the messages.
	conns []Connection
	// scratch holds a short value while it is formatted; label a node's label.
	scratch, label []byte
}

// NewJSON returns a JSON writer to w: the document of decode --json, or with lines the
// lines of --json-lines.
func NewJSON(w io.Writer, lines bool) *JSON { return &JSON{w: w, lines: lines} }

// Reset makes j a new writer to w, as NewJSON does, keeping its buffers.
func (j *JSON) Reset(w io.Writer, lines bool) {
	*j = JSON{w: w, lines: lines, b: j.b[:0], scratch: j.scratch[:0], label: j.label[:0]}
}

// jsonComment is a "#" line that came before the message with the given index.
type jsonComment struct {
	index int
	text  string
}

// jsonFlushAt is the size at which the buffer is written out, and the piece size of long values.
const jsonFlushAt = 32 << 10

// InputRootName names the root added when a message's bytes are not one layer: a complete
// message followed by trailing bytes, or an unknown type byte followed by undecoded bytes.
const InputRootName = "Input"

// Indentation of the document: a message object's keys are at depth 3 ("messages" at 1, the
// object's braces at 2).
const (
	jsonIndent   = "  "
	messageDepth = 2
)

// flush writes the buffer out.
func (j *JSON) flush() {
	if j.err == nil && len(j.b) > 0 {
		_, j.err = j.w.Write(j.b)
	}
	j.b = j.b[:0]
}

// maybeFlush writes the buffer out once it holds a piece's worth.
func (j *JSON) maybeFlush() {
	if len(j.b) >= jsonFlushAt {
		j.flush()
	}
}

// Write appends p to the buffer, for writers of long values (pgvalue.WriteJSON).
func (j *JSON) Write(p []byte) (int, error) {
	j.b = append(j.b, p...)
	j.maybeFlush()
	return len(p), j.err
}

// newlineIndent is a line break and the indentation of the deepest lines most documents have.
const newlineIndent = "\n                                                                "

// nl starts a new line indented to depth (nothing in compact output).
func (j *JSON) nl(depth int) {
	if j.lines {
		return
	}
	if n := 1 + len(jsonIndent)*depth; n <= len(newlineIndent) {
		j.b = append(j.b, newlineIndent[:n]...)
		return
	}
	j.b = append(j.b, '\n')
	for range depth {
		j.b = append(j.b, jsonIndent...)
	}
}

// key starts a member of an object whose members are at depth: a comma unless first, the
// line, the quoted key and the colon.
func (j *JSON) key(depth int, first bool, k string) {
	if !first {
		j.b = append(j.b, ',')
	}
	j.nl(depth)
	j.b = append(j.b, '"')
	j.b = append(j.b, k...)
	j.b = append(j.b, '"', ':')
	if !j.lines {
		j.b = append(j.b, ' ')
	}
}

// Connections keeps a capture's connections for the document's "connections", written after
// the messages; --json-lines has messages only.
func (j *JSON) Connections(conns []Connection) { j.conns = conns }

// connectionsKey writes "connections": each connection of the capture, numbered as the
// messages' "connection".
func (j *JSON) connectionsKey() {
	j.key(1, false, "connections")
	j.b = append(j.b, '[')
	for i := range j.conns {
		c := &j.conns[i]
		j.objectStart(2, i)
		j.key(3, true, "connection")
		j.int(int64(i + 1))
		if c.Client != "" {
			j.key(3, false, "client")
			j.str(c.Client)
			j.key(3, false, "server")
			j.str(c.Server)
		}
		j.key(3, false, "kind")
		j.str(c.Kind())
		j.key(3, false, "first_frame")
		j.int(int64(c.FirstFrame))
		j.key(3, false, "last_frame")
		j.int(int64(c.LastFrame))
		if c.Start != 0 {
			j.key(3, false, "start")
			j.b = append(j.b, '"')
			j.b = pgvalue.AppendUnixNano(j.b, c.Start)
			j.b = append(j.b, '"')
			j.key(3, false, "end")
			j.b = append(j.b, '"')
			j.b = pgvalue.AppendUnixNano(j.b, c.End)
			j.b = append(j.b, '"')
		}
		j.key(3, false, "messages")
		j.int(int64(c.Messages))
		j.key(3, false, "bytes_to_server")
		j.int(int64(c.ToServer))
		j.key(3, false, "bytes_to_client")
		j.int(int64(c.ToClient))
		j.key(3, false, "mid_stream")
		j.bool(c.MidStream)
		if c.Lost > 0 {
			j.key(3, false, "lost_bytes")
			j.int(int64(c.Lost))
		}
		if c.Connection.Encrypted != "" {
			j.key(3, false, "encrypted")
			j.str(c.Connection.Encrypted)
		}
		if len(c.Startup) > 0 {
			j.key(3, false, "startup")
			j.params(4, c.Startup)
		}
		if c.ServerVersion != "" {
			j.key(3, false, "server_version")
			j.str(c.ServerVersion)
		}
		if len(c.Commands) > 0 {
			cmds := make([]string, len(c.Commands))
			for k, rc := range c.Commands {
				cmds[k] = rc.String()
			}
			j.key(3, false, "commands")
			j.stringArray(4, cmds)
		}
		if rc := c.Replication; rc != nil {
			j.key(3, false, "replication")
			j.b = append(j.b, '{')
			j.key(4, true, "command")
			j.str(rc.Command)
			for _, kv := range [][2]string{{"slot", rc.Slot}, {"kind", rc.Kind}, {"lsn", rc.LSN}, {"timeline", rc.Timeline}} {
				if kv[1] != "" {
					j.key(4, false, kv[0])
					j.str(kv[1])
				}
			}
			j.key(4, false, "options")
			j.params(5, rc.Options)
			j.nl(3)
			j.b = append(j.b, '}')
		}
		j.key(3, false, "streaming")
		j.bool(c.Streaming)
		if len(c.Errors) > 0 {
			j.key(3, false, "errors")
			j.stringArray(4, c.Errors)
		}
		if o := c.Outcome(); o != "" {
			j.key(3, false, "outcome")
			j.str(o)
		}
		j.objectEnd(2)
	}
	j.nl(1)
	j.b = append(j.b, ']')
}

// params writes names and values as an object whose members are at depth.
func (j *JSON) params(depth int, ps []decoder.Parameter) {
	j.b = append(j.b, '{')
	for k, p := range ps {
		// The names come from the wire: quoted as strings are, not as key writes its own.
		if k > 0 {
			j.b = append(j.b, ',')
		}
		j.nl(depth)
		j.str(p.Name)
		j.b = append(j.b, ':')
		if !j.lines {
			j.b = append(j.b, ' ')
		}
		j.str(p.Value)
	}
	if len(ps) > 0 {
		j.nl(depth - 1)
	}
	j.b = append(j.b, '}')
}

func (j *JSON) bool(v bool) {
	if v {
		j.b = append(j.b, "true"...)
	} else {
		j.b = append(j.b, "false"...)
	}
}

// str appends s as a JSON string.
func (j *JSON) str(s string) { j.strBytes([]byte(s)) }

// strBytes appends b as a JSON string (pgvalue.AppendJSONString: encoding/json's escaping
// without its HTML escaping), a piece at a time when it is long.
func (j *JSON) strBytes(b []byte) {
	if len(b) <= jsonFlushAt {
		j.b = pgvalue.AppendJSONString(j.b, b)
		return
	}
	j.b = append(j.b, '"')
	for len(b) > 0 {
		cut := min(len(b), jsonFlushAt)
		// Cut before the first byte of a character, so that no valid UTF-8 is split (a run of
		// four continuation bytes holds none, and splitting it changes nothing).
		for k := 0; k < utf8.UTFMax-1 && cut < len(b) && !utf8.RuneStart(b[cut]); k++ {
			cut--
		}
		start := len(j.b)
		j.b = pgvalue.AppendJSONString(j.b, b[:cut])
		// Without the quotes AppendJSONString put around the piece.
		j.b = append(j.b[:start], j.b[start+1:len(j.b)-1]...)
		b = b[cut:]
		j.maybeFlush()
	}
	j.b = append(j.b, '"')
}

// bytea appends raw bytes as a string in PostgreSQL's bytea hex output, "\\x0a1b", a piece at a
// time when they are long.
func (j *JSON) bytea(b []byte) {
	j.b = append(j.b, `"\\x`...)
	j.hex(b)
	j.b = append(j.b, '"')
}

// hex appends b in lower-case hex, a piece at a time.
func (j *JSON) hex(b []byte) {
	const digits = pgvalue.HexDigits
	for len(b) > 0 {
		piece := b[:min(len(b), jsonFlushAt/2)]
		for _, c := range piece {
			j.b = append(j.b, digits[c>>4], digits[c&15])
		}
		b = b[len(piece):]
		j.maybeFlush()
	}
}

func (j *JSON) uint(v uint64) { j.b = strconv.AppendUint(j.b, v, 10) }
func (j *JSON) int(v int64)   { j.b = strconv.AppendInt(j.b, v, 10) }

// stringArray appends a JSON array of strings whose elements are at depth.
func (j *JSON) stringArray(depth int, ss []string) {
	if len(ss) == 0 {
		j.b = append(j.b, "[]"...)
		return
	}
	j.b = append(j.b, '[')
	for i, s := range ss {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.nl(depth)
		j.str(s)
	}
	j.nl(depth - 1)
	j.b = append(j.b, ']')
}

func (j *JSON) Begin(res *input.Result, count int) {
	if j.lines {
		return
	}
	j.b = append(j.b, `{`...)
	j.key(1, true, "format")
	j.str(string(res.Format))
	if res.Header != nil {
		j.key(1, false, "header")
		j.stringArray(2, res.Header)
	}
	// How the input was read, its other readings, and the places it could not be read.
	if len(res.Notes) > 0 {
		j.key(1, false, "input_notes")
		j.b = append(j.b, '[')
		for i, n := range res.Notes {
			j.objectStart(2, i)
			j.key(3, true, "message")
			if n.Message >= 0 {
				j.int(int64(n.Message))
			} else {
				j.b = append(j.b, "null"...)
			}
			j.key(3, false, "text")
			j.str(n.Text)
			j.objectEnd(2)
		}
		j.nl(1)
		j.b = append(j.b, ']')
	}
	if len(res.Also) > 0 {
		j.key(1, false, "also_possible")
		j.b = append(j.b, '[')
		for i, a := range res.Also {
			j.objectStart(2, i)
			j.key(3, true, "format")
			j.str(string(a.Format))
			j.key(3, false, "messages")
			j.int(int64(a.Messages))
			j.key(3, false, "note")
			j.str(a.Note)
			j.objectEnd(2)
		}
		j.nl(1)
		j.b = append(j.b, ']')
	}
	if len(res.Errors) > 0 {
		j.inputErrorsKey(res.Errors)
	}
	j.key(1, false, "messages")
	j.b = append(j.b, '[')
	j.flush()
}

// objectStart starts the i-th object of an array whose elements are at depth.
func (j *JSON) objectStart(depth, i int) {
	if i > 0 {
		j.b = append(j.b, ',')
	}
	j.nl(depth)
	j.b = append(j.b, '{')
}

// objectEnd ends an object whose braces are at depth.
func (j *JSON) objectEnd(depth int) {
	j.nl(depth)
	j.b = append(j.b, '}')
}

// inputErrorsKey appends the "input_errors" member.
func (j *JSON) inputErrorsKey(errs []*input.Error) {
	j.key(1, false, "input_errors")
	j.b = append(j.b, '[')
	for i, e := range errs {
		j.objectStart(2, i)
		j.key(3, true, "line")
		j.int(int64(e.Line))
		j.key(3, false, "column")
		j.int(int64(e.Column))
		j.key(3, false, "offset")
		j.int(int64(e.Offset))
		j.key(3, false, "message")
		j.str(e.Error())
		j.objectEnd(2)
	}
	j.nl(1)
	j.b = append(j.b, ']')
}

// InputErrors keeps the errors of an input read in pieces, met while reading it, for the end.
func (j *JSON) InputErrors(errs []*input.Error) {
	if !j.lines {
		j.lateErrors = append(j.lateErrors, errs...)
	}
}

func (j *JSON) Comment(index int, text string) {
	if !j.lines {
		j.comments = append(j.comments, jsonComment{index, text})
	}
}

func (j *JSON) End(count int) error {
	if j.lines {
		j.flush()
		return j.err
	}
	if j.n > 0 {
		j.nl(1)
	}
	j.b = append(j.b, ']')
	if len(j.lateErrors) > 0 {
		j.inputErrorsKey(j.lateErrors)
	}
	if len(j.conns) > 0 {
		j.connectionsKey()
	}
	if len(j.comments) > 0 {
		j.key(1, false, "comments")
		j.b = append(j.b, '[')
		for i, c := range j.comments {
			j.objectStart(2, i)
			j.key(3, true, "index")
			j.int(int64(c.index))
			j.key(3, false, "text")
			j.str(c.text)
			j.objectEnd(2)
		}
		j.nl(1)
		j.b = append(j.b, ']')
	}
	j.b = append(j.b, "\n}\n"...)
	j.flush()
	return j.err
}

// Message writes one message's object: in the document, an element of "messages"; with
// --json-lines, a line.
func (j *JSON) Message(index int, m *Message) {
	t := m.Tree
	d := messageDepth + 1 // the object's members
	if !j.lines {
		if j.n > 0 {
			j.b = append(j.b, ',')
		}
		j.nl(messageDepth)
	}
	j.b = append(j.b, '{')
	j.key(d, true, "index")
	j.int(int64(index))
	if m.HasLSN {
		j.key(d, false, "lsn")
		j.b = append(j.b, '"')
		j.b = pgvalue.AppendLSN(j.b, m.LSN)
		j.b = append(j.b, '"')
	}
	if m.HasXid {
		j.key(d, false, "xid")
		j.uint(uint64(m.Xid))
	}
	if m.Line != 0 {
		j.key(d, false, "line")
		j.int(int64(m.Line))
	}
	if m.Frame != 0 {
		j.key(d, false, "frame")
		j.int(int64(m.Frame))
	}
	if m.Time != 0 {
		j.key(d, false, "time")
		j.b = append(j.b, '"')
		j.b = pgvalue.AppendUnixNano(j.b, m.Time)
		j.b = append(j.b, '"')
	}
	if m.Conn != 0 {
		j.key(d, false, "connection")
		j.int(int64(m.Conn))
	}
	if m.Lost != 0 {
		j.key(d, false, "lost_before")
		j.int(int64(m.Lost))
	}
	switch m.Side {
	case decoder.Frontend:
		j.key(d, false, "direction")
		j.str("client_to_server")
	case decoder.Backend:
		j.key(d, false, "direction")
		j.str("server_to_client")
	}
	switch {
	case t.Type != 0:
		j.key(d, false, "type")
		j.str(decoder.MessageName(t.Type))
	case t.Message < 0 && len(t.Nodes) > 0:
		j.key(d, false, "type")
		j.str(t.Nodes[0].Field.Info().Name)
	}
	if t.Relation != nil {
		j.key(d, false, "relation")
		j.str(t.Relation.QualifiedName())
	}
	if notes := t.Notes(); len(notes) > 0 {
		j.key(d, false, "notes")
		j.stringArray(d+1, notes)
	}
	if t.MissingRelation != 0 {
		j.key(d, false, "missing_relation")
		j.uint(uint64(t.MissingRelation))
	}
	j.key(d, false, "hex")
	j.b = append(j.b, '"')
	j.hex(t.Bytes)
	j.b = append(j.b, '"')
	j.key(d, false, "tree")
	j.tree(t, d)
	j.key(d, false, "error")
	if t.Err != nil {
		j.b = append(j.b, '{')
		j.key(d+1, true, "offset")
		j.int(int64(t.Err.Offset))
		j.key(d+1, false, "message")
		j.str(t.Err.Error())
		j.key(d+1, false, "kind")
		j.str(t.Err.Kind.Error())
		j.nl(d)
		j.b = append(j.b, '}')
	} else {
		j.b = append(j.b, "null"...)
	}
	j.nl(messageDepth)
	j.b = append(j.b, '}')
	if j.lines {
		j.b = append(j.b, '\n')
	}
	j.n++
	j.flush()
}

// tree appends the message's nodes, from pre-order to nested, as the value of a member at
// depth. A tree with more than one top-level node gets an "Input" root spanning all the bytes,
// so that "tree" is always one node whose leaves tile the message.
func (j *JSON) tree(t *decoder.Tree, depth int) {
	if len(t.Nodes) == 0 {
		j.b = append(j.b, "null"...)
		return
	}
	n0 := &t.Nodes[0]
	if int(n0.End) == len(t.Nodes) && n0.Offset == 0 && n0.Length == len(t.Bytes) {
		j.node(t, 0, depth)
		return
	}
	d := depth + 1
	j.b = append(j.b, '{')
	j.key(d, true, "name")
	j.str(InputRootName)
	j.key(d, false, "offset")
	j.b = append(j.b, '0')
	j.key(d, false, "length")
	j.int(int64(len(t.Bytes)))
	j.key(d, false, "format")
	j.b = append(j.b, `""`...)
	j.key(d, false, "value")
	j.b = append(j.b, "null"...)
	j.key(d, false, "children")
	j.b = append(j.b, '[')
	for i := 0; i < len(t.Nodes); i = int(t.Nodes[i].End) {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.nl(d + 1)
		j.node(t, i, d+1)
	}
	j.nl(d)
	j.b = append(j.b, ']')
	j.nl(depth)
	j.b = append(j.b, '}')
}

// node appends node i and its descendants as an object whose braces are at depth.
func (j *JSON) node(t *decoder.Tree, i, depth int) {
	n := &t.Nodes[i]
	info := n.Field.Info()
	d := depth + 1
	j.b = append(j.b, '{')
	j.key(d, true, "name")
	// The name: a column's name, else a position among siblings ("column 3"), else the field's.
	// renamed: the name is not the field's, which then follows as "field".
	renamed := false
	if wire := t.Name(i); wire != "" {
		j.str(wire)
		renamed = wire != info.Name
	} else if n.Index != 0 {
		// A position is formatted into a buffer kept for it: a Truncate has millions of them.
		j.label = t.AppendLabel(j.label[:0], i)
		j.strBytes(j.label)
		renamed = string(j.label) != info.Name
	} else {
		j.str(info.Name)
	}
	j.key(d, false, "offset")
	j.int(int64(n.Offset))
	j.key(d, false, "length")
	j.int(int64(n.Length))
	j.key(d, false, "format")
	j.b = append(j.b, '"')
	j.b = append(j.b, n.Format.String()...)
	j.b = append(j.b, '"')
	j.key(d, false, "value")
	x := j.value(t, i, d)
	if renamed {
		j.key(d, false, "field")
		j.str(info.Name)
	}
	if n.Index != 0 {
		j.key(d, false, "index")
		j.int(int64(n.Index))
	}
	if x.meaning != "" {
		j.key(d, false, "meaning")
		j.str(x.meaning)
	}
	if x.typ != "" {
		j.key(d, false, "type")
		j.str(x.typ)
	}
	if x.text != nil {
		j.key(d, false, "text")
		j.strBytes(x.text)
	}
	if x.invalidUTF8 {
		j.key(d, false, "invalid_utf8")
		j.b = append(j.b, "true"...)
	}
	if x.valueError != nil {
		j.key(d, false, "value_error")
		j.str(x.valueError.Error())
	}
	j.key(d, false, "children")
	if t.IsLeaf(i) {
		j.b = append(j.b, "[]"...)
	} else {
		j.b = append(j.b, '[')
		for c := i + 1; c < int(n.End); c = int(t.Nodes[c].End) {
			if c > i+1 {
				j.b = append(j.b, ',')
			}
			j.nl(d + 1)
			j.node(t, c, d+1)
		}
		j.nl(d)
		j.b = append(j.b, ']')
	}
	j.nl(depth)
	j.b = append(j.b, '}')
	j.maybeFlush()
}

// valueExtras are the keys that go with a node's value.
type valueExtras struct {
	meaning     string
	typ         string
	text        []byte // a logical message's content, when it is UTF-8
	invalidUTF8 bool
	valueError  error
}

// smallBinaryValue bounds the binary values written with pgvalue.AppendJSON rather than a piece
// at a time: scalars this short give at most a few hundred kilobytes of JSON (a numeric of
// weight 32767 is 131,072 digits).
const smallBinaryValue = 4 << 10

// value appends node i's value, typed, as the value of a member at depth, and returns the keys
// that go with it.
func (j *JSON) value(t *decoder.Tree, i, depth int) (x valueExtras) {
	n := &t.Nodes[i]
	v := t.ValueOf(i)
	info := n.Field.Info()
	switch v.Kind {
	case decoder.ValueUint:
		j.uint(v.Num)
		if n.Field == decoder.FieldRelationColumnTypeOID {
			x.meaning = pgvalue.TypeName(uint32(v.Num))
		}
	case decoder.ValueInt:
		j.int(int64(v.Num))
	case decoder.ValueLSN:
		j.b = append(j.b, '"')
		j.b = pgvalue.AppendLSN(j.b, v.Num)
		j.b = append(j.b, '"')
	case decoder.ValueTime:
		j.b = append(j.b, '"')
		j.b = pgvalue.AppendRFC3339(j.b, int64(v.Num))
		j.b = append(j.b, '"')
	case decoder.ValueChar:
		// A byte is read as its Latin-1 character, so every byte has a distinct string.
		j.scratch = utf8.AppendRune(j.scratch[:0], rune(byte(v.Num)))
		j.strBytes(j.scratch)
		if info.Kind == decoder.KindType {
			if i == t.Message && t.Type != 0 {
				x.meaning = decoder.MessageName(t.Type)
			} else if p := t.Parent(i); p >= 0 {
				x.meaning = t.Nodes[p].Field.Info().Name
			}
		} else {
			x.meaning = info.CodeName(v.Num)
		}
	case decoder.ValueFlags:
		j.uint(v.Num)
		x.meaning = flagNames(info, v.Num)
	case decoder.ValueString:
		b := t.ValueBytes(i)
		j.strBytes(b)
		x.invalidUTF8 = !utf8.Valid(b)
	case decoder.ValueBytes:
		b := t.ValueBytes(i)
		j.bytea(b)
		if n.Field == decoder.FieldMessageContent && utf8.Valid(b) {
			x.text = b
		}
	case decoder.ValueColumn:
		x.typ = columnType(t, i)
		b := t.ValueBytes(i)
		if !v.Binary() {
			j.strBytes(b)
			x.invalidUTF8 = !utf8.Valid(b)
			break
		}
		x.valueError = j.binary(v.TypeOID, b, depth)
	default:
		j.b = append(j.b, "null"...)
	}
	return x
}

// binary appends a binary column value typed as JSON (pgvalue.AppendJSON: arrays laid out one
// element a line below the member at depth), or, when the type has no codec here or the bytes
// do not fit it, as bytea hex, and then returns why.
func (j *JSON) binary(oid uint32, b []byte, depth int) error {
	prefix, indent := "", ""
	if !j.lines {
		j.scratch = j.scratch[:0]
		for range depth {
			j.scratch = append(j.scratch, jsonIndent...)
		}
		prefix, indent = string(j.scratch), jsonIndent
	}
	if len(b) <= smallBinaryValue && !isArrayType(oid) {
		out, ok, err := pgvalue.AppendJSON(j.b, oid, b, prefix, indent)
		if ok {
			j.b = out
			return nil
		}
		j.bytea(b)
		return err
	}
	// WriteJSON writes nothing when the value has no codec or does not fit its type.
	switch err := pgvalue.WriteJSON(j, oid, b, prefix, indent); {
	case err == nil || err == j.err:
		return nil
	case err == pgvalue.ErrNoCodec:
		j.bytea(b)
		return nil
	default:
		j.bytea(b)
		return err
	}
}

// isArrayType reports whether oid is a built-in array type.
func isArrayType(oid uint32) bool {
	t, ok := pgvalue.LookupType(oid)
	return ok && t.Elem != 0
}

// flagNames names the set bits of a flags value ("CASCADE|RESTART IDENTITY"), or the value's
// own name ("none", "transactional").
func flagNames(info *decoder.FieldInfo, v uint64) string {
	if name := info.CodeName(v); name != "" {
		return name
	}
	var b []byte
	rest := v
	for _, c := range info.Codes {
		if c.Code != 0 && v&c.Code == c.Code {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, c.Name...)
			rest &^= c.Code
		}
	}
	if rest != 0 && len(info.Codes) > 0 {
		if len(b) > 0 {
			b = append(b, '|')
		}
		b = append(b, "unknown bits"...)
	}
	return string(b)
}
