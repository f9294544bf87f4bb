package decoder

// Draft is one message being edited: change a value, a marker or a column, and get the
// message written again with its lengths and counts fixed up. Each edit changes the values of
// the draft's decode, writes the message with the encoder, and decodes the new bytes with the
// reading the message had (in a streamed transaction or not, parallel Stream Abort or not,
// envelopes or not), so that after every edit Tree is the decoder's reading of Bytes, and the
// node indices an edit takes are that tree's. An edit that fails changes nothing.
//
// A message that decoded without error stays so: an edit whose result would not decode, or
// would decode to other fields than the ones edited, is refused. A message with an error (see
// Encoder.Append) is edited as found, which is how it can be repaired: its lengths and counts
// keep their values, moved by as much as what they measure changed, and a marker changes in
// place, whatever the bytes after it then read as.
type Draft struct {
	// tree is the decode of the draft's bytes; next is the storage the next edit decodes into.
	tree, next Tree
	// opts fix the reading of the draft's bytes to the original message's; sess decodes them.
	opts Options
	sess *Session
	// rel is the Relation the message's columns were named and typed by, if any.
	rel   *Relation
	enc   Encoder
	nodes []editNode
	spare []editNode
}

// probeZeros is how many zero bytes follow a probe: enough for any fields a marker or an item
// announces (a length, and the empty value it then gives).
const probeZeros = 64

// NewDraft returns a draft of t's message (its own copy of the bytes), read as t was read.
func NewDraft(t *Tree) *Draft {
	d := &Draft{rel: t.Relation, opts: Options{InStream: No, ParallelAbort: No, Envelope: EnvelopeNone}}
	if t.Reading.InStream {
		d.opts.InStream = Yes
	}
	if t.Reading.ParallelAbort {
		d.opts.ParallelAbort = Yes
	}
	if t.Reading.Envelope != 0 {
		d.opts.Envelope = EnvelopeAuto
	}
	d.decode(&d.tree, append([]byte(nil), t.Bytes...))
	return d
}

// Tree returns the decode of the draft's bytes. It changes with every edit, which reuses the
// storage of the tree before.
func (d *Draft) Tree() *Tree { return &d.tree }

// Bytes returns the draft's message. It is not modified by later edits.
func (d *Draft) Bytes() []byte { return d.tree.Bytes }

// decode decodes b into t as the draft reads it: in a session of its own with the original
// message's reading, which knows the Relation that named its columns.
func (d *Draft) decode(t *Tree, b []byte) {
	if d.sess == nil {
		d.sess = NewSession(d.opts)
	}
	s := d.sess
	s.stream, s.parallel = 0, 0
	if d.opts.InStream == Yes {
		s.stream = 1
	}
	if d.opts.ParallelAbort == Yes {
		s.parallel = 1
	}
	if d.rel != nil {
		s.setRelation(d.rel.OID, d.rel, s.relIndex[d.rel.OID])
	}
	s.DecodeInto(t, b)
}

// SetNum sets a fixed-size field: an integer, an LSN, a timestamp (microseconds since
// 2000-01-01), an xid, an OID, flags, a type modifier (its int32 bits, or sign-extended), or a
// marker (as SetMarker). A length or count is computed and cannot be set, except in a message
// that did not decode completely.
func (d *Draft) SetNum(i int, v uint64) error {
	if err := d.leaf(i); err != nil {
		return err
	}
	f := d.tree.Nodes[i].Field
	info := f.Info()
	size := info.Format.Size()
	switch {
	case size == 0:
		return d.refuse(i, "holds "+info.Format.String()+", not a number")
	case info.Kind == KindMarker:
		if v > 0xff {
			return d.refuse(i, "a marker is one byte")
		}
		return d.SetMarker(i, byte(v))
	}
	if err := d.settable(i); err != nil {
		return err
	}
	if size < 8 && v>>(8*size) != 0 {
		if valueKind(f) == ValueInt && int64(v) >= -1<<31 && int64(v) < 0 {
			v &= 1<<32 - 1
		} else {
			return d.refuse(i, "does not fit an "+info.Format.String())
		}
	}
	return d.edit(i, func(nodes []editNode) ([]editNode, error) {
		nodes[i].num = v
		return nodes, nil
	})
}

// SetBytes sets a String (without its NUL, which it cannot hold) or raw bytes: a column value,
// a Message's content, undecoded or trailing bytes. The lengths that measure it follow.
func (d *Draft) SetBytes(i int, b []byte) error {
	if err := d.leaf(i); err != nil {
		return err
	}
	format := d.tree.Nodes[i].Field.Info().Format
	switch format {
	case FormatString:
		for _, c := range b {
			if c == 0 {
				return d.refuse(i, "a String cannot hold a NUL byte: the NUL ends it")
			}
		}
	case FormatBytes:
	default:
		return d.refuse(i, "holds "+format.String()+", not bytes")
	}
	val := append([]byte{}, b...)
	return d.edit(i, func(nodes []editNode) ([]editNode, error) {
		nodes[i].val = val
		return nodes, nil
	})
}

