package web

import (
	"encoding/binary"
	"maps"
	"slices"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// Carry is what decoding a part of a big file hands the next part (NewPartDoc): each
// connection's conversation by its endpoints (a part numbers its connections afresh), or the
// conversation of an input of no connections, and the transaction left open.
type Carry struct {
	convs  map[string]*decoder.Conversation
	xid    uint32
	hasXid bool
}

// endpoints names a connection by its two ends ("127.0.0.1:51234 127.0.0.1:5432"): how a big
// file's parts, each numbering its connections afresh, know one connection.
func endpoints(c *input.Connection) string { return c.Client + " " + c.Server }

// NewPartDoc parses and decodes whole a part of a big file, a file of its own, going on from
// the parts before as one decode of the whole file does: with the relations, types and
// options their conversations learnt, and in the transaction left open (carry, the zero
// Carry for the first part, which it updates). The page's search of a big file's parts.
func NewPartDoc(text string, format input.Format, carry *Carry) *Doc {
	if carry.convs == nil {
		carry.convs = map[string]*decoder.Conversation{}
	}
	d, _ := newDoc(text, format, decoder.Options{}, -1, carry.resume)
	if d == nil {
		return nil
	}
	dec := d.dec
	carry.convs[""] = dec.cs.Conversation(0)
	for i, c := range d.Connections {
		carry.convs[endpoints(&c)] = dec.cs.Conversation(i + 1)
	}
	carry.xid, carry.hasXid = dec.xid, dec.hasXid
	return d
}

// resume has a part's decode go on where the part before left off: its connections' and the
// transaction left open.
func (c *Carry) resume(dec *docDecoder) {
	for i, cn := range dec.doc.Connections {
		if cv := c.convs[endpoints(&cn)]; cv != nil {
			dec.cs.Continue(i+1, cv)
		}
	}
	if cv := c.convs[""]; cv != nil {
		dec.cs.Continue(0, cv)
	}
	if c.hasXid {
		dec.xid, dec.hasXid = c.xid, true
	}
}

// Before is what the parts of a big file before one part said that the part's decode goes on
// from, as the export worker's decode of them hands it to the page (Carry.AppendBefore,
// ReadBefore): each connection's relations and types, by its endpoints, as the messages that
// define them (decoder.Learnt), and the transaction left open.
type Before struct {
	b    []byte
	text string // the part it goes with
}

// ReadBefore reads what Carry.AppendBefore wrote, for the part text.
func ReadBefore(b []byte, text string) *Before { return &Before{b: b, text: text} }

// AppendBefore appends what the parts decoded so far hand the next part's decode in the page
// (ReadBefore), and gives how many relations and types it holds: items of a 4-byte length and
// that many bytes, the first the open transaction's xid (none: empty), then for each
// connection two, its endpoints and its Type and Relation messages (each an item).
func (c *Carry) AppendBefore(dst []byte) (b []byte, relations, types int) {
	var xid []byte
	if c.hasXid {
		xid = binary.BigEndian.AppendUint32(nil, c.xid)
	}
	dst = appendItem(dst, xid)
	for _, k := range slices.Sorted(maps.Keys(c.convs)) {
		ts, rs := decoder.Learnt(c.convs[k].Session())
		var msgs []byte
		for _, m := range append(ts, rs...) {
			msgs = appendItem(msgs, m)
		}
		if msgs != nil {
			dst = appendItem(appendItem(dst, []byte(k)), msgs)
		}
		relations, types = relations+len(rs), types+len(ts)
	}
	return dst, relations, types
}

func appendItem(dst, v []byte) []byte {
	return append(binary.BigEndian.AppendUint32(dst, uint32(len(v))), v...)
}

// items splits b into the items appendItem wrote; bytes that are not one end it.
func items(b []byte) [][]byte {
	var l [][]byte
	for len(b) >= 4 && uint32(len(b)-4) >= binary.BigEndian.Uint32(b) {
		n := 4 + binary.BigEndian.Uint32(b)
		l = append(l, b[4:n:n])
		b = b[n:]
	}
	return l
}

// resume has a part's decode know the relations and types of the parts before, and go on in
// the transaction they left open.
func (b *Before) resume(dec *docDecoder) {
	l := items(b.b)
	if len(l) > 0 && len(l[0]) == 4 {
		dec.xid, dec.hasXid = binary.BigEndian.Uint32(l[0]), true
	}
	for i := 1; i+1 < len(l); i += 2 {
		conv := -1 // the connection of these endpoints (0: none, for "")
		if len(l[i]) == 0 {
			conv = 0
		}
		for j, cn := range dec.doc.Connections {
			if endpoints(&cn) == string(l[i]) {
				conv = j + 1
			}
		}
		if conv >= 0 {
			s := dec.cs.Conversation(conv).Session()
			for _, t := range s.Learn(items(l[i+1])) {
				if t.Err == nil {
					dec.describe(t, s, -1)
				}
			}
		}
	}
}
