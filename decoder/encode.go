package decoder

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
)

// The encoder writes a decoded message back to bytes from its values. It holds no description
// of any message's layout: the fields come in the order of the tree, which the decoder read
// with the message table; each is written in its wire format from the field table; and every
// length and count is computed from what it measures (sizeRules), never copied.

// sizeHow says what a length or count field measures.
type sizeHow uint8

const (
	sizeBytes sizeHow = iota // the byte length of its sibling field Of (a value it announces)
	sizeCount                // how many of its siblings have field Of (the items it counts)
	sizeRest                 // the bytes from its own first byte to the end of its group
)

// sizeRule says what a length or count field measures, among the nodes of the group that
// holds it.
type sizeRule struct {
	Field FieldID
	Of    FieldID
	How   sizeHow
}

// sizeRules has an entry for every length and count field, the fields of kind KindLength
// (TestSizeRules holds the two lists equal, so a new length field cannot be forgotten). These
// are the only facts the encoder adds to the decoder's tables.
var sizeRules = [...]sizeRule{
	// CopyData's length counts itself and what follows it, not the type byte.
	{FieldCopyDataLength, FieldUnknown, sizeRest},
	{FieldMessageLength, FieldMessageContent, sizeBytes},
	{FieldRelationColumnCount, FieldRelationColumn, sizeCount},
	{FieldTruncateRelationCount, FieldTruncateRelationOID, sizeCount},
	{FieldTupleColumnCount, FieldTupleColumn, sizeCount},
	{FieldColumnLength, FieldColumnValue, sizeBytes},
	// The frontend/backend protocol's: a message's length counts itself and what follows it,
	// not the type byte; an untyped message's counts itself and the rest. A value's length
	// of -1 (NULL) announces no value, and stays.
	{FieldWireLength, FieldUnknown, sizeRest},
	{FieldUntypedLength, FieldUnknown, sizeRest},
	{FieldSASLLength, FieldSASLData, sizeBytes},
	{FieldNegotiateCount, FieldNegotiateOption, sizeCount},
	{FieldRowDescriptionCount, FieldRowDescriptionField, sizeCount},
	{FieldDataRowCount, FieldDataRowColumn, sizeCount},
	{FieldDataRowLength, FieldDataRowValue, sizeBytes},
	{FieldCopyColumnCount, FieldCopyColumnFormat, sizeCount},
	{FieldCopyExtensionLength, FieldCopyExtension, sizeBytes},
	{FieldCopyFieldCount, FieldCopyField, sizeCount},
	{FieldCopyFieldLength, FieldCopyFieldValue, sizeBytes},
	{FieldParseCount, FieldParseTypeOID, sizeCount},
	{FieldBindFormatCount, FieldBindFormat, sizeCount},
	{FieldBindParameterCount, FieldBindParameter, sizeCount},
	{FieldBindParameterLength, FieldBindParameterValue, sizeBytes},
	{FieldBindResultCount, FieldBindResultFormat, sizeCount},
	{FieldParameterDescriptionCount, FieldParameterDescriptionTypeOID, sizeCount},
	{FieldFunctionArgFormatCount, FieldFunctionArgFormat, sizeCount},
	{FieldFunctionArgCount, FieldFunctionArg, sizeCount},
	{FieldFunctionArgLength, FieldFunctionArgValue, sizeBytes},
	{FieldFunctionResultLength, FieldFunctionResultValue, sizeBytes},
}

// sizeRuleOf returns the rule of a length or count field, or nil.
func sizeRuleOf(f FieldID) *sizeRule {
	if f.Info().Kind != KindLength {
		return nil
	}
	for i := range sizeRules {
		if sizeRules[i].Field == f {
			return &sizeRules[i]
		}
	}
	return nil
}

// countRuleOfItem returns the count rule whose items have field f (TupleData and Relation
// columns, a Truncate's relation OIDs), or nil.
func countRuleOfItem(f FieldID) *sizeRule {
	for i := range sizeRules {
		if sizeRules[i].How == sizeCount && sizeRules[i].Of == f {
			return &sizeRules[i]
		}
	}
	return nil
}