// SetMarker sets a marker: a TupleData column's kind (n u t b), an Update's or Delete's old
// tuple marker (K O), a replica identity. The field's Codes list the values the protocol
// knows. A marker that opens its group decides the rest of the group, which is read again as
// the decoder reads it after the new marker: a column's value is kept from t to b and back,
// dropped for n and u, and empty when t or b replaces n or u. A K/O marker changes what the
// tuple after it is (old key, old tuple); the tuple stays.
func (d *Draft) SetMarker(i int, m byte) error {
	if err := d.leaf(i); err != nil {
		return err
	}
	f := d.tree.Nodes[i].Field
	if f.Info().Kind != KindMarker && f != FieldUnknownType {
		return d.refuse(i, "is not a marker")
	}
	return d.edit(i, func(nodes []editNode) ([]editNode, error) {
		nodes[i].num = uint64(m)
		if d.tree.Err != nil {
			return nodes, nil
		}
		return d.reshape(nodes, i)
	})
}

// AddItem adds an item to a list the protocol counts: a column to a TupleData or to a Relation
// message, a relation OID to a Truncate. When i is an item or lies inside one, a copy of it is
// added after it; when i is the list's group (a TupleData, a Relation or Truncate message) or
// its count, a copy of the last item is added at the end, or, when the list is empty, the item
// the decoder reads from zero bytes (a null column; a Relation column with an empty name and
// type OID 0; relation OID 0). The count follows. It returns the new item's node index.
func (d *Draft) AddItem(i int) (int, error) {
	if i < 0 || i >= len(d.tree.Nodes) {
		return -1, d.refuse(i, "no such node")
	}
	t := &d.tree
	item, holder := itemOf(t, i), holderOf(t, i)
	if item < 0 && holder < 0 {
		return -1, d.refuse(i, "is not in a list of columns or relations")
	}
	added := -1
	err := d.edit(i, func(nodes []editNode) ([]editNode, error) {
		if item < 0 {
			count := countOf(t, holder)
			of := sizeRuleOf(t.Nodes[count].Field).Of
			end := subtreeEnd(nodes, holder)
			for j := holder + 1; j < end; j++ {
				if nodes[j].field == of && nodes[j].depth == nodes[holder].depth+1 {
					item = j
				}
			}
			if item < 0 {
				added = end
				return d.newItem(nodes, holder, count, of)
			}
		}
		end := subtreeEnd(nodes, item)
		if !readWhole(nodes, item, end) {
			return nil, d.refuse(i, "was not read whole (the rest of the message could not be decoded from inside it): a copy would copy that rest too")
		}
		added = end
		return splice(nodes, end, end, nodes[item:end]), nil
	})
	if err != nil {
		return -1, err
	}
	return added, nil
}

// readWhole reports whether the item nodes[item:end] was read whole: none of its leaves holds
// bytes that could not be decoded. An item that does holds the rest of the message.
func readWhole(nodes []editNode, item, end int) bool {
	for j := item; j < end; j++ {
		if nodes[j].field.Info().Kind == KindUndecoded {
			return false
		}
	}
	return true
}

// RemoveItem removes the item node i is or lies in: a TupleData or Relation column, a
// Truncate's relation OID. The count follows.
func (d *Draft) RemoveItem(i int) error {
	if i < 0 || i >= len(d.tree.Nodes) {
		return d.refuse(i, "no such node")
	}
	item := itemOf(&d.tree, i)
	if item < 0 {
		return d.refuse(i, "is not in a list of columns or relations")
	}
	return d.edit(i, func(nodes []editNode) ([]editNode, error) {
		return splice(nodes, item, subtreeEnd(nodes, item), nil), nil
	})
}

// ItemOf returns the index of the item of a counted list that node i of the draft's tree is or
// lies in (a TupleData or Relation column, a Truncate's relation OID), or -1: what RemoveItem
// removes.
func (d *Draft) ItemOf(i int) int { return itemOf(&d.tree, i) }

// CanAddItem reports whether AddItem adds an item for node i: an item, a node inside one, a
// group holding a counted list, or the list's count.
func (d *Draft) CanAddItem(i int) bool {
	t := &d.tree
	return i >= 0 && i < len(t.Nodes) && (itemOf(t, i) >= 0 || holderOf(t, i) >= 0)
}

