package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dump"
)

// refWriter is decode --json as it was written with encoding/json, before the append-based
// writer: the reference the writer is compared with, in output and in speed.
//
// The JSON document of decode --json is a public interface, documented in docs/cli.md: keys
// are added only with documentation, never renamed or removed. refWriter writes the document
// ("format", "header", "messages") one message at a time; struct field order is key order.

type refMessage struct {
	Index           int       `json:"index"`
	LSN             string    `json:"lsn,omitempty"`
	Xid             *uint32   `json:"xid,omitempty"`
	Line            int       `json:"line,omitempty"`
	Frame           int       `json:"frame,omitempty"`
	Time            string    `json:"time,omitempty"`
	Connection      int       `json:"connection,omitempty"`
	LostBefore      int       `json:"lost_before,omitempty"`
	Direction       string    `json:"direction,omitempty"`
	Type            string    `json:"type,omitempty"`
	Relation        string    `json:"relation,omitempty"`
	Notes           []string  `json:"notes,omitempty"`
	MissingRelation uint32    `json:"missing_relation,omitempty"`
	Hex             string    `json:"hex"`
	Tree            *refNode  `json:"tree"`
	Error           *refError `json:"error"`
}

type refError struct {
	Offset  int    `json:"offset"`
	Message string `json:"message"`
	Kind    string `json:"kind"`
}

type refNode struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Format string `json:"format"`
	Value  any    `json:"value"`
	// Extra keys, present only where they apply.
	Field       string     `json:"field,omitempty"`
	Index       int32      `json:"index,omitempty"`
	Meaning     string     `json:"meaning,omitempty"`
	Type        string     `json:"type,omitempty"`
	Text        *string    `json:"text,omitempty"`
	InvalidUTF8 bool       `json:"invalid_utf8,omitempty"`
	ValueError  string     `json:"value_error,omitempty"`
	Children    []*refNode `json:"children"`
}

// refWriter writes the document one message at a time, laid out as encoding/json's
// Encoder with a two-space indent lays out the whole document.
type refWriter struct {
	w   io.Writer
	n   int // messages written
	buf bytes.Buffer
	err error
	// comments are a capture file's "#" lines that came between messages of a text read piece
	// by piece, written after the messages.
	comments []refComment
	// lateErrors are the errors met reading an input in pieces, written after the messages.
	lateErrors []*input.Error
	// conns are a capture's connections, written after the messages.
	conns []refConnection
	// keepObjects makes encode lay out what encoding/json's Marshal writes with indentJSON,
	// which writes the bytes json.Indent writes (TestIndentJSON) without json's scanner, and
	// keeps each message's object as Marshal wrote it: message i's is
	// objects[objectEnds[i-1]:objectEnds[i]] (from 0 for the first). FuzzJSONWriter's
	// reference; without it, encode is the Encoder with SetIndent, as decode --json was.
	keepObjects bool
	objects     []byte
	objectEnds  []int
	compact     bytes.Buffer // a value as Marshal wrote it, before indentJSON
}

// refComment is a "#" line that came before the message with the given index.
type refComment struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
}

