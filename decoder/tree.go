package decoder

import (
	"encoding/binary"

	"pgoutput-inspector/decoder/pgvalue"
)

// Format is a field's wire format, in the words of the PostgreSQL protocol documentation.
type Format uint8

// Wire formats. FormatGroup marks a node that only groups other nodes (a message, a tuple, a column).
const (
	FormatGroup  Format = iota
	FormatByte1         // Byte1: one byte, usually a literal character
	FormatInt8          // Int8: 8-bit integer
	FormatInt16         // Int16: 16-bit big-endian integer
	FormatInt32         // Int32: 32-bit big-endian integer
	FormatInt64         // Int64: 64-bit big-endian integer
	FormatString        // String: bytes terminated by one NUL
	FormatBytes         // Byte n: n raw bytes, n given by an earlier field
)

var formatNames = [...]string{"", "Byte1", "Int8", "Int16", "Int32", "Int64", "String", "Byte n"}

// String returns the protocol documentation's name for the format ("Int32", "Byte n"); "" for a group.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "?"
}

// ValueKind says how to read a Value (what Tree.ValueOf returns for a node).
type ValueKind uint8

// Value kinds.
const (
	ValueNone   ValueKind = iota // a group, or a field with nothing to show
	ValueUint                    // Num: an unsigned integer (count, length, Xid, OID)
	ValueInt                     // Num holds a signed integer (int64(Num)), e.g. a type modifier of -1
	ValueLSN                     // Num: a log sequence number, shown X/XXXXXXXX
	ValueTime                    // Num: int64 microseconds since 2000-01-01 00:00:00 UTC
	ValueChar                    // Num: a one-byte marker or type code; its meaning is in the field's Codes
	ValueFlags                   // Num: a bit set; its bits are named in the field's Codes
	ValueString                  // Tree.ValueBytes: a NUL-terminated string's bytes (without the NUL)
	ValueBytes                   // Tree.ValueBytes: raw bytes (a logical message's content, trailing bytes)
	ValueColumn                  // Tree.ValueBytes: a column value; TypeOID and ColumnKind say how to read it
)

// Value is a decoded field value, as Tree.ValueOf derives it from the bytes. Byte-string values
// are not copied: Tree.ValueBytes returns them as views into the decoded input.
type Value struct {
	Kind ValueKind
	// ColumnKind is 't' or 'b' for ValueColumn.
	ColumnKind byte
	// TypeOID is the column's type OID, for ValueColumn (0 when the Relation is not known).
	TypeOID uint32
	Num     uint64
}

// Binary reports whether v is a column value sent in binary (TupleData kind 'b'): the type's
// binary send format, read with the codec of TypeOID; otherwise a column value is text.
func (v Value) Binary() bool { return v.Kind == ValueColumn && v.ColumnKind == columnBinary }

// Node is one annotated byte range. Nodes live in a Tree in pre-order: a node's descendants
// follow it directly and end at index End.
//
// Nodes are small and hold no pointers, so decoding writes little memory: values, names and
// byte strings are derived from the bytes on demand (Tree.ValueOf, Tree.Label, Tree.Name,
// Tree.ValueBytes).
type Node struct {
	// Offset and Length locate the bytes in Tree.Bytes.
	Offset int
	Length int
	// End is the index in Tree.Nodes one past this node's last descendant.
	End int32
	// Index is a position among siblings of the same kind (column number from 1, relation number
	// in a Truncate), or 0.
	Index  int32
	Field  FieldID // what the bytes are: its description is Field.Info()
	Format Format
	Depth  uint8 // 0 for the outermost layer
}

// IsLeaf reports whether node i has no children.
func (t *Tree) IsLeaf(i int) bool { return int(t.Nodes[i].End) == i+1 }