// The functions on a Tree below are functions, not methods: a method of Tree, even one the page
// never calls, adds its name to Tree's type in the page's WASM.

func itemOf(t *Tree, i int) int {
	for i >= 0 && i < len(t.Nodes) {
		if countRuleOfItem(t.Nodes[i].Field) != nil {
			return i
		}
		i = t.Parent(i)
	}
	return -1
}

// holderOf returns the group whose counted list node i is (the group) or counts (the count
// node), or -1.
func holderOf(t *Tree, i int) int {
	if i < 0 || i >= len(t.Nodes) {
		return -1
	}
	if r := sizeRuleOf(t.Nodes[i].Field); r != nil && r.How == sizeCount {
		return t.Parent(i)
	}
	if countOf(t, i) >= 0 {
		return i
	}
	return -1
}

// countOf returns the count node among group i's children, or -1.
func countOf(t *Tree, i int) int {
	if t.Nodes[i].Format != FormatGroup {
		return -1
	}
	for j := i + 1; j < int(t.Nodes[i].End); j++ {
		if t.Nodes[j].Depth != t.Nodes[i].Depth+1 {
			continue
		}
		if r := sizeRuleOf(t.Nodes[j].Field); r != nil && r.How == sizeCount {
			return j
		}
	}
	return -1
}

// leaf checks that i is a leaf of the draft's tree.
func (d *Draft) leaf(i int) error {
	if i < 0 || i >= len(d.tree.Nodes) {
		return d.refuse(i, "no such node")
	}
	if d.tree.Nodes[i].Format == FormatGroup {
		return d.refuse(i, "is a group: edit the fields inside it")
	}
	return nil
}

// settable refuses the fixed-size fields the encoder owns or that decide the layout.
func (d *Draft) settable(i int) error {
	info := d.tree.Nodes[i].Field.Info()
	switch {
	case info.Kind == KindType:
		return d.refuse(i, "the type byte decides the message's whole layout and cannot be changed")
	case info.Kind == KindLength && d.tree.Err == nil:
		return d.refuse(i, "is computed from what it measures; change the value or the columns instead")
	}
	return nil
}

// refuse is called from many places; a copy in each would add to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func (d *Draft) refuse(i int, reason string) error {
	f := FieldUnknown
	if i >= 0 && i < len(d.tree.Nodes) {
		f = d.tree.Nodes[i].Field
	}
	return &EditError{Field: f, Node: i, Reason: reason}
}

// edit applies change, an edit of node i, to the draft's nodes, writes them and decodes the
// result.
func (d *Draft) edit(i int, change func(nodes []editNode) ([]editNode, error)) error {
	t := &d.tree
	nodes := appendEditNodes(d.nodes[:0], t)
	mode := fixMeasure
	if t.Err != nil {
		// What each length and count measures now, so that they move by what the edit changes.
		mode = fixShift
		d.enc.record = true
		_, err := d.enc.encode(nil, nodes, fixFound)
		d.enc.record = false
		if err != nil {
			return err
		}
	}
	nodes, err := change(nodes)
	if err != nil {
		return err
	}
	d.nodes = nodes
	out, err := d.enc.encode(make([]byte, 0, len(t.Bytes)+16), nodes, mode)
	if err != nil {
		return err
	}
	nt := &d.next
	d.decode(nt, out)
	if t.Err == nil {
		if nt.Err != nil {
			return d.refuse(i, "the edited message would not decode: "+nt.Err.Error())
		}
		if !editedFields(nt, nodes) {
			return d.refuse(i, "the edited message would be read back with other fields than the ones edited")
		}
	}
	d.tree, d.next = d.next, d.tree
	return nil
}

// editedFields reports whether t's nodes are the edited nodes: the same leaves at the same depths
// (a group may be named differently: an old key read as an old tuple after its marker changed).
func editedFields(t *Tree, nodes []editNode) bool {
	if len(t.Nodes) != len(nodes) {
		return false
	}
	for j := range nodes {
		n := &t.Nodes[j]
		if n.Depth != nodes[j].depth || (n.Format == FormatGroup) != (nodes[j].field.Info().Format == FormatGroup) ||
			n.Format != FormatGroup && n.Field != nodes[j].field {
			return false
		}
	}
	return true
}