func (j *refWriter) write(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

// encode appends v's JSON to j.buf, indented to sit at the given depth of the document. With
// keepObjects it returns v's JSON as Marshal wrote it (valid until the next encode).
func (j *refWriter) encode(v any, prefix string) []byte {
	if !j.keepObjects {
		enc := json.NewEncoder(&j.buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil && j.err == nil {
			j.err = err
		}
		j.buf.Truncate(j.buf.Len() - 1) // Encode's newline
		return nil
	}
	// The Encoder with SetIndent does the same two steps: Marshal, then json.Indent.
	j.compact.Reset()
	enc := json.NewEncoder(&j.compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		if j.err == nil {
			j.err = err
		}
		return nil
	}
	compact := j.compact.Bytes()[:j.compact.Len()-1] // Encode's newline
	j.buf.Write(indentJSON(j.buf.AvailableBuffer(), compact, prefix, "  "))
	return compact
}

func (j *refWriter) Begin(res *input.Result, count int) {
	j.n, j.err, j.comments, j.lateErrors = 0, nil, j.comments[:0], j.lateErrors[:0]
	j.objects, j.objectEnds = j.objects[:0], j.objectEnds[:0]
	j.buf.Reset()
	j.buf.WriteString("{\n  \"format\": ")
	j.encode(string(res.Format), "  ")
	if res.Header != nil {
		j.buf.WriteString(",\n  \"header\": ")
		j.encode(res.Header, "  ")
	}
	// How the input was read, its other readings, and the places it could not be read.
	if len(res.Notes) > 0 {
		type note struct {
			Message *int   `json:"message"`
			Text    string `json:"text"`
		}
		ns := make([]note, len(res.Notes))
		for i, n := range res.Notes {
			ns[i].Text = n.Text
			if n.Message >= 0 {
				ns[i].Message = &res.Notes[i].Message
			}
		}
		j.buf.WriteString(",\n  \"input_notes\": ")
		j.encode(ns, "  ")
	}
	if len(res.Also) > 0 {
		type also struct {
			Format   string `json:"format"`
			Messages int    `json:"messages"`
			Note     string `json:"note"`
		}
		as := make([]also, len(res.Also))
		for i, a := range res.Also {
			as[i] = also{string(a.Format), a.Messages, a.Note}
		}
		j.buf.WriteString(",\n  \"also_possible\": ")
		j.encode(as, "  ")
	}
	if len(res.Errors) > 0 {
		j.writeInputErrors(res.Errors)
	}
	j.buf.WriteString(",\n  \"messages\": [")
	j.write(j.buf.Bytes())
}

func (j *refWriter) Message(index int, m *dump.Message) {
	j.buf.Reset()
	if j.n > 0 {
		j.buf.WriteByte(',')
	}
	j.buf.WriteString("\n    ")
	jm := refMessageJSON(index, m)
	object := j.encode(&jm, "    ")
	if j.keepObjects {
		j.objects = append(j.objects, object...)
		j.objectEnds = append(j.objectEnds, len(j.objects))
	}
	j.write(j.buf.Bytes())
	j.n++
}

// writeInputErrors appends the "input_errors" key to j.buf.
func (j *refWriter) writeInputErrors(errs []*input.Error) {
	type inputError struct {
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Offset  int    `json:"offset"`
		Message string `json:"message"`
	}
	es := make([]inputError, len(errs))
	for i, e := range errs {
		es[i] = inputError{e.Line, e.Column, e.Offset, e.Error()}
	}
	j.buf.WriteString(",\n  \"input_errors\": ")
	j.encode(es, "  ")
}

// inputErrors keeps the errors of an input read in pieces, met while reading it, for the end.
func (j *refWriter) InputErrors(errs []*input.Error) { j.lateErrors = append(j.lateErrors, errs...) }

func (j *refWriter) Comment(index int, text string) {
	j.comments = append(j.comments, refComment{Index: index, Text: text})
}

// refConnection is a capture's connection as "connections" writes it.
type refConnection struct {
	Connection    int             `json:"connection"`
	Client        string          `json:"client,omitempty"`
	Server        string          `json:"server,omitempty"`
	Kind          string          `json:"kind"`
	FirstFrame    int             `json:"first_frame"`
	LastFrame     int             `json:"last_frame"`
	Start         string          `json:"start,omitempty"`
	End           string          `json:"end,omitempty"`
	Messages      int             `json:"messages"`
	BytesToServer int             `json:"bytes_to_server"`
	BytesToClient int             `json:"bytes_to_client"`
	MidStream     bool            `json:"mid_stream"`
	Lost          int             `json:"lost_bytes,omitempty"`
	Encrypted     string          `json:"encrypted,omitempty"`
	Startup       *orderedObject  `json:"startup,omitempty"`
	ServerVersion string          `json:"server_version,omitempty"`
	Commands      []string        `json:"commands,omitempty"`
	Replication   *refReplication `json:"replication,omitempty"`
	Streaming     bool            `json:"streaming"`
	Errors        []string        `json:"errors,omitempty"`
	Outcome       string          `json:"outcome,omitempty"`
}

type refReplication struct {
	Command  string         `json:"command"`
	Slot     string         `json:"slot,omitempty"`
	Kind     string         `json:"kind,omitempty"`
	LSN      string         `json:"lsn,omitempty"`
	Timeline string         `json:"timeline,omitempty"`
	Options  *orderedObject `json:"options"`
}

// orderedObject is a JSON object whose members keep their order (and repeats), as names and
// values from the wire come.
type orderedObject []decoder.Parameter

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(p.Name)
		b.Truncate(b.Len() - 1)
		b.WriteByte(':')
		enc.Encode(p.Value)
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (j *refWriter) Connections(conns []dump.Connection) {
	j.conns = j.conns[:0]
	stamp := func(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02T15:04:05.000000Z") }
	for i, c := range conns {
		rc := refConnection{Connection: i + 1, Client: c.Client, Server: c.Server, Kind: c.Kind(), FirstFrame: c.FirstFrame,
			LastFrame: c.LastFrame, Messages: c.Messages, BytesToServer: c.ToServer, BytesToClient: c.ToClient,
			MidStream: c.MidStream, Lost: c.Lost, Encrypted: c.Connection.Encrypted, ServerVersion: c.ServerVersion,
			Streaming: c.Streaming, Errors: c.Errors, Outcome: c.Outcome()}
		if c.Start != 0 {
			rc.Start, rc.End = stamp(c.Start), stamp(c.End)
		}
		if len(c.Startup) > 0 {
			o := orderedObject(c.Startup)
			rc.Startup = &o
		}
		for _, cmd := range c.Commands {
			rc.Commands = append(rc.Commands, cmd.String())
		}
		if r := c.Replication; r != nil {
			o := orderedObject(r.Options)
			rc.Replication = &refReplication{Command: r.Command, Slot: r.Slot, Kind: r.Kind, LSN: r.LSN, Timeline: r.Timeline, Options: &o}
		}
		j.conns = append(j.conns, rc)
	}
}

func (j *refWriter) End(count int) error {
	if j.n > 0 {
		j.write([]byte("\n  ]"))
	} else {
		j.write([]byte("]"))
	}
	if len(j.lateErrors) > 0 {
		j.buf.Reset()
		j.writeInputErrors(j.lateErrors)
		j.write(j.buf.Bytes())
	}
	if len(j.conns) > 0 {
		j.buf.Reset()
		j.buf.WriteString(",\n  \"connections\": ")
		j.encode(j.conns, "  ")
		j.write(j.buf.Bytes())
	}
	if len(j.comments) > 0 {
		j.buf.Reset()
		j.buf.WriteString(",\n  \"comments\": ")
		j.encode(j.comments, "  ")
		j.write(j.buf.Bytes())
	}
	j.write([]byte("\n}\n"))
	return j.err
}

func refMessageJSON(index int, m *dump.Message) refMessage {
	t := m.Tree
	jm := refMessage{Index: index, Line: m.Line, Frame: m.Frame, Connection: m.Conn, LostBefore: m.Lost, Hex: hex.EncodeToString(t.Bytes),
		Notes: t.Notes(), MissingRelation: t.MissingRelation}
	if m.Time != 0 {
		jm.Time = time.Unix(0, m.Time).UTC().Format("2006-01-02T15:04:05.000000Z")
	}
	switch m.Side {
	case decoder.Frontend:
		jm.Direction = "client_to_server"
	case decoder.Backend:
		jm.Direction = "server_to_client"
	}
	if m.HasLSN {
		jm.LSN = pgvalue.FormatLSN(m.LSN)
	}
	if m.HasXid {
		xid := m.Xid
		jm.Xid = &xid
	}
	switch {
	case t.Type != 0:
		jm.Type = decoder.MessageName(t.Type)
	case t.Message < 0 && len(t.Nodes) > 0:
		jm.Type = t.Nodes[0].Field.Info().Name
	}
	if t.Relation != nil {
		jm.Relation = t.Relation.QualifiedName()
	}
	if t.Err != nil {
		jm.Error = &refError{Offset: t.Err.Offset, Message: t.Err.Error(), Kind: t.Err.Kind.Error()}
	}
	jm.Tree = refTreeJSON(t)
	return jm
}

// refTreeJSON converts the pre-order nodes to nested nodes. A tree with more than one top-level
// node gets an "Input" root spanning all the bytes, so that "tree" is always one node whose
// leaves tile the message.
func refTreeJSON(t *decoder.Tree) *refNode {
	if len(t.Nodes) == 0 {
		return nil
	}
	var roots []*refNode
	for i := 0; i < len(t.Nodes); i = int(t.Nodes[i].End) {
		roots = append(roots, refNodeJSON(t, i))
	}
	if len(roots) == 1 && roots[0].Offset == 0 && roots[0].Length == len(t.Bytes) {
		return roots[0]
	}
	return &refNode{Name: dump.InputRootName, Length: len(t.Bytes), Children: roots}
}

func refNodeJSON(t *decoder.Tree, i int) *refNode {
	n := &t.Nodes[i]
	info := n.Field.Info()
	jn := &refNode{Name: info.Name, Offset: n.Offset, Length: n.Length, Format: n.Format.String(),
		Children: []*refNode{}}
	if name := t.Name(i); name != "" {
		jn.Name = name
	} else if n.Index != 0 {
		jn.Name = t.Label(i)
	}
	if n.Index != 0 {
		jn.Index = n.Index
	}
	if jn.Name != info.Name {
		jn.Field = info.Name
	}
	refSetValue(t, i, jn)
	for c := i + 1; c < int(n.End); c = int(t.Nodes[c].End) {
		jn.Children = append(jn.Children, refNodeJSON(t, c))
	}
	return jn
}

// refSetValue fills in a node's value as typed JSON, and the extra keys that go with it.
func refSetValue(t *decoder.Tree, i int, jn *refNode) {
	n := &t.Nodes[i]
	val := t.ValueOf(i)
	v := &val
	b := t.ValueBytes(i)
	info := n.Field.Info()
	switch v.Kind {
	case decoder.ValueUint:
		jn.Value = v.Num
		if n.Field == decoder.FieldRelationColumnTypeOID {
			jn.Meaning = pgvalue.TypeName(uint32(v.Num))
		}
	case decoder.ValueInt:
		jn.Value = int64(v.Num)
	case decoder.ValueLSN:
		jn.Value = pgvalue.FormatLSN(v.Num)
	case decoder.ValueTime:
		jn.Value = string(pgvalue.AppendRFC3339(nil, int64(v.Num)))
	case decoder.ValueChar:
		// A byte is read as its Latin-1 character, so every byte has a distinct string.
		jn.Value = string(rune(byte(v.Num)))
		if info.Kind == decoder.KindType {
			if i == t.Message && t.Type != 0 {
				jn.Meaning = decoder.MessageName(t.Type)
			} else if p := t.Parent(i); p >= 0 {
				jn.Meaning = t.Nodes[p].Field.Info().Name
			}
		} else {
			jn.Meaning = info.CodeName(v.Num)
		}
	case decoder.ValueFlags:
		jn.Value = v.Num
		jn.Meaning = refFlagNames(info, v.Num)
	case decoder.ValueString:
		jn.Value, jn.InvalidUTF8 = refText(b)
	case decoder.ValueBytes:
		jn.Value = refBytea(b)
		if n.Field == decoder.FieldMessageContent && utf8.Valid(b) {
			s := string(b)
			jn.Text = &s
		}
	case decoder.ValueColumn:
		if c := t.Column(i); c != nil {
			jn.Type = c.TypeName
		}
		if v.ColumnKind == 'b' {
			val, ok, err := pgvalue.BinaryValue(v.TypeOID, b)
			switch {
			case err != nil:
				jn.Value = refBytea(b)
				jn.ValueError = err.Error()
			case ok:
				jn.Value = refBinary(val, refFloat4(v.TypeOID))
			default:
				jn.Value = refBytea(b)
			}
		} else {
			jn.Value, jn.InvalidUTF8 = refText(b)
		}
	}
}

// Type OIDs whose binary values are single-precision floats.
const (
	refFloat4OID   = 700
	refFloat4Array = 1021
)

func refFloat4(oid uint32) bool { return oid == refFloat4OID || oid == refFloat4Array }

// refBinary adjusts a pgvalue.BinaryValue for JSON: bytea (a []byte, which encoding/json
// would write as base64) becomes "\x…" hex like every other raw byte string, and a float4
// is written with the shortest digits that read back as the same float32 (1.1, not
// 1.100000023841858), as PostgreSQL prints it.
func refBinary(v any, float4 bool) any {
	switch v := v.(type) {
	case []byte:
		return refBytea(v)
	case float64:
		if float4 {
			return json.Number(strconv.FormatFloat(v, 'g', -1, 32))
		}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = refBinary(e, float4)
		}
		return out
	}
	return v
}

// text returns b as a JSON string value; invalid UTF-8 bytes become U+FFFD (encoding/json's
// rule), and the second result says so.
func refText(b []byte) (string, bool) {
	return string(b), !utf8.Valid(b)
}

// bytea writes raw bytes as PostgreSQL's bytea hex output, "\x0a1b".
func refBytea(b []byte) string {
	return `\x` + hex.EncodeToString(b)
}

// refFlagNames names the set bits of a flags value ("CASCADE|RESTART IDENTITY"), or the value's
// own name ("none", "transactional").
func refFlagNames(info *decoder.FieldInfo, v uint64) string {
	if name := info.CodeName(v); name != "" {
		return name
	}
	var names []string
	rest := v
	for _, c := range info.Codes {
		if c.Code != 0 && v&c.Code == c.Code {
			names = append(names, c.Name)
			rest &^= c.Code
		}
	}
	if rest != 0 && len(info.Codes) > 0 {
		names = append(names, "unknown bits")
	}
	return strings.Join(names, "|")
}
