package web

import (
	"bytes"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
)

// Comparison is two messages side by side, their fields aligned by name: a row per field of
// either tree, in tree order, pairing the fields that are the same field (and the same column
// number) of the same group in both. A field only one message has (the Xid of a change inside
// a streamed transaction, a column only one tuple holds) has a row of its own. A Comparison
// never changes once built; the panel draws Rows, only those in view, and formats their values
// as it draws them.
type Comparison struct {
	// A is the pinned message (the left side), B the chosen one (the right side); MsgA and MsgB
	// are their indexes in the Doc.
	A, B       *decoder.Tree
	MsgA, MsgB int
	// second is the comparison's second input when it was made (CompareSecond): A is its
	// message when it holds messages.
	second *CompareSecond
	Rows   []CompareRow
	// Count counts the fields (leaves) by what their rows say.
	Count [numDiffs]int
}

// CompareRow is one field of a Comparison.
type CompareRow struct {
	// A and B are the field's nodes in the two trees, or -1 where a tree has no such field.
	A, B  int32
	Depth uint8
	Diff  Diff
}

// Diff says how a field of one message compares with the same field of the other. A group
// (a tuple, a column) says the most of what its fields say.
type Diff uint8

// Diffs, from the least to the most different.
const (
	DiffSame      Diff = iota // the same bytes
	DiffEncoded               // other bytes, the same value: a column sent in text by one, in binary by the other (its kind and length too)
	DiffUndecided             // other bytes, and a value the page cannot compare: a binary value of a type it does not decode
	DiffValue                 // another value
	DiffOnlyA                 // only the pinned message has the field
	DiffOnlyB                 // only the chosen message has the field
	numDiffs
)

// Compare aligns the fields of message a (msgA in the Doc) with those of message b (msgB).
func Compare(a, b *decoder.Tree, msgA, msgB int) *Comparison {
	c := &Comparison{A: a, B: b, MsgA: msgA, MsgB: msgB, Rows: make([]CompareRow, 0, max(len(a.Nodes), len(b.Nodes)))}
	c.siblings(0, len(a.Nodes), 0, len(b.Nodes))
	return c
}

// Node returns row r's field in the pinned message, or in the chosen one when only it has it.
func (c *Comparison) Node(r int) (*decoder.Tree, int) {
	if row := &c.Rows[r]; row.A >= 0 {
		return c.A, int(row.A)
	}
	return c.B, int(c.Rows[r].B)
}

// Differs says the messages differ at all: a value, or a field only one has.
func (c *Comparison) Differs() bool {
	return c.Count[DiffValue]+c.Count[DiffOnlyA]+c.Count[DiffOnlyB] > 0
}

// marks says the hex view marks bytes of t: t is c's chosen message (the pinned message's
// bytes are not shown), and some of its fields differ from the pinned message's, as another
// value (≠), the same value in other bytes (≈) or a value the page cannot compare (?), or
// only t has them; layout marks those fields.
func (c *Comparison) marks(t *decoder.Tree) bool {
	return c != nil && c.B == t && c.Count[DiffEncoded]+c.Count[DiffUndecided]+c.Count[DiffValue]+c.Count[DiffOnlyB] > 0
}

// siblings aligns the sibling nodes from i to endA in a with those from j to endB in b, each
// with its subtree, and returns the most of what their rows say. Siblings pair in order: a's
// next field pairs with b's next when they are the same field; else b's fields before the
// one that pairs with a's are b's only, and a field b lacks among the rest is a's only.
func (c *Comparison) siblings(i, endA, j, endB int) Diff {
	most := DiffSame
	for i < endA || j < endB {
		var d Diff
		switch {
		case i < endA && j < endB && c.same(i, j):
			d = c.pair(i, j)
			i, j = int(c.A.Nodes[i].End), int(c.B.Nodes[j].End)
		case i < endA && !c.later(i, j, endB):
			d = c.only(c.A, i, DiffOnlyA)
			i = int(c.A.Nodes[i].End)
		default:
			d = c.only(c.B, j, DiffOnlyB)
			j = int(c.B.Nodes[j].End)
		}
		// A field only one message has makes its group differ.
		most = max(most, min(d, DiffValue))
	}
	return most
}

