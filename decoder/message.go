package decoder

import "encoding/binary"

// reading is one way of reading context-dependent bytes.
type reading struct {
	inStream bool // the Xid field of streamed changes is present
	parallel bool // a Stream Abort carries the abort LSN and timestamp
}

// message decodes one pgoutput message from the cursor's position to its end.
func (s *Session) message(c *cursor, rd reading) {
	typ := c.b[c.pos]
	mt := s.lookupType(typ)
	if mt == nil {
		c.leaf(FieldUnknownType, FormatByte1, 1)
		c.t.Message = len(c.nodes) - 1
		d := detail{form: detailChar, ch: typ}
		if !c.probe {
			d.text = s.table.expected()
		}
		c.failAt(ErrUnknownType, FieldUnknownType, c.pos-1, 0, d)
		return
	}
	c.t.Message = len(c.nodes)
	c.t.Type = typ
	c.t.msg = mt
	if fixed := s.fixed[s.index[typ]-1]; fixed != nil && c.err == nil && c.end-c.pos >= fixed[0].Length && (!rd.inStream || !mt.StreamXid) {
		if c.probe {
			c.pos += fixed[0].Length
			return
		}
		c.fixedMessage(fixed)
		return
	}
	c.head(mt.Group, 0, mt.TypeField, FormatByte1, 1)
	if rd.inStream && mt.StreamXid {
		c.Int32(FieldStreamXid)
	}
	if len(mt.Fields) > 0 && !c.fixed(mt.Fields) {
		c.fields(mt.Fields)
	}
	if mt.body != nil {
		mt.body(s, c, rd)
	}
	c.pop()
}

// fixedNodes returns the nodes of a message of fixed-size fields only (its group, type byte
// and fields) as they are for the message at offset 0 of a tree, at depth 0: decoding one copies
// them and moves them into place, without reading the field table.
func fixedNodes(mt *MessageType) []Node {
	nodes := make([]Node, 2+len(mt.Fields))
	nodes[0].set(mt.Group, FormatGroup, 0, 1+fixedSize(mt.Fields), int32(len(nodes)), 0, 0)
	nodes[1].set(mt.TypeField, FormatByte1, 0, 1, 2, 0, 1)
	pos := 1
	for k, f := range mt.Fields {
		format := f.Info().Format
		nodes[2+k].set(f, format, pos, format.Size(), int32(3+k), 0, 1)
		pos += format.Size()
	}
	return nodes
}

// fixedMessage writes a message of fixed fields only whose bytes are all there, from its
// nodes as fixedNodes gives them, in one step.
func (c *cursor) fixedMessage(fixed []Node) {
	i := len(c.nodes)
	if cap(c.nodes)-i < len(fixed) {
		c.grow(len(fixed))
	}
	c.nodes = c.nodes[:i+len(fixed)]
	nodes := c.nodes[i : i+len(fixed)]
	pos, d := c.pos, c.depth
	for k := range nodes {
		// Field by field, moved into place (an envelope's offset, nodes and depth before the
		// message): a copy of the whole node is a memory.copy on WebAssembly, a call that
		// costs more than the stores.
		f := &fixed[k]
		nodes[k].set(f.Field, f.Format, f.Offset+pos, f.Length, f.End+int32(i), f.Index, f.Depth+d)
	}
	c.pos += fixed[0].Length
}

// fixed writes the leaves of fields of a fixed size in one step when they all fit, and reports
// whether it did; a string among them, or too few bytes, is left to fields, which reads one
// field at a time and names the error. Begin and Commit, most of a stream's messages, are
// nothing else.
func (c *cursor) fixed(fs []FieldID) bool {
	if c.err != nil || len(fs) == 0 {
		return false
	}
	size := 0
	for _, f := range fs {
		n := f.Info().Format.Size()
		if n == 0 {
			return false
		}
		size += n
	}
	if c.end-c.pos < size {
		return false
	}
	if c.probe {
		c.pos += size
		return true
	}
	i := len(c.nodes)
	if cap(c.nodes)-i < len(fs) {
		c.grow(len(fs))
	}
	c.nodes = c.nodes[:i+len(fs)]
	pos, d := c.pos, c.depth
	for k, f := range fs {
		format := f.Info().Format
		n := format.Size()
		c.nodes[i+k].set(f, format, pos, n, int32(i+k+1), 0, d)
		pos += n
	}
	c.pos = pos
	return true
}