// editNode is one node of a message as the encoder writes it: a tree's node with its value.
type editNode struct {
	field FieldID
	depth uint8
	// num is a fixed-size field's value; for a length or count, the value found on the wire.
	num uint64
	// val is a String's bytes (without the NUL) or raw bytes.
	val []byte
	// base is what a length or count measured when its message was decoded (fixShift).
	base uint64
	// keep: a length or count written as num, whatever it measures.
	keep bool
}

// fixMode says how the encoder writes lengths and counts.
type fixMode uint8

const (
	// fixMeasure: what they measure. A message that decoded completely.
	fixMeasure fixMode = iota
	// fixFound: as they were found. A message that did not decode completely, where what a
	// length announces may not all be there.
	fixFound
	// fixShift: as found, moved by as much as what they measure changed since (base). The
	// edits of a message that did not decode completely.
	fixShift
)

// patch is a length or count written before what it measures is known.
type patch struct {
	pos  int // its first byte in the output
	node int
	rule *sizeRule
	n    uint64 // what it measures, so far
	seen bool   // a node of what it measures was written
}

// Encoder writes decoded messages back to bytes. Its zero value is ready to use; it keeps its
// buffers from one call to the next, so that writing a stream allocates nothing once warm.
type Encoder struct {
	nodes   []editNode
	patches []patch
	// record: each length and count keeps what it measured in its node's base.
	record bool
}

// Append appends t's message as the encoder writes it from t's values, and returns the
// extended buffer. Every field is written in its wire format (the field table's) in the
// tree's order; strings get their NUL. For a tree that decoded without error, every length and
// count is computed from what it measures: the TupleData column count and each column's length,
// a Relation's column count, a Message's content length, a Truncate's relation count and a
// CopyData's length. A tree with an error (Tree.Err, trailing bytes included) is written as it
// was found, byte for byte: lengths and counts as on the wire, since what they announce was not
// all decoded, and the undecoded and trailing bytes as they were. Either way, for a tree
// decoded from b, Append writes b.
//
// The error is an *EditError when a value cannot be written: a count or a length too large for
// its field, a string holding a NUL.
func (e *Encoder) Append(dst []byte, t *Tree) ([]byte, error) {
	e.nodes = appendEditNodes(e.nodes[:0], t)
	mode := fixMeasure
	if t.Err != nil {
		mode = fixFound
	}
	return e.encode(dst, e.nodes, mode)
}

// Encode returns t's message as Encoder.Append writes it.
func Encode(t *Tree) ([]byte, error) {
	var e Encoder
	return e.Append(make([]byte, 0, len(t.Bytes)), t)
}

// appendEditNodes appends t's nodes with their values, which are views into t.Bytes.
func appendEditNodes(dst []editNode, t *Tree) []editNode {
	start := len(dst)
	dst = slices.Grow(dst, len(t.Nodes))[:start+len(t.Nodes)]
	// Each node is written in place: a node built on the stack and copied in costs more than
	// reading its value.
	for i := range t.Nodes {
		n := &t.Nodes[i]
		en := &dst[start+i]
		en.field, en.depth, en.num, en.val, en.base, en.keep = n.Field, n.Depth, 0, nil, 0, false
		switch n.Format {
		case FormatGroup:
		case FormatString:
			en.val = t.Bytes[n.Offset : n.Offset+n.Length-1 : n.Offset+n.Length-1]
		case FormatBytes:
			en.val = t.Bytes[n.Offset : n.Offset+n.Length : n.Offset+n.Length]
		case FormatByte1, FormatInt8:
			en.num = uint64(t.Bytes[n.Offset])
		case FormatInt16:
			en.num = uint64(binary.BigEndian.Uint16(t.Bytes[n.Offset:]))
		case FormatInt32:
			en.num = uint64(binary.BigEndian.Uint32(t.Bytes[n.Offset:]))
		case FormatInt64:
			en.num = binary.BigEndian.Uint64(t.Bytes[n.Offset:])
		}
	}
	return dst
}

// encode appends the nodes, in pre-order, to dst.
func (e *Encoder) encode(dst []byte, nodes []editNode, mode fixMode) ([]byte, error) {
	e.patches = e.patches[:0]
	var err error
	for i := 0; i < len(nodes) && err == nil; {
		dst, i, err = e.node(dst, nodes, i, mode)
	}
	return dst, err
}