// same says node i of A and node j of B are the same field: the same field and column number.
func (c *Comparison) same(i, j int) bool {
	na, nb := &c.A.Nodes[i], &c.B.Nodes[j]
	return na.Field == nb.Field && na.Index == nb.Index
}

// later says B has the field of A's node i among its siblings from j to endB.
func (c *Comparison) later(i, j, endB int) bool {
	for ; j < endB; j = int(c.B.Nodes[j].End) {
		if c.same(i, j) {
			return true
		}
	}
	return false
}

// pair adds the row of node i of A beside node j of B, and the rows of their fields.
func (c *Comparison) pair(i, j int) Diff {
	r := len(c.Rows)
	d := leafDiff(c.A, i, c.B, j)
	c.Rows = append(c.Rows, CompareRow{A: int32(i), B: int32(j), Depth: c.A.Nodes[i].Depth, Diff: d})
	if c.A.IsLeaf(i) && c.B.IsLeaf(j) {
		c.Count[d]++
		return d
	}
	d = c.siblings(i+1, int(c.A.Nodes[i].End), j+1, int(c.B.Nodes[j].End))
	c.Rows[r].Diff = d
	return d
}

// only adds the rows of node i of t and its fields, which only t has (d says which side).
func (c *Comparison) only(t *decoder.Tree, i int, d Diff) Diff {
	for k := i; k < int(t.Nodes[i].End); k++ {
		row := CompareRow{A: int32(k), B: -1, Depth: t.Nodes[k].Depth, Diff: d}
		if d == DiffOnlyB {
			row.A, row.B = -1, int32(k)
		}
		c.Rows = append(c.Rows, row)
		if t.IsLeaf(k) {
			c.Count[d]++
		}
	}
	return d
}

// leafDiff compares field i of a with field j of b, the same field. A group is compared by
// fold, from its fields; a leaf by its bytes, and when they differ, a column's value as text
// (the server's text output, which pgvalue writes for a binary value), and a column's kind
// and length as the value they carry; a value either side cannot write as text (a binary value
// of a type the page does not decode) is undecided.
func leafDiff(a *decoder.Tree, i int, b *decoder.Tree, j int) Diff {
	na, nb := &a.Nodes[i], &b.Nodes[j]
	if !a.IsLeaf(i) || bytes.Equal(a.Bytes[na.Offset:na.Offset+na.Length], b.Bytes[nb.Offset:nb.Offset+nb.Length]) {
		return DiffSame
	}
	switch na.Field {
	case decoder.FieldColumnKind, decoder.FieldColumnLength:
		i, j = a.Find(a.Parent(i), decoder.FieldColumnValue), b.Find(b.Parent(j), decoder.FieldColumnValue)
		if i < 0 || j < 0 {
			return DiffValue
		}
	case decoder.FieldColumnValue:
	default:
		return DiffValue
	}
	ta, okA := a.AppendServerText(nil, i)
	tb, okB := b.AppendServerText(nil, j)
	switch {
	case !okA || !okB:
		return DiffUndecided
	case bytes.Equal(ta, tb):
		return DiffEncoded
	}
	return DiffValue
}

// CompareState is the comparison panel, shown in the tree's place while On: the message pinned
// by "Compare with…" (Pinned, in Doc) beside the message chosen in the list.
type CompareState struct {
	On     bool
	Pinned int
	// Cmp compares the two, and Change is what the panel draws of it (the before and after's
	// view draws it), kept up to date by Apply while On.
	Cmp    *Comparison
	Change *Change
	// Row is the row of Cmp that "Next difference" or "Previous difference" reached last, -1
	// before the first.
	Row int
	// Second is the second input pasted in the comparison, whose message is then the pinned
	// one (compare_second.go).
	Second *CompareSecond
	// text is the page's input when the comparison began: another input closes the comparison.
	text string
}