// lastValue returns the value of the last of fs, integer fields that fixed has just read.
func (c *cursor) lastValue(fs []FieldID) uint64 {
	n := fs[len(fs)-1].Info().Format.Size()
	var v uint64
	for _, b := range c.b[c.pos-n : c.pos] {
		v = v<<8 | uint64(b)
	}
	return v
}

// fields reads fixed-size fields and strings, each as its description's format says, and
// returns the value of the last integer read (a length that sizes what follows).
func (c *cursor) fields(fs []FieldID) (last uint64) {
	for _, f := range fs {
		switch f.Info().Format {
		case FormatByte1:
			v, _ := c.Byte1(f)
			last = uint64(v)
		case FormatInt8:
			v, _ := c.Int8(f)
			last = uint64(v)
		case FormatInt16:
			v, _ := c.Int16(f)
			last = uint64(v)
		case FormatInt32:
			v, _ := c.Int32(f)
			last = uint64(v)
		case FormatInt64:
			last, _ = c.Int64(f)
		case FormatString:
			c.String(f)
		}
	}
	return last
}

func logicalMessageBody(s *Session, c *cursor, rd reading) {
	c.Int8(FieldMessageFlags)
	c.Int64(FieldMessageLSN)
	c.String(FieldMessagePrefix)
	if n, ok := c.length(FieldMessageLength); ok {
		c.Bytes(FieldMessageContent, n)
	}
}

func insertBody(s *Session, c *cursor, rd reading) {
	rel, m, ok := s.change(c, FieldInsertRelationOID, FieldInsertNew, FieldInsertNew)
	if !ok {
		return
	}
	if m != 'N' {
		c.invalid(detail{text: "expected 'N' (new tuple), found ", form: detailChar, ch: m})
		return
	}
	s.tuple(c, FieldTupleNew, rel)
}

func updateBody(s *Session, c *cursor, rd reading) {
	const expected = "expected 'K' (old key), 'O' (old tuple) or 'N' (new tuple), found "
	rel, m, ok := s.change(c, FieldUpdateRelationOID, FieldUpdateOld, FieldUpdateNew)
	if !ok {
		return
	}
	switch m {
	case 'K':
		s.tuple(c, FieldTupleKey, rel)
	case 'O':
		s.tuple(c, FieldTupleOld, rel)
	case 'N':
		s.tuple(c, FieldTupleNew, rel)
		return
	default:
		c.invalid(detail{text: expected, form: detailChar, ch: m})
		return
	}
	if c.marker(FieldUpdateNew, 'N', expected) {
		s.tuple(c, FieldTupleNew, rel)
	}
}

func deleteBody(s *Session, c *cursor, rd reading) {
	if rel, m, ok := s.change(c, FieldDeleteRelationOID, FieldDeleteOld, FieldDeleteOld); ok {
		switch m {
		case 'K':
			s.tuple(c, FieldTupleKey, rel)
		case 'O':
			s.tuple(c, FieldTupleOld, rel)
		default:
			c.invalid(detail{text: "expected 'K' (old key) or 'O' (old tuple), found ", form: detailChar, ch: m})
		}
	}
}

func truncateBody(s *Session, c *cursor, rd reading) {
	if n, ok := c.count(FieldTruncateRelationCount); ok {
		c.Int8(FieldTruncateOptions)
		// At most this many relation OIDs fit in the bytes left; a larger count fails at the
		// first one missing.
		fit := min(n, c.remaining()/4)
		c.reserve(fit)
		for i := 0; i < n && c.err == nil; i++ {
			if c.have(FieldTruncateRelationOID, 4) {
				oid, _ := c.Int32(FieldTruncateRelationOID)
				c.nodes[len(c.nodes)-1].Index = int32(i + 1)
				if !c.probe {
					c.t.rels = knownAt(c.t.rels, i, fit, s.relation(oid))
				}
			}
		}
	}
}

func streamAbortBody(s *Session, c *cursor, rd reading) {
	c.Int32(FieldStreamAbortXid)
	c.Int32(FieldStreamAbortSubXid)
	if rd.parallel {
		c.Int64(FieldStreamAbortLSN)
		c.Int64(FieldStreamAbortTime)
	}
}

