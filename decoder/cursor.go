package decoder

import (
	"encoding/binary"
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// maxDepth bounds the nesting of layers: CopyData, XLogData, message, tuple, column.
const maxDepth = 8

// cursor reads fields in the protocol's words. Every read checks bounds in one place, records a
// node and advances; after the first failure the error is sticky and reads record nothing.
type cursor struct {
	t *Tree
	// nodes is the tree's nodes while the cursor writes them; decode hands them to the tree.
	nodes []Node
	b     []byte
	pos   int
	end   int // reads stop here: the end of the innermost length-delimited layer
	depth uint8
	open  [maxDepth]int32 // node indices of the open groups, -1 when not recorded
	// err is set by the first failure, and then stops every read. It points to failed, whose
	// Path and Detail are filled in only when the decode is kept (not while probing a reading).
	err    *Error
	failed Error
	detail detail
	probe  bool
}

func (c *cursor) reset(t *Tree, b []byte) {
	c.t, c.nodes, c.b, c.pos, c.end, c.depth, c.err, c.probe = t, t.Nodes[:0], b, 0, len(b), 0, nil, false
}

// set writes a node in place, the one place that knows a node's layout: a node built on the
// stack and copied into the slice costs more than reading the field it describes. A leaf at
// index i ends at i+1 and has no Index; a group's end and length are written when it closes.
func (p *Node) set(f FieldID, format Format, pos, n int, end, index int32, d uint8) {
	p.Offset, p.Length, p.End, p.Index, p.Field, p.Format, p.Depth = pos, n, end, index, f, format, d
}

func (c *cursor) remaining() int { return c.end - c.pos }

// reserve makes room for n more nodes, n a count read from the wire and already checked against
// the bytes that remain: a list of millions of fields is allocated once, not grown by copies
// whose old arrays stay until the collector runs. A probe keeps no nodes and reserves nothing.
func (c *cursor) reserve(n int) {
	if c.probe || c.err != nil || cap(c.nodes)-len(c.nodes) >= n {
		return
	}
	c.grow(n)
}

// grow makes room for n more nodes. Kept out of line: the reads that write several nodes at
// once call it when the room is not there, which is seldom, and each inlined copy would add
// its allocation and copy to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (c *cursor) grow(n int) {
	size := len(c.nodes) + n
	if grown := 2 * cap(c.nodes); grown > size && cap(c.nodes) < reserveDoubling {
		size = grown
	}
	nodes := make([]Node, len(c.nodes), size)
	copy(nodes, c.nodes)
	c.nodes = nodes
}

// reserveDoubling: below this many nodes reserve grows the slice as append would (a reused tree
// then rarely grows again); above it, by exactly what is needed.
const reserveDoubling = 1 << 16

// push opens a group node at the current position; pop writes its length and end.
func (c *cursor) push(f FieldID, index int32) {
	idx := int32(-1)
	if c.err == nil && !c.probe {
		idx = int32(len(c.nodes))
		c.put(f, FormatGroup, 0)
		c.nodes[idx].Index = index
	}
	if int(c.depth) < maxDepth {
		c.open[c.depth] = idx
	}
	c.depth++
}

// head opens a group, as push does, and reads its first field, an integer of n bytes (1 or
// 2), as integer does, in one call: a message's type byte, a TupleData's column count and a
// Relation column's flags each open their group. When the field's bytes and the nodes' room
// are there, it writes both nodes at once.
func (c *cursor) head(group FieldID, index int32, f FieldID, format Format, n int) (uint64, bool) {
	i, pos, d := len(c.nodes), c.pos, c.depth
	if c.err != nil || c.probe || c.end-pos < n || cap(c.nodes)-i < 2 || int(d) >= maxDepth {
		c.push(group, index)
		return c.integer(f, format, n)
	}
	v := uint64(c.b[pos])
	if n == 2 {
		v = v<<8 | uint64(c.b[pos+1])
	}
	c.open[d] = int32(i)
	c.nodes = c.nodes[:i+2]
	c.nodes[i].set(group, FormatGroup, pos, 0, int32(i+1), index, d)
	c.nodes[i+1].set(f, format, pos, n, int32(i+2), 0, d+1)
	c.depth = d + 1
	c.pos = pos + n
	return v, true
}

// pop closes the innermost open group at the current position.
func (c *cursor) pop() {
	c.depth--
	if int(c.depth) >= maxDepth {
		return
	}
	if idx := c.open[c.depth]; idx >= 0 {
		if c.err != nil && int(idx) == len(c.nodes)-1 {
			// A group the error left empty (nothing remained to mark undecoded) is dropped.
			c.nodes = c.nodes[:idx]
			return
		}
		n := &c.nodes[idx]
		n.Length = c.pos - n.Offset
		n.End = int32(len(c.nodes))
	}
}