// CompareWith: "Compare with…" was pressed: the chosen message is pinned, and compared with
// the message chosen in the list from then on. On false closes the comparison.
type CompareWith struct{ On bool }

func (CompareWith) isAction() {}

// CompareStep: "Next difference" (By 1, the n key) or "Previous difference" (By -1, p) was
// pressed while comparing.
type CompareStep struct{ By int }

func (CompareStep) isAction() {}

// compareWith pins the chosen message, or closes the comparison. It takes the tree's place as
// the relations, the timeline and the notes do, in turn with them.
func (s State) compareWith(on bool) State {
	// The comparison before stays until syncCompare, which takes its marks off the hex view.
	s.Compare = CompareState{Cmp: s.Compare.Cmp}
	if on && s.Tree() != nil {
		s.Compare = CompareState{On: true, Pinned: s.Msg, Cmp: s.Compare.Cmp, Row: -1, text: s.Text}
		s.ShowCatalog, s.Catalog, s.ShowTimeline, s.Timeline, s.ShowNotes = false, nil, false, nil, false
		s.consumerOff()
	}
	return s
}

// syncCompare brings the comparison up to date with the pinned and the chosen message, and
// starts its list at the top when it changes. It closes the comparison when the pinned
// message is gone (another input, though the same input decoded again with other options
// keeps it) or no message is chosen.
func (s *State) syncCompare(fx []Effect) []Effect {
	c := &s.Compare
	b, old := s.Tree(), c.Cmp
	if !c.On || b == nil || c.Pinned >= len(s.Doc.Trees) || s.Text != c.text {
		*c = CompareState{}
		s.markDiffers(old, b)
		return fx
	}
	a, second := c.pinned(s.Doc)
	if c.Cmp != nil && c.Cmp.A == a && c.Cmp.B == b && c.Cmp.second == c.Second {
		return fx
	}
	c.Cmp = Compare(a, b, c.Pinned, s.Msg)
	if c.Cmp.second = c.Second; second {
		c.Cmp.MsgA = c.Second.Msg
	}
	c.Change = c.Cmp.change()
	c.Row = -1
	s.markDiffers(old, b)
	// Another message chosen starts the list at its top (selectMessage set the view's).
	s.View[PanelChange].Top = 0
	return append(fx, EffectScroll{Panel: PanelChange})
}

// compareStep selects the next (by 1) or the previous (by -1) field of the comparison that
// differs (a leaf whose row says anything but DiffSame: the fields the rows and the hex view
// mark, and those only the pinned message has), from the row it reached last, else from the
// top or the bottom; past the last it wraps around to the first, and before the first to the
// last. The list scrolls to the row; a field of the chosen message is selected (its bytes in
// the hex view), nothing for one only the pinned message has. Nothing happens when no field
// differs.
func (s *State) compareStep(by int) []Effect {
	c := s.Compare.Cmp
	if c == nil {
		return nil
	}
	n, i := len(c.Rows), s.Compare.Row
	for range n {
		if i += by; i < 0 {
			i = n - 1
		} else if i >= n {
			i = 0
		}
		// A group's rows follow it one deeper (paired fields are as deep in both trees).
		if c.Rows[i].Diff == DiffSame || i+1 < n && c.Rows[i+1].Depth > c.Rows[i].Depth {
			continue
		}
		s.Compare.Row = i
		s.Node, s.Sel = -1, hexview.Range{}
		if b := c.Rows[i].B; b >= 0 {
			s.selectNode(b, false)
			s.Reveal++ // the hex view scrolls to the bytes
		}
		return s.reveal(PanelChange, i, nil)
	}
	return nil
}