// Tree is the annotated decode of one message (with any envelope around it).
type Tree struct {
	// Bytes is the decoded input; node offsets index it.
	Bytes []byte
	// Nodes in pre-order; Nodes[0] is the outermost layer (an envelope or the message).
	Nodes []Node
	// Err is the first problem met, or nil. Everything decoded before it is in Nodes.
	Err *Error
	// Message is the index in Nodes of the pgoutput message (inside any envelope), or -1 when
	// the input is an envelope without one (a keepalive) or nothing could be decoded.
	Message int
	// Type is the pgoutput message type byte, or 0.
	Type byte
	// Reading says how context-dependent choices were made for this message.
	Reading Reading
	// Relation is the Relation message (seen earlier in the session) that named and typed the
	// columns of this change, or nil.
	Relation *Relation
	// MissingRelation is the relation OID of a change whose Relation message the session has not
	// seen, so its columns are labelled by position only; 0 otherwise.
	MissingRelation uint32
	// Index is the message's index in its session's stream, from 0: how many messages the
	// session decoded before it.
	Index int
	// RelationIndex is the Index of the Relation message that defined Relation as this message
	// was decoded (the latest one for its OID), or -1 (none, or one before the input:
	// Session.Learn).
	RelationIndex int
	// Side is who sent the message, when its conversation is known (Conversation.Decode).
	Side Side
	// Wire describes the frontend/backend protocol message the tree holds, or is nil: a
	// replication message (CopyData included, when a Session decoded it).
	Wire *WireType
	// Columns are the columns a DataRow's or a COPY row's values belong to, as the
	// RowDescription or the COPY command before it named them, or nil.
	Columns []Column
	// msg describes the message type, or is nil.
	msg *MessageType
	// rels holds, for each relation OID of a Truncate in order, the Relation the session knew
	// for it, or nil; types, for each column of a Relation message in order, the Type message
	// the session knew for the column's type OID, or nil. Their storage is reused.
	rels  []*Relation
	types []*DataType
}

// MessageType describes the pgoutput message's type, or returns nil when the tree holds none.
func (t *Tree) MessageType() *MessageType { return t.msg }

// Role is the message's place in a transaction: whether it opens or closes a block, of which
// kind. It is RoleNone when the tree holds no pgoutput message.
func (t *Tree) Role() Role {
	if t.msg == nil {
		return RoleNone
	}
	return t.msg.Role
}

// Xid returns the message's transaction xid: the Xid field of Begin, Stream Start, Stream
// Commit, Stream Abort (the top-level transaction's) and the two-phase messages, or the Xid a
// change, Relation, Type or Message carries inside a streamed transaction's block. ok is false
// when the message carries none (Commit, Origin, Stream Stop, a change outside a stream) or
// was cut before it.
func (t *Tree) Xid() (xid uint32, ok bool) {
	if t.msg == nil || t.msg.Xid == FieldUnknown {
		return 0, false
	}
	i := t.Find(t.Message, t.msg.Xid)
	if i < 0 {
		return 0, false
	}
	return uint32(t.ValueOf(i).Num), true
}

// EndsTransaction reports whether a message that ends a streamed or prepared transaction
// (RoleStreamEnd, RolePreparedEnd) ends the whole transaction. Every one does but a Stream
// Abort of one of its subtransactions (Subtransaction Xid not the Xid), after which the
// transaction streams on. False for other roles, and for a message cut before its xids.
func (t *Tree) EndsTransaction() bool {
	r := t.Role()
	if r != RoleStreamEnd && r != RolePreparedEnd {
		return false
	}
	xid, ok := t.Xid()
	if !ok {
		return false
	}
	if t.msg.Group != FieldStreamAbort {
		return true
	}
	sub := t.Find(t.Message, FieldStreamAbortSubXid)
	return sub >= 0 && uint32(t.ValueOf(sub).Num) == xid
}

// Parent returns the index of the group node that holds node i, or -1 for a node at depth 0.
func (t *Tree) Parent(i int) int {
	d := t.Nodes[i].Depth
	for j := i - 1; j >= 0; j-- {
		if t.Nodes[j].Depth < d {
			return j
		}
	}
	return -1
}

// Find returns the index of the first node inside node i (not i itself) whose field is f, or -1.
// It is how code asks for a field by name instead of counting positions.
func (t *Tree) Find(i int, f FieldID) int {
	if i < 0 || i >= len(t.Nodes) {
		return -1
	}
	for j := i + 1; j < int(t.Nodes[i].End); j++ {
		if t.Nodes[j].Field == f {
			return j
		}
	}
	return -1
}

// RelationOf returns the Relation the session knew, when the message was decoded, for the
// relation OID in node i: a change's Relation OID (Tree.Relation) or one of a Truncate's. It
// returns nil for other nodes, and for an OID whose Relation message had not come.
func (t *Tree) RelationOf(i int) *Relation {
	n := &t.Nodes[i]
	switch n.Field {
	case FieldInsertRelationOID, FieldUpdateRelationOID, FieldDeleteRelationOID:
		return t.Relation
	case FieldTruncateRelationOID:
		if k := int(n.Index) - 1; k >= 0 && k < len(t.rels) {
			return t.rels[k]
		}
	}
	return nil
}