func valueKind(f FieldID) ValueKind {
	switch f {
	case FieldRelationColumnTypeModifier, FieldRowDescriptionTypeSize, FieldRowDescriptionTypeModifier,
		FieldDataRowLength, FieldBindParameterLength, FieldFunctionArgLength, FieldFunctionResultLength,
		FieldCopyFieldLength, FieldSASLLength, FieldCopyTrailer:
		return ValueInt
	case FieldColumnValue:
		return ValueColumn
	}
	switch f.Info().Kind {
	case KindLSN:
		return ValueLSN
	case KindTime:
		return ValueTime
	case KindType, KindMarker:
		return ValueChar
	case KindFlags:
		return ValueFlags
	case KindString:
		return ValueString
	case KindValue, KindUndecoded:
		if f == FieldUnknownType {
			return ValueChar
		}
		return ValueBytes
	case KindGroup:
		return ValueNone
	}
	return ValueUint
}

// put records the leaf of field f, n bytes at the current position, and advances past it. The
// hot reads (push and the integers) have it inlined: on WebAssembly a call costs more than
// the stores. A probe keeps only the last node: the field just read, which the reads after it
// may look at (invalid, a Truncate's relation number), so probing a message of millions of
// fields costs no memory per field.
func (c *cursor) put(f FieldID, format Format, n int) {
	i := len(c.nodes)
	if c.probe {
		i = 0
	}
	if i == cap(c.nodes) {
		c.nodes = append(c.nodes, Node{})
	}
	c.nodes = c.nodes[:i+1]
	c.nodes[i].set(f, format, c.pos, n, int32(i+1), 0, c.depth)
	c.pos += n
}

// leaf is put called out of line, for the reads a message makes few of (strings, byte strings,
// what is undecoded or trailing): each inlined copy of put is about 700 bytes of main.wasm.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (c *cursor) leaf(f FieldID, format Format, n int) { c.put(f, format, n) }

// have checks that n bytes remain for field f, failing the cursor when they do not.
func (c *cursor) have(f FieldID, n int) bool {
	if c.err != nil {
		return false
	}
	if c.remaining() < n {
		c.fail(ErrTruncated, f, n, detail{})
		return false
	}
	return true
}

// integer reads a big-endian unsigned integer of n bytes (1, 2, 4 or 8) as field f: the one
// reader behind Byte1, Int8, Int16, Int32 and Int64, which are inlined into their callers, so
// that reading an integer field is one call.
func (c *cursor) integer(f FieldID, format Format, n int) (uint64, bool) {
	if c.err != nil || c.end-c.pos < n {
		c.have(f, n)
		return 0, false
	}
	var v uint64
	switch b := c.b[c.pos:]; n {
	case 1:
		v = uint64(b[0])
	case 2:
		v = uint64(binary.BigEndian.Uint16(b))
	case 4:
		v = uint64(binary.BigEndian.Uint32(b))
	default:
		v = binary.BigEndian.Uint64(b)
	}
	c.put(f, format, n)
	return v, true
}

// Byte1 reads one byte (a type code or a marker).
func (c *cursor) Byte1(f FieldID) (byte, bool) {
	v, ok := c.integer(f, FormatByte1, 1)
	return byte(v), ok
}

// Int8 reads an 8-bit integer.
func (c *cursor) Int8(f FieldID) (uint8, bool) {
	v, ok := c.integer(f, FormatInt8, 1)
	return uint8(v), ok
}

// Int16 reads a 16-bit big-endian integer.
func (c *cursor) Int16(f FieldID) (uint16, bool) {
	v, ok := c.integer(f, FormatInt16, 2)
	return uint16(v), ok
}

// Int32 reads a 32-bit big-endian integer.
func (c *cursor) Int32(f FieldID) (uint32, bool) {
	v, ok := c.integer(f, FormatInt32, 4)
	return uint32(v), ok
}

// SignedInt32 reads a 32-bit integer shown as signed (a type modifier).
func (c *cursor) SignedInt32(f FieldID) (int32, bool) {
	v, ok := c.integer(f, FormatInt32, 4)
	return int32(v), ok
}

// Int64 reads a 64-bit big-endian integer (an LSN or a timestamp).
func (c *cursor) Int64(f FieldID) (uint64, bool) { return c.integer(f, FormatInt64, 8) }