// markDiffers lays out the chosen message, t, again when the comparison's marks of its bytes
// change from those of old, the comparison before (only then: an edit's marks, which a new
// layout drops, stay on a message the comparison does not mark).
func (s *State) markDiffers(old *Comparison, t *decoder.Tree) {
	if old.marks(t) || s.Compare.Cmp.marks(t) {
		s.Model = s.layout(t)
	}
}

// diffTitles say what each Diff means, in a row's tooltip and in the summary.
var diffTitles = [numDiffs]string{"the same bytes", "the same value in other bytes", "in other bytes the page does not decode",
	"differ", "only in the pinned message", "only in the chosen message"}

// diffMarks follow a field's name in its row.
var diffMarks = [numDiffs]string{"", " ≈", " ?", " ≠", " (only left)", " (only right)"}

// change writes the comparison as the before and after's view draws it: the pinned message
// on the left, the chosen one on the right, a row per field (its name indented by its depth
// and followed by a mark of how the two compare, its values cut to MaxRowText); a field that
// differs, or that only one message has, is marked changed. A click on a value of the chosen
// message selects its bytes. The sentences above say what the comparison found, and what
// the marks mean (in the rows and in the hex view).
func (c *Comparison) change() *Change {
	a, b := "message "+strconv.Itoa(c.MsgA+1), "message "+strconv.Itoa(c.MsgB+1)
	ch := &Change{Columns: make([]ChangeColumn, len(c.Rows))}
	// The second input's errors, where the pinned message is from, and the number asked for
	// when there is no such message (compare_second.go).
	note := ""
	if sec := c.second; sec != nil {
		ch.Err = sec.Err
		if sec.Doc != nil {
			a += " of " + strconv.Itoa(len(sec.Doc.Messages)) + " of the second input (" + sec.Doc.Summaries[sec.Msg].Line() + ")"
			if sec.Asked != sec.Msg {
				note = " (the nearest there is to the number asked)"
			}
			if e := sec.Doc.Trees[sec.Msg].Err; e != nil {
				ch.MsgErr = "The pinned message: " + Cut(e.Error(), MaxDescriptionText)
			}
		}
	}
	ch.Heads = [3]string{"field", a, b}
	for r, row := range c.Rows {
		t, i := c.Node(r)
		col := &ch.Columns[r]
		col.Name = strings.Repeat("\u00a0\u00a0", int(row.Depth)) + LabelText(t, i, MaxRowText) + diffMarks[row.Diff]
		col.Type = diffTitles[row.Diff]
		col.Old, col.New = compareValue(c.A, row.A), compareValue(c.B, row.B)
		col.Old.Node = -1 // a node of the pinned message, not of the one the page shows
		col.Changed = row.Diff >= DiffValue
	}
	ch.Why = "M" + a[1:] + " is pinned: choose another message in the list to compare it with."
	if a != b {
		ch.Why = "M" + a[1:] + ", pinned" + note + ", beside " + b + ", chosen in the list. Fields:"
		for d, n := range c.Count {
			if d > 0 && n > 0 || d == int(DiffValue) {
				ch.Why += " " + strconv.Itoa(n) + " " + diffTitles[d]
				if d < int(DiffOnlyA) {
					ch.Why += " (" + diffMarks[d][1:] + ")" // the rows' mark
				}
				ch.Why += ","
			}
		}
		ch.Why = ch.Why[:len(ch.Why)-1] + ". The hex view marks their bytes in " + b + "."
	}
	return ch
}

// compareValue is node i of t as a cell of the comparison (-1: t has no such field): its
// value (a group's size), cut.
func compareValue(t *decoder.Tree, i int32) ChangeValue {
	if i < 0 {
		return ChangeValue{Node: -1, Text: "—", Full: "not in this message"}
	}
	v := ChangeValue{Kind: 't', Node: i, Text: NodeText(t, int(i), MaxRowText)}
	v.Full = v.Text
	if len(v.Text) >= MaxRowText {
		v.Full = NodeText(t, int(i), MaxTitleText)
	}
	return v
}