// TypeNameOf names the type OID in node i, a Relation message column's Type OID: the built-in
// type's name ("int4", "varchar[]"), or namespace.name from a Type message the session had
// seen when the message was decoded (the name alone in pg_catalog). It returns "" for other
// nodes and for types not known.
func (t *Tree) TypeNameOf(i int) string {
	n := &t.Nodes[i]
	if n.Field != FieldRelationColumnTypeOID {
		return ""
	}
	oid := uint32(t.ValueOf(i).Num)
	if name := pgvalue.TypeName(oid); name != "" {
		return name
	}
	if p := t.Parent(i); p >= 0 {
		if k := int(t.Nodes[p].Index) - 1; k >= 0 && k < len(t.types) && t.types[k] != nil {
			dt := t.types[k]
			if dt.Namespace == "" {
				return dt.Name
			}
			return dt.Namespace + "." + dt.Name
		}
	}
	return ""
}

// Reading records a choice between ways of reading the same bytes.
type Reading struct {
	// InStream: the message was read as inside Stream Start … Stream Stop (Xid field present).
	InStream bool
	// ParallelAbort: a Stream Abort was read with the abort LSN and timestamp (streaming=parallel).
	ParallelAbort bool
	// Envelope is the outermost envelope's type byte ('d' CopyData, 'w' XLogData, 'k', 'r', 'h'), or 0.
	Envelope byte
	// Guessed: the choice was not fixed by options or by earlier messages; the bytes decided.
	Guessed bool
	// AlsoFit: another reading also consumed exactly all the bytes without error.
	AlsoFit bool
	// Note explains the choice in a sentence, or is empty when nothing had to be chosen.
	Note string
	// Proto is the protocol version in force when the message was decoded (given in Options or
	// inferred from earlier messages), or 0 when not known; ProtoSet says it was given.
	Proto    int
	ProtoSet bool
}

// Column returns the Relation column behind node i: a TupleData column group or any node inside
// one (its kind, length, value). It returns nil for other nodes, and when the Relation is not
// known or has fewer columns.
func (t *Tree) Column(i int) *Column {
	if t.Columns != nil {
		return t.resultColumn(i)
	}
	if t.Relation == nil {
		return nil
	}
	for i >= 0 {
		n := &t.Nodes[i]
		switch n.Field {
		case FieldTupleColumn:
			if n.Index < 1 || int(n.Index) > len(t.Relation.Columns) {
				return nil
			}
			return &t.Relation.Columns[n.Index-1]
		case FieldColumnKind, FieldColumnLength, FieldColumnValue:
			i = t.Parent(i)
		default:
			return nil
		}
	}
	return nil
}

// resultColumn returns the column of a DataRow's or a COPY row's value: its column group or a
// node inside one, or the value itself (COPY's text format), from Tree.Columns.
func (t *Tree) resultColumn(i int) *Column {
	for i >= 0 {
		n := &t.Nodes[i]
		switch n.Field {
		case FieldDataRowColumn, FieldCopyField, FieldCopyValue:
			if n.Index < 1 || int(n.Index) > len(t.Columns) {
				return nil
			}
			return &t.Columns[n.Index-1]
		case FieldDataRowLength, FieldDataRowValue, FieldCopyFieldLength, FieldCopyFieldValue:
			i = t.Parent(i)
		default:
			return nil
		}
	}
	return nil
}

// Notes returns sentences a person should read with the tree: how an ambiguous message was read,
// and which Relation message is missing.
func (t *Tree) Notes() []string {
	var notes []string
	if t.Reading.Note != "" {
		notes = append(notes, t.Reading.Note)
	}
	notes = t.appendVersionNotes(notes)
	if t.MissingRelation != 0 {
		b := []byte("No Relation message for relation OID ")
		b = appendInt(b, int(t.MissingRelation))
		b = append(b, " came earlier in this input, so columns are labelled by position and their types are unknown."...)
		notes = append(notes, string(b))
	} else if t.Relation != nil {
		for i := range t.Nodes {
			if t.Nodes[i].Field == FieldTupleColumnCount && int(t.ValueOf(i).Num) != len(t.Relation.Columns) {
				b := []byte("A TupleData has ")
				b = appendInt(b, int(t.ValueOf(i).Num))
				b = append(b, " columns but the Relation message for "...)
				b = pgvalue.AppendSafe(b, t.Relation.Name)
				b = append(b, " lists "...)
				b = appendInt(b, len(t.Relation.Columns))
				b = append(b, '.')
				notes = append(notes, string(b))
				break
			}
		}
	}
	return notes
}