// node appends node i and its descendants, and returns the index of the node after them.
func (e *Encoder) node(out []byte, nodes []editNode, i int, mode fixMode) ([]byte, int, error) {
	n := &nodes[i]
	switch n.field.Info().Format {
	case FormatGroup:
		return e.group(out, nodes, i, mode)
	case FormatByte1, FormatInt8:
		out = append(out, byte(n.num))
	case FormatInt16:
		out = binary.BigEndian.AppendUint16(out, uint16(n.num))
	case FormatInt32:
		out = binary.BigEndian.AppendUint32(out, uint32(n.num))
	case FormatInt64:
		out = binary.BigEndian.AppendUint64(out, n.num)
	case FormatString:
		if bytes.IndexByte(n.val, 0) >= 0 {
			return out, i, &EditError{Field: n.field, Node: i, Reason: "a String cannot hold a NUL byte: the NUL ends it"}
		}
		out = append(append(out, n.val...), 0)
	case FormatBytes:
		out = append(out, n.val...)
	}
	return out, i + 1, nil
}

// group appends group i's children, then writes the lengths and counts among them.
func (e *Encoder) group(out []byte, nodes []editNode, i int, mode fixMode) ([]byte, int, error) {
	depth := nodes[i].depth
	first := len(e.patches)
	j := i + 1
	for j < len(nodes) && nodes[j].depth > depth {
		start := len(out)
		f := nodes[j].field
		if r := sizeRuleOf(f); r != nil {
			e.patches = append(e.patches, patch{pos: start, node: j, rule: r})
		}
		var err error
		if out, j, err = e.node(out, nodes, j, mode); err != nil {
			return out, j, err
		}
		for k := first; k < len(e.patches); k++ {
			if p := &e.patches[k]; p.rule.Of == f {
				p.seen = true
				if p.rule.How == sizeCount {
					p.n++
				} else {
					p.n = uint64(len(out) - start)
				}
			}
		}
	}
	for k := first; k < len(e.patches); k++ {
		if err := e.fix(out, nodes, &e.patches[k], mode); err != nil {
			return out, j, err
		}
	}
	e.patches = e.patches[:first]
	return out, j, nil
}

// fix writes a length or count over the value written for it.
func (e *Encoder) fix(out []byte, nodes []editNode, p *patch, mode fixMode) error {
	n := &nodes[p.node]
	measured := p.n
	if p.rule.How == sizeRest {
		measured = uint64(len(out) - p.pos)
	}
	if e.record {
		n.base = measured
	}
	v := measured
	switch {
	case p.rule.How == sizeBytes && !p.seen && int32(n.num) < 0:
		v = n.num // a NULL's -1: no value to measure
	case n.keep || mode == fixFound:
		v = n.num
	case mode == fixShift:
		v = n.num + measured - n.base
	}
	format := n.field.Info().Format
	if mode == fixMeasure && !n.keep {
		// Counts and lengths are never negative: an Int32 holds at most 2^31-1 of them.
		max := uint64(1)<<31 - 1
		if format == FormatInt16 {
			max = 1<<16 - 1
		}
		if v > max {
			return &EditError{Field: n.field, Node: p.node, Reason: strconv.FormatUint(v, 10) + " does not fit an " + format.String() +
				" (at most " + strconv.FormatUint(max, 10) + ")"}
		}
	}
	switch format {
	case FormatInt16:
		binary.BigEndian.PutUint16(out[p.pos:], uint16(v))
	case FormatInt32:
		binary.BigEndian.PutUint32(out[p.pos:], uint32(v))
	}
	return nil
}

// EditError says why a message cannot be written as asked: an edit refused, or a value that
// does not fit its field.
type EditError struct {
	// Field is the field concerned; Node its index in the tree (or the draft) edited.
	Field  FieldID
	Node   int
	Reason string
}

// Error returns "Column count: 70000 does not fit an Int16 (at most 65535)".
func (e *EditError) Error() string { return e.Field.Info().Name + ": " + e.Reason }