// String reads a NUL-terminated string; the node covers the NUL, the value does not.
func (c *cursor) String(f FieldID) ([]byte, bool) {
	if c.err != nil {
		return nil, false
	}
	rest := c.b[c.pos:c.end]
	for i, ch := range rest {
		if ch == 0 {
			c.leaf(f, FormatString, i+1)
			return rest[:i:i], true
		}
	}
	// At least all that remains and a zero byte.
	c.fail(ErrUnterminated, f, len(rest)+1, detail{form: detailBytes, num: len(rest)})
	return nil, false
}

// Bytes reads n raw bytes.
func (c *cursor) Bytes(f FieldID, n int) ([]byte, bool) {
	if !c.have(f, n) {
		return nil, false
	}
	p := c.b[c.pos : c.pos+n : c.pos+n]
	c.leaf(f, FormatBytes, n)
	return p, true
}

// invalid fails the cursor on the field just read (the last node), which holds a value the
// protocol does not allow here. The node stays; the bytes after it become undecoded.
func (c *cursor) invalid(d detail) {
	if c.err != nil {
		return
	}
	if len(c.nodes) == 0 {
		// A probe that read the field in one step with others (fixed) kept no node of it: only
		// the failure matters to it.
		c.failAt(ErrInvalid, FieldUndecoded, c.pos, 0, d)
		return
	}
	n := c.nodes[len(c.nodes)-1]
	c.failAt(ErrInvalid, n.Field, n.Offset, 0, d)
}

func (c *cursor) fail(kind error, f FieldID, need int, d detail) {
	c.failAt(kind, f, c.pos, need, d)
}

// failAt records the error and covers every byte not yet decoded with one Undecoded node.
func (c *cursor) failAt(kind error, f FieldID, off, need int, d detail) {
	if c.err != nil {
		return
	}
	c.failed = Error{Kind: kind, Offset: off, Field: f, Need: need, Left: c.end - off}
	if !c.probe {
		c.failed.Path = c.path()
	}
	c.detail = d
	c.err = &c.failed
	if c.pos < len(c.b) {
		c.leaf(FieldUndecoded, FormatBytes, len(c.b)-c.pos)
	}
	c.end = len(c.b)
}

// path names the open groups, outermost first: "XLogData: Update: New tuple: column 3 (id)".
func (c *cursor) path() string {
	var b []byte
	for d := 0; d < int(c.depth) && d < maxDepth; d++ {
		idx := c.open[d]
		if idx < 0 {
			continue
		}
		if len(b) > 0 {
			b = append(b, ": "...)
		}
		// An open group's End is written when it closes (the node may hold a stale one from
		// an earlier decode into the same tree); its descendants so far are every node after it.
		c.nodes[idx].End = int32(len(c.nodes))
		c.t.Nodes = c.nodes
		b = c.t.appendNodeLabel(b, int(idx))
	}
	return string(b)
}

// appendInt is strconv.AppendInt kept out of line: error texts call it from many places, and
// each inlined copy of AppendInt's fast path would add to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }

// appendNodeLabel appends the name a person would give node i: the field's name, a column's
// position and name ("column 3 (id)"), a relation OID's position in a Truncate. Names from the
// wire are escaped as AppendText escapes values.
func (t *Tree) appendNodeLabel(b []byte, i int) []byte {
	n := &t.Nodes[i]
	switch n.Field {
	case FieldTupleColumn, FieldRelationColumn, FieldDataRowColumn, FieldCopyField, FieldCopyValue:
		b = append(b, "column "...)
		b = appendInt(b, int(n.Index))
		mark := len(b)
		b = append(b, " ("...)
		if named := t.appendName(b, i); len(named) > len(b) {
			return append(pgvalue.EscapeTail(named, len(b)), ')')
		}
		return b[:mark]
	case FieldTruncateRelationOID:
		b = append(b, "relation "...)
		return appendInt(b, int(n.Index))
	case FieldNoticeField:
		// Named by its type byte: "Message", "SQLSTATE".
		if i+1 < len(t.Nodes) && t.Nodes[i+1].Field == FieldNoticeFieldCode {
			if name := FieldNoticeFieldCode.Info().CodeName(uint64(t.Bytes[t.Nodes[i+1].Offset])); name != "" {
				return append(b, name...)
			}
		}
	case FieldStartupParameter:
		if i+1 < len(t.Nodes) && t.Nodes[i+1].Field == FieldStartupName {
			return pgvalue.EscapeTail(append(b, t.ValueBytes(i+1)...), len(b))
		}
	}
	return append(b, n.Field.Info().Name...)
}

// Label returns the name a person would give node i ("Begin", "column 3 (id)", "Final LSN").
func (t *Tree) Label(i int) string { return string(t.appendNodeLabel(nil, i)) }