// appendVersionNotes says what in the message does not exist at the protocol version that was
// set (Options.Proto): the message type, or a field read because an option said so; and, for a
// Stream Abort read without the parallel fields, that 16 trailing bytes look like them.
func (t *Tree) appendVersionNotes(notes []string) []string {
	p := t.Reading.Proto
	if t.Reading.ProtoSet && p > 0 {
		if t.msg != nil && int(t.msg.Proto) > p {
			notes = append(notes, string(appendExistsFrom(nil, t.msg.Name(), t.msg.Group.Info(), p)))
		} else {
			for i := range t.Nodes {
				if info := t.Nodes[i].Field.Info(); int(info.Proto) > p {
					notes = append(notes, string(appendExistsFrom(nil, info.Name+" ("+info.Of+")", info, p)))
					break
				}
			}
		}
	}
	if t.msg != nil && t.msg.ParallelFields && !t.Reading.ParallelAbort && t.Err != nil && t.Err.Kind == ErrTrailing {
		if off := t.Err.Offset; len(t.Bytes)-off == 16 {
			lsn := binary.BigEndian.Uint64(t.Bytes[off:])
			ts := int64(binary.BigEndian.Uint64(t.Bytes[off+8:]))
			b := []byte("The 16 trailing bytes have the layout of the abort LSN and abort timestamp that a Stream Abort carries with streaming = parallel (protocol 4): they read as ")
			b = pgvalue.AppendLSN(b, lsn)
			b = append(b, " and "...)
			b = pgvalue.AppendRFC3339(b, ts)
			if ts < 0 || ts > 100*365*24*3600*1e6 {
				b = append(b, ", which is not a plausible time, so they may be something else"...)
			}
			switch {
			case t.Reading.ProtoSet && p > 0 && p < int(FieldStreamAbortLSN.Info().Proto):
				b = append(b, ". The protocol version is set to "...)
				b = appendInt(b, p)
				b = append(b, ", which has no such fields."...)
			default:
				b = append(b, ". The stream abort option says they are absent."...)
			}
			notes = append(notes, string(b))
		}
	}
	return notes
}

// appendExistsFrom appends "Stream Start exists from protocol version 2 (PostgreSQL 14); the
// protocol version is set to 1."
func appendExistsFrom(b []byte, what string, info *FieldInfo, p int) []byte {
	b = pgvalue.AppendSafe(b, what)
	b = append(b, " exists from protocol version "...)
	b = appendInt(b, int(info.Proto))
	b = append(b, " (PostgreSQL "...)
	b = appendInt(b, int(info.Since))
	b = append(b, "); the protocol version is set to "...)
	b = appendInt(b, p)
	return append(b, '.')
}

// ValueBytes returns node i's byte-string value as a view into t.Bytes: a String without its
// NUL, raw bytes, a column value. It returns nil for other values.
func (t *Tree) ValueBytes(i int) []byte {
	n := &t.Nodes[i]
	switch valueKind(n.Field) {
	case ValueString:
		if n.Format != FormatString {
			return t.Bytes[n.Offset : n.Offset+n.Length : n.Offset+n.Length]
		}
		return t.Bytes[n.Offset : n.Offset+n.Length-1 : n.Offset+n.Length-1]
	case ValueBytes, ValueColumn:
		return t.Bytes[n.Offset : n.Offset+n.Length : n.Offset+n.Length]
	}
	return nil
}

// Name returns the name a column group node carries: a TupleData column's name from its
// Relation message, or a Relation message column's own name. It returns "" for other nodes and
// for columns of relations not known.
func (t *Tree) Name(i int) string {
	return string(t.appendName(nil, i))
}

func (t *Tree) appendName(b []byte, i int) []byte {
	n := &t.Nodes[i]
	switch n.Field {
	case FieldTupleColumn, FieldDataRowColumn, FieldCopyField, FieldCopyValue:
		if c := t.Column(i); c != nil {
			return append(b, c.Name...)
		}
	case FieldRelationColumn:
		for j := i + 1; j < int(n.End); j++ {
			if t.Nodes[j].Field == FieldRelationColumnName {
				return append(b, t.ValueBytes(j)...)
			}
		}
	}
	return b
}

// ValueOf derives node i's value from its bytes and its field.
func (t *Tree) ValueOf(i int) Value {
	n := &t.Nodes[i]
	v := Value{Kind: valueKind(n.Field)}
	switch n.Format {
	case FormatByte1, FormatInt8, FormatInt16, FormatInt32, FormatInt64:
		for _, c := range t.Bytes[n.Offset : n.Offset+n.Length] {
			v.Num = v.Num<<8 | uint64(c)
		}
		if v.Kind == ValueInt && n.Format == FormatInt16 {
			v.Num = uint64(int64(int16(v.Num)))
		} else if v.Kind == ValueInt {
			v.Num = uint64(int64(int32(v.Num)))
		}
	}
	if v.Kind == ValueColumn {
		// The column group holds the kind byte; the Relation column gives the type.
		if k := t.Find(t.Parent(i), FieldColumnKind); k >= 0 {
			v.ColumnKind = t.Bytes[t.Nodes[k].Offset]
		}
		if c := t.Column(i); c != nil {
			v.TypeOID = c.TypeOID
		}
	}
	return v
}