// reshape reads again what marker i announces when it opens its group (a column's kind): the
// rest of the group, as the decoder reads it after the new marker from zero bytes, unless it is
// the same fields as before (a value is kept from t to b).
func (d *Draft) reshape(nodes []editNode, i int) ([]editNode, error) {
	g := parentOf(nodes, i)
	if g < 0 || g+1 != i {
		return nodes, nil
	}
	end := subtreeEnd(nodes, g)
	pt, msg, err := d.probe(nodes, i, -1)
	if err != nil {
		return nil, err
	}
	k := i - msg
	pg := pt.Parent(k)
	if pg < 0 {
		return nil, d.refuse(i, "cannot tell what follows this marker")
	}
	gn := &pt.Nodes[pg]
	if pt.Err != nil && pt.Err.Offset < gn.Offset+gn.Length {
		return nil, &EditError{Field: nodes[i].field, Node: i, Reason: pt.Err.Error()}
	}
	shape := appendEditNodes(nil, pt)[k+1 : int(gn.End)]
	for j := range shape {
		shape[j].depth += nodes[msg].depth
	}
	if sameShape(shape, nodes[i+1:end]) {
		return nodes, nil
	}
	return splice(nodes, i+1, end, shape), nil
}

// newItem adds to group holder, whose list (of field of, counted by node count) is empty, the
// item the decoder reads there from zero bytes; a marker in it that zero is not a value of
// gets its first code (a column's kind: n, null).
func (d *Draft) newItem(nodes []editNode, holder, count int, of FieldID) ([]editNode, error) {
	end := subtreeEnd(nodes, holder)
	pt, msg, err := d.probe(nodes, end-1, count)
	if err != nil {
		return nil, err
	}
	k := end - msg
	if k >= len(pt.Nodes) || pt.Nodes[k].Field != of {
		return nil, d.refuse(holder, "cannot tell what an item of this list holds")
	}
	item := appendEditNodes(nil, pt)[k:int(pt.Nodes[k].End)]
	marker := -1
	shape := item[:0]
	for j := range item {
		if item[j].field == FieldUndecoded {
			continue
		}
		item[j].depth += nodes[msg].depth
		if pt.Err != nil && item[j].field == pt.Err.Field && pt.Err.Kind == ErrInvalid {
			codes := item[j].field.Info().Codes
			if len(codes) == 0 {
				return nil, &EditError{Field: of, Node: holder, Reason: pt.Err.Error()}
			}
			item[j].num = codes[0].Code
			marker = end + len(shape)
		}
		shape = append(shape, item[j])
	}
	nodes = splice(nodes, end, end, shape)
	if marker >= 0 {
		return d.reshape(nodes, marker)
	}
	return nodes, nil
}

// probe writes the draft's message up to node upto (its lengths and counts those of what is
// written, but count, if >= 0, set to 1), then zero bytes, and decodes that with the draft's
// reading and no envelope: the decoder says what follows. Node k of the probe is node msg+k
// of nodes, up to upto.
func (d *Draft) probe(nodes []editNode, upto, count int) (pt *Tree, msg int, err error) {
	msg = d.tree.Message
	if msg < 0 || upto < msg {
		return nil, 0, d.refuse(upto, "is not inside a pgoutput message")
	}
	d.spare = append(d.spare[:0], nodes[msg:upto+1]...)
	if count >= 0 {
		d.spare[count-msg].num, d.spare[count-msg].keep = 1, true
	}
	b, err := d.enc.encode(nil, d.spare, fixMeasure)
	if err != nil {
		return nil, 0, err
	}
	b = append(b, make([]byte, probeZeros)...)
	pt = NewSession(Options{InStream: d.opts.InStream, ParallelAbort: d.opts.ParallelAbort, Envelope: EnvelopeNone}).Decode(b)
	for k := 0; k <= upto-msg; k++ {
		if k >= len(pt.Nodes) || pt.Nodes[k].Field != nodes[msg+k].field {
			return nil, 0, d.refuse(upto, "cannot tell what follows it")
		}
	}
	return pt, msg, nil
}

// sameShape reports whether two node lists have the same fields at the same depths.
func sameShape(a, b []editNode) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		if a[j].field != b[j].field || a[j].depth != b[j].depth {
			return false
		}
	}
	return true
}

// parentOf returns the index of the group holding node i, or -1.
func parentOf(nodes []editNode, i int) int {
	for j := i - 1; j >= 0; j-- {
		if nodes[j].depth < nodes[i].depth {
			return j
		}
	}
	return -1
}

// subtreeEnd returns the index one past node i's last descendant.
//
//go:noinline
func subtreeEnd(nodes []editNode, i int) int {
	j := i + 1
	for j < len(nodes) && nodes[j].depth > nodes[i].depth {
		j++
	}
	return j
}

// splice returns nodes with nodes[from:to] replaced by repl, in a new slice (repl may be part
// of nodes). It is called from many places; a copy in each would add to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func splice(nodes []editNode, from, to int, repl []editNode) []editNode {
	out := make([]editNode, 0, len(nodes)-(to-from)+len(repl))
	out = append(out, nodes[:from]...)
	out = append(out, repl...)
	return append(out, nodes[to:]...)
}