// change reads what every change starts with: its relation OID, whose Relation it looks up,
// and the marker byte after it, read as field old when it is 'K' or 'O' (a key or old tuple
// follows) and as other otherwise; ok is false when the marker is missing. When the five bytes
// are there both leaves are written in one step.
func (s *Session) change(c *cursor, oidField, old, other FieldID) (rel *Relation, m byte, ok bool) {
	i, d, pos := len(c.nodes), c.depth, c.pos
	fast := c.err == nil && !c.probe && c.end-pos >= 5 && cap(c.nodes)-i >= 2
	var oid uint32
	if fast {
		oid, m = binary.BigEndian.Uint32(c.b[pos:]), c.b[pos+4]
		c.nodes = c.nodes[:i+2]
		c.nodes[i].set(oidField, FormatInt32, pos, 4, int32(i+1), 0, d)
		c.pos = pos + 4
	} else {
		oid, _ = c.Int32(oidField)
	}
	// The Relation is looked up before the marker is read, so a change cut after its OID still
	// names its relation.
	rel = s.lookup(c, oid)
	if !fast {
		if !c.have(other, 1) {
			return rel, 0, false
		}
		m = c.b[c.pos]
	}
	f := other
	if m == 'K' || m == 'O' {
		f = old
	}
	if fast {
		c.nodes[i+1].set(f, FormatByte1, pos+4, 1, int32(i+2), 0, d)
		c.pos = pos + 5
	} else {
		c.Byte1(f)
	}
	return rel, m, true
}

// knownAt records what the session knew for item i of n (a Truncate's relations, a Relation's
// column types), or nil, in list, which holds the items before i. The list stays empty while
// nothing is known (a Truncate of millions of relations never sent costs nothing), and is sized
// once for all n items when the first known one comes; n has been checked against the bytes.
func knownAt[T any](list []*T, i, n int, known *T) []*T {
	if known == nil && len(list) == 0 {
		return list
	}
	if len(list) == 0 && cap(list) < n {
		list = make([]*T, 0, n)
	}
	for len(list) < i {
		list = append(list, nil)
	}
	return append(list, known)
}

// marker reads a Byte1 that must be want, failing with detail plus what was found otherwise.
func (c *cursor) marker(f FieldID, want byte, expected string) bool {
	m, ok := c.Byte1(f)
	if !ok {
		return false
	}
	if m != want {
		c.invalid(detail{text: expected, form: detailChar, ch: m})
		return false
	}
	return true
}

// length reads an Int32 length and checks it against the bytes that remain, so that a length
// read from the wire never sizes anything before it is checked.
func (c *cursor) length(f FieldID) (int, bool) {
	v, ok := c.Int32(f)
	if !ok {
		return 0, false
	}
	if int32(v) < 0 {
		c.invalid(detail{text: "a length cannot be negative, found ", form: detailNum, num: int(int32(v))})
		return 0, false
	}
	return int(v), true
}

// count reads an Int32 count of items (Truncate's relations). Each item is read with its own
// bounds check, so a count larger than the bytes allow fails at the first missing item.
func (c *cursor) count(f FieldID) (int, bool) {
	v, ok := c.Int32(f)
	if !ok {
		return 0, false
	}
	if int32(v) < 0 {
		c.invalid(detail{text: "a count cannot be negative, found ", form: detailNum, num: int(int32(v))})
		return 0, false
	}
	return int(v), true
}

func relationBody(s *Session, c *cursor, rd reading) {
	c.Int32(FieldRelationOID)
	c.String(FieldRelationNamespace)
	c.String(FieldRelationName)
	// Any replica identity byte is shown as found: PostgreSQL's reader does not check it either.
	c.Int8(FieldRelationReplicaIdentity)
	n, ok := c.Int16(FieldRelationColumnCount)
	if !ok {
		return
	}
	// A column takes five nodes and at least 10 bytes (flags, a name of one byte at least, type
	// OID and modifier).
	c.reserve(5 * min(int(n), c.remaining()/10))
	for i := 0; i < int(n) && c.err == nil; i++ {
		c.head(FieldRelationColumn, int32(i+1), FieldRelationColumnFlags, FormatInt8, 1)
		c.String(FieldRelationColumnName)
		if oid, ok := c.Int32(FieldRelationColumnTypeOID); ok && !c.probe {
			c.t.types = knownAt(c.t.types, i, int(n), s.types[oid])
		}
		c.SignedInt32(FieldRelationColumnTypeModifier)
		c.pop()
	}
}

