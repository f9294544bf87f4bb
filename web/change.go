package web

import (
	"bytes"

	"pgoutput-inspector/decoder"
)

// Change is an Update's or a Delete's row before and after, column by column: the old part (an
// old key 'K' or a whole old row 'O', or none) beside the new row ('N', Update only).
type Change struct {
	// Old is the old part's marker, 'K' or 'O', or 0 when the message has none.
	Old byte
	// New says an Update's new row is there.
	New bool
	// Why says why the old part is a key, a whole row or absent: the table's replica identity
	// and whether a key column changed.
	Why string
	// Columns are the columns of the relation (or of the tuples, when the Relation message
	// was not seen), in order.
	Columns []ChangeColumn
	// Heads are the columns' headings: the name's, the old part's and the new row's.
	Heads [3]string
	// Err says why a comparison's second input could not be read, MsgErr where the decode of
	// its message pinned stopped (compare_second.go): the panel shows one after the other.
	Err, MsgErr string
}

// ChangeColumn is one column of a Change.
type ChangeColumn struct {
	// Name, Type and Key come from the Relation message ("" and false when unknown).
	Name string
	Type string
	Key  bool
	// Old and New are the column's two sides.
	Old, New ChangeValue
	// Changed says the new value differs from the old one.
	Changed bool
}

// ChangeValue is one side of a column: what the tuple sent for it.
type ChangeValue struct {
	// Kind is the column kind sent: 'n' null, 'u' unchanged TOAST value not sent, 't' text,
	// 'b' binary; 0 when the side has no tuple or the tuple no such column.
	Kind byte
	// Node is the column's node in the tree (its value node when it has a value), or -1.
	Node int32
	// Text is what the page shows for it, at most MaxRowText bytes.
	Text string
	// Full is the tooltip's text: the value up to MaxTitleText bytes, or Text.
	Full string
}

// changeCell texts for what was not sent.
const (
	textNull      = "null"
	textNotSent   = "not sent (unchanged TOAST value)"
	textNotInKey  = "not in the key"
	textNoOldPart = "—"
)

// ChangeOf returns the before and after of an Update or a Delete, or nil for other messages.
// It finds the tuples and their columns by field, as the decoder named them.
func ChangeOf(t *decoder.Tree) *Change {
	if t == nil || t.Message < 0 || (t.Type != 'U' && t.Type != 'D') {
		return nil
	}
	c := &Change{}
	oldTuple := t.Find(t.Message, decoder.FieldTupleKey)
	if oldTuple >= 0 {
		c.Old = 'K'
	} else if oldTuple = t.Find(t.Message, decoder.FieldTupleOld); oldTuple >= 0 {
		c.Old = 'O'
	}
	newTuple := t.Find(t.Message, decoder.FieldTupleNew)
	c.New = newTuple >= 0
	n := 0
	if t.Relation != nil {
		n = len(t.Relation.Columns)
	}
	oldCols, newCols := tupleColumns(t, oldTuple), tupleColumns(t, newTuple)
	n = max(n, len(oldCols), len(newCols))
	c.Columns = make([]ChangeColumn, n)
	keyChanged := false
	var changedKeys []string
	for k := range c.Columns {
		col := &c.Columns[k]
		if t.Relation != nil && k < len(t.Relation.Columns) {
			rc := &t.Relation.Columns[k]
			col.Name, col.Type, col.Key = rc.Name, rc.TypeName, rc.Key
		}
		col.Old = changeValue(t, oldCols, k)
		col.New = changeValue(t, newCols, k)
		if c.Old == 'K' && !col.Key && col.Old.Kind == 'n' && t.Relation != nil {
			col.Old.Text, col.Old.Full = textNotInKey, textNotInKey
		}
		if c.Old == 0 && c.New {
			col.Old.Text, col.Old.Full = textNoOldPart, ""
		}
		// Compared only where both sides sent the column: an unchanged TOAST value and a column
		// outside the old key say nothing about a change.
		if c.Old != 0 && c.New && !(c.Old == 'K' && !col.Key) && col.Old.Kind != 0 && col.Old.Kind != 'u' &&
			col.New.Kind != 0 && col.New.Kind != 'u' {
			col.Changed = col.Old.Kind != col.New.Kind ||
				!bytes.Equal(valueBytes(t, col.Old.Node), valueBytes(t, col.New.Node))
		}
		if col.Changed && col.Key {
			keyChanged = true
			changedKeys = append(changedKeys, col.Name)
		}
	}
	c.Why = changeWhy(t, c, keyChanged, changedKeys)
	c.Heads = [3]string{"column", "old", "new"}
	if c.Old != 0 {
		c.Heads[1] = "old ('" + string(rune(c.Old)) + "')"
	}
	if c.New {
		c.Heads[2] = "new ('N')"
	}
	return c
}

// tupleColumns lists the column nodes of the TupleData at node tuple (-1: none).
func tupleColumns(t *decoder.Tree, tuple int) []int {
	if tuple < 0 {
		return nil
	}
	var cols []int
	for i := tuple + 1; i < int(t.Nodes[tuple].End); i = int(t.Nodes[i].End) {
		if t.Nodes[i].Field == decoder.FieldTupleColumn {
			cols = append(cols, i)
		}
	}
	return cols
}

// changeValue reads column k of a tuple's columns.
func changeValue(t *decoder.Tree, cols []int, k int) ChangeValue {
	if k >= len(cols) {
		return ChangeValue{Node: -1}
	}
	col := cols[k]
	v := ChangeValue{Node: int32(col)}
	if kind := t.Find(col, decoder.FieldColumnKind); kind >= 0 {
		v.Kind = t.Bytes[t.Nodes[kind].Offset]
	}
	switch v.Kind {
	case 'n':
		v.Text = textNull
	case 'u':
		v.Text = textNotSent
	default:
		if val := t.Find(col, decoder.FieldColumnValue); val >= 0 {
			v.Node = int32(val)
			v.Text = ValueText(t, val, MaxRowText)
			if len(v.Text) < MaxRowText {
				v.Full = v.Text
			} else {
				v.Full = ValueText(t, val, MaxTitleText)
			}
			return v
		}
	}
	v.Full = v.Text
	return v
}

// valueBytes returns a value node's bytes (nil for -1 or a column without a value).
func valueBytes(t *decoder.Tree, node int32) []byte {
	if node < 0 || t.Nodes[node].Field != decoder.FieldColumnValue {
		return nil
	}
	return t.ValueBytes(int(node))
}

// IdentityName names a replica identity as ALTER TABLE … REPLICA IDENTITY does, or "".
func IdentityName(b byte) string {
	switch b {
	case 'd':
		return "DEFAULT (the primary key)"
	case 'i':
		return "USING INDEX"
	case 'f':
		return "FULL"
	case 'n':
		return "NOTHING"
	}
	return ""
}

// changeWhy says why the old part is what it is.
func changeWhy(t *decoder.Tree, c *Change, keyChanged bool, changedKeys []string) string {
	ident := ""
	if t.Relation != nil {
		ident = IdentityName(t.Relation.ReplicaIdentity)
	}
	is := "The table's replica identity is " + ident
	if ident == "" {
		is = "The Relation message for this table was not seen, so its replica identity is not known"
	}
	keys := ""
	for i, k := range changedKeys {
		if i > 0 {
			keys += ", "
		}
		keys += k
	}
	switch {
	case c.Old == 'O':
		return "The old part is the whole old row ('O'). " + is + ": every column's old value is sent."
	case c.Old == 'K' && t.Type == 'D':
		return "The old part is the old key ('K'): only the replica identity's columns have values, the others are sent as null. " + is + "."
	case c.Old == 'K' && keyChanged:
		return "The old part is the old key ('K'), sent because a key column changed (" + keys + "). " + is + "."
	case c.Old == 'K':
		return "The old part is the old key ('K'), though no key column's value changed: PostgreSQL also sends it when a key column's old value is stored out of line (TOAST). " + is + "."
	case t.Type == 'D':
		return "The Delete has no old part the page could read. " + is + "."
	case ident == "NOTHING":
		return "No old part: with replica identity NOTHING no old values are ever sent."
	}
	return "No old part ('N' only): no key column changed, so PostgreSQL sends only the new row. " + is + "."
}