// tuple reads a TupleData. rel, when known, names and types its columns.
func (s *Session) tuple(c *cursor, f FieldID, rel *Relation) {
	count, ok := c.head(f, 0, FieldTupleColumnCount, FormatInt16, 2)
	n := uint16(count)
	if ok {
		// A null or unchanged column takes two nodes and one byte, a text or binary one four
		// nodes and at least five bytes: at most this many for the bytes that remain.
		cols := min(int(n), c.remaining())
		c.reserve(2*cols + 2*min(cols, (c.remaining()-cols)/4))
	}
	for i := 0; ok && c.err == nil; i++ {
		if i = c.columns(i, int(n)); i >= int(n) {
			break
		}
		c.push(FieldTupleColumn, int32(i+1))
		if kind, ok := c.Byte1(FieldColumnKind); ok {
			switch kind {
			case 'n', 'u':
			case 't', 'b':
				if l, ok := c.length(FieldColumnLength); ok {
					c.Bytes(FieldColumnValue, l)
				}
			default:
				c.invalid(detail{text: "expected 'n' (null), 'u' (unchanged TOAST), 't' (text) or 'b' (binary), found ", form: detailChar, ch: kind})
			}
		}
		c.pop()
	}
	c.pop()
}

// columns reads the well-formed TupleData columns from the one at index i (from 0) on, up to
// n, each in one step, writing its group and leaves at once, and returns the index of the
// first column it did not read: a truncated or malformed column is left to the field-by-field
// reading, which names the error. Most of a change's nodes are columns, and on WebAssembly a
// call a column costs more than reading it.
func (c *cursor) columns(i, n int) int {
	if c.err != nil {
		return i
	}
	b, pos, end := c.b[:c.end], c.pos, c.end
	k, d := len(c.nodes), c.depth
	for ; i < n && pos < end; i++ {
		kind := b[pos]
		size := 1 // the group's length
		leaves := 1
		var l int
		switch kind {
		case 'n', 'u':
		case 't', 'b':
			if end-pos < 5 {
				return c.columnsRead(i, pos, k)
			}
			l = int(int32(binary.BigEndian.Uint32(b[pos+1:])))
			if l < 0 || l > end-pos-5 {
				return c.columnsRead(i, pos, k)
			}
			size, leaves = 5+l, 3
		default:
			return c.columnsRead(i, pos, k)
		}
		if c.probe {
			pos += size
			continue
		}
		if cap(c.nodes)-k < 1+leaves {
			c.nodes = c.nodes[:k]
			c.grow(1 + leaves)
		}
		nodes := c.nodes[k : k+1+leaves]
		e := int32(k + 1 + leaves)
		nodes[0].set(FieldTupleColumn, FormatGroup, pos, size, e, int32(i+1), d)
		nodes[1].set(FieldColumnKind, FormatByte1, pos, 1, int32(k+2), 0, d+1)
		if leaves == 3 {
			nodes[2].set(FieldColumnLength, FormatInt32, pos+1, 4, int32(k+3), 0, d+1)
			nodes[3].set(FieldColumnValue, FormatBytes, pos+5, l, e, 0, d+1)
		}
		k += 1 + leaves
		pos += size
	}
	return c.columnsRead(i, pos, k)
}

// columnsRead moves the cursor past the columns columns has read, to pos with k nodes, and
// returns i.
func (c *cursor) columnsRead(i, pos, k int) int {
	c.pos = pos
	if !c.probe {
		c.nodes = c.nodes[:k]
	}
	return i
}

// lookup finds the Relation a change refers to, noting in the tree when it is not known.
func (s *Session) lookup(c *cursor, oid uint32) *Relation {
	if c.err != nil {
		return nil
	}
	rel, index := s.relationAt(oid)
	if rel == nil {
		c.t.MissingRelation = oid
		return nil
	}
	c.t.Relation = rel
	c.t.RelationIndex = index
	return rel
}
