package web

import (
	"bytes"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
)

// TestEditItemsView: the controls offer Add wherever the draft adds an item (CanAddItem) and
// Remove wherever there is an item to remove (ItemOf), for every node of the first example's
// Insert and of the Truncate.
func TestEditItemsView(t *testing.T) {
	adds, removes := 0, 0
	for _, s := range []State{NewState(0), StateOfExample(exampleNamed(t, "Truncate"))} {
		tr := s.Tree()
		d := decoder.NewDraft(tr)
		for i := range tr.Nodes {
			v := apply(t, s, SelectNode{Node: int32(i)}).Edit.View
			if v.CanAdd != d.CanAddItem(i) || v.Item != int32(d.ItemOf(i)) {
				t.Errorf("%s, node %d (%s): add %v, item %d; the draft: %v, %d", tr.Label(tr.Message), i, tr.Label(i),
					v.CanAdd, v.Item, d.CanAddItem(i), d.ItemOf(i))
			}
			if v.CanAdd {
				adds++
			}
			if v.Item >= 0 {
				removes++
			}
		}
	}
	if adds == 0 || removes == 0 || adds == removes {
		t.Errorf("%d nodes offer Add, %d Remove", adds, removes)
	}
	s := NewState(0)
	oid := findNode(t, s, decoder.FieldInsertRelationOID, 0)
	if v := apply(t, s, SelectNode{Node: oid}).Edit.View; v.CanAdd || v.Item != -1 {
		t.Errorf("a relation OID of an Insert offers add %v, remove %d", v.CanAdd, v.Item)
	}
}

// TestEditAddRemoveColumn adds a column to the first example's Insert (a capture of real
// pgoutput) after its second column, then removes it: the bytes are the draft's, they decode
// with the new count and encode back to themselves, the new column is selected, the hex view
// marks the count and the new column; removing it gives back the original message.
func TestEditAddRemoveColumn(t *testing.T) {
	s0 := NewState(0)
	old := s0.Tree()
	count := findNode(t, s0, decoder.FieldTupleColumnCount, 0)
	n := old.ValueOf(int(count)).Num
	value := findNode(t, s0, decoder.FieldColumnValue, 1) // inside column 2
	col := int32(old.Parent(int(value)))
	s := apply(t, s0, SelectNode{Node: value})
	if v := s.Edit.View; !v.CanAdd || v.Item != col {
		t.Fatalf("edit view of column 2's value: add %v, item %d (want %d)", v.CanAdd, v.Item, col)
	}
	s = apply(t, s, Edit{Op: EditAdd, Node: value})
	nt := s.Tree()
	if s.Edit.View.Err != "" {
		t.Fatalf("refused: %s", s.Edit.View.Err)
	}
	d := decoder.NewDraft(old)
	added, err := d.AddItem(int(value))
	if err != nil || !bytes.Equal(nt.Bytes, d.Bytes()) || int32(added) != s.Node {
		t.Fatalf("the page wrote %x, selected %d; the draft %x, %d (%v)", nt.Bytes, s.Node, d.Bytes(), added, err)
	}
	// The decoder reads the new bytes with one column more, the new one a copy of column 2,
	// and writes them back the same.
	if nt.Err != nil || nt.ValueOf(int(count)).Num != n+1 || nt.Nodes[added].Field != decoder.FieldTupleColumn || nt.Nodes[added].Index != 3 {
		t.Fatalf("the new message reads as %v, count %d (was %d), node %d %s", nt.Err, nt.ValueOf(int(count)).Num, n, added, nt.Label(added))
	}
	c2, c3 := &old.Nodes[col], &nt.Nodes[added]
	if !bytes.Equal(nt.Bytes[c3.Offset:c3.Offset+c3.Length], old.Bytes[c2.Offset:c2.Offset+c2.Length]) {
		t.Errorf("column 3 is %x, column 2 was %x", nt.Bytes[c3.Offset:c3.Offset+c3.Length], old.Bytes[c2.Offset:c2.Offset+c2.Length])
	}
	if b, err := decoder.Encode(nt); err != nil || !bytes.Equal(b, nt.Bytes) {
		t.Errorf("the new message encodes to %x (%v), not itself", b, err)
	}
	// The input is the capture with the one message changed; the changed bytes are the count's
	// last byte, the new column and the XLogData envelope's length if any.
	if s.Doc.Format != input.Capture || len(s.Doc.Messages) != len(s0.Doc.Messages) || s.Msg != s0.Msg {
		t.Fatalf("edited input read as %q, %d messages, message %d", s.Doc.Format, len(s.Doc.Messages), s.Msg)
	}
	wantChanged := changedBytes(old.Bytes, nt.Bytes, c3.Offset, c3.Offset+c3.Length)
	if !equalRanges(s.Edit.Changed, wantChanged) || len(wantChanged) == 0 ||
		wantChanged[len(wantChanged)-1].Offset != c3.Offset || wantChanged[len(wantChanged)-1].Length != c3.Length {
		t.Errorf("changed bytes %v, want %v ending with the new column at %d+%d", s.Edit.Changed, wantChanged, c3.Offset, c3.Length)
	}
	if v := s.Edit.View; v.Node != int32(added) || v.Item != int32(added) || v.Edits != 1 {
		t.Errorf("edit view after adding: %+v", v)
	}

	// Removing the new column gives back the original message and selects the tuple.
	s = apply(t, s, Edit{Op: EditRemove, Node: s.Node})
	if s.Edit.View.Err != "" || !bytes.Equal(s.Tree().Bytes, old.Bytes) {
		t.Fatalf("after removing the new column: %q, %x, want %x", s.Edit.View.Err, s.Tree().Bytes, old.Bytes)
	}
	for k := range s.Doc.Messages {
		if !bytes.Equal(s.Doc.Messages[k].Bytes, s0.Doc.Messages[k].Bytes) || s.Doc.Messages[k].LSN != s0.Doc.Messages[k].LSN {
			t.Errorf("message %d differs from the original", k)
		}
	}
	if f := s.Tree().Nodes[s.Node].Field; f != decoder.FieldTupleNew || s.Edit.View.Edits != 2 {
		t.Errorf("after removing: %v selected, %d edits", f, s.Edit.View.Edits)
	}
	// Only the count changed; Undo goes back to the message with the column.
	if want := changedBytes(nt.Bytes, old.Bytes, c3.Offset, c3.Offset); !equalRanges(s.Edit.Changed, want) || len(want) == 0 {
		t.Errorf("changed bytes after removing %v, want %v", s.Edit.Changed, want)
	}
	if u := apply(t, s, Edit{Op: EditUndo}); !bytes.Equal(u.Tree().Bytes, nt.Bytes) || u.Node != int32(added) {
		t.Errorf("Undo: node %d, bytes %x", u.Node, u.Tree().Bytes)
	}
}

// TestEditItemsToEmpty removes a Truncate's relation OIDs one by one from a hex input, then adds
// one to the empty list (its count selected): relation OID 0. The share link opens to the same
// bytes.
func TestEditItemsToEmpty(t *testing.T) {
	ex := StateOfExample(exampleNamed(t, "Truncate"))
	b := ex.Tree().Bytes
	s := apply(t, NewState(-1), SetText{Text: string(hexLine(b))})
	count := findNode(t, s, decoder.FieldTruncateRelationCount, 0)
	n := int(s.Tree().ValueOf(int(count)).Num)
	if n < 1 {
		t.Fatalf("the Truncate has %d relations", n)
	}
	for k := n; k > 0; k-- {
		oid := findNode(t, s, decoder.FieldTruncateRelationOID, 0)
		s = apply(t, s, SelectNode{Node: oid}, Edit{Op: EditRemove, Node: oid})
		if nt := s.Tree(); s.Edit.View.Err != "" || nt.Err != nil || nt.ValueOf(int(count)).Num != uint64(k-1) {
			t.Fatalf("after removing: %q, %v, count %d, want %d", s.Edit.View.Err, nt.Err, nt.ValueOf(int(count)).Num, k-1)
		}
	}
	if want := len(b) - 4*n; len(s.Tree().Bytes) != want || s.Force != input.Hex {
		t.Fatalf("%d bytes, want %d; read as %q", len(s.Tree().Bytes), want, s.Force)
	}
	s = apply(t, s, SelectNode{Node: count})
	if v := s.Edit.View; !v.CanAdd || v.Item != -1 {
		t.Fatalf("the empty list's count: add %v, item %d", v.CanAdd, v.Item)
	}
	s = apply(t, s, Edit{Op: EditAdd, Node: count})
	nt := s.Tree()
	if nt.Err != nil || nt.ValueOf(int(count)).Num != 1 || nt.Nodes[s.Node].Field != decoder.FieldTruncateRelationOID || nt.ValueOf(int(s.Node)).Num != 0 {
		t.Fatalf("after adding to the empty list: %v, %s", nt.Err, nt.Label(int(s.Node)))
	}
	if want := string(hexLine(nt.Bytes)) + "\n"; s.Text != want {
		t.Fatalf("text %q, want %q", s.Text, want)
	}
	_, fx := Apply(s, Share{})
	var payload []byte
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			payload = c.Payload
		}
	}
	if o := apply(t, NewState(-1), OpenShared{Payload: payload}); o.Tree() == nil || !bytes.Equal(o.Tree().Bytes, nt.Bytes) {
		t.Fatalf("the share link does not open to the edited bytes")
	}
}

// TestEditItemsRefused: the draft's reason for refusing to add shows next to the controls, and
// nothing changes. A column holding the bytes that could not be decoded is not copied.
func TestEditItemsRefused(t *testing.T) {
	// An Insert whose second column, null, is followed by bytes that do not read.
	msg := []byte{'I', 0, 0, 0, 1, 'N', 0, 2, 'n', 2}
	msg = append(msg, "rest of the message"...)
	s := apply(t, NewState(-1), SetText{Text: string(hexLine(msg))})
	if s.Tree() == nil || s.Tree().Err == nil {
		t.Fatalf("the broken Insert reads without error")
	}
	kind := findNode(t, s, decoder.FieldColumnKind, 1)
	text := s.Text
	s = apply(t, s, SelectNode{Node: kind}, Edit{Op: EditAdd, Node: kind})
	if !strings.Contains(s.Edit.View.Err, "was not read whole") || s.Text != text || s.Edit.View.Edits != 0 {
		t.Fatalf("refusal %q; input changed %v", s.Edit.View.Err, s.Text != text)
	}
}

// TestEditKeepsTreePlace: an edit keeps the tree's scroll position, scrolling it only as far as
// shows the node selected then (hexview.Viewport.Reveal from where it was, as the keyboard
// does), with an effect that scrolls the box there, so that the rows the tree draws are those of
// the box's place. Column 2's value is the last row in view: the column added after it is one
// row below the box, which scrolls by that row.
func TestEditKeepsTreePlace(t *testing.T) {
	s := NewState(0)
	value := findNode(t, s, decoder.FieldColumnValue, 1) // column 2's value
	row := rowOfNode(s.TreeRows, value)
	h := 10 * hexview.RowHeight
	top := (row+1)*hexview.RowHeight - h
	s = apply(t, s, Scroll{Panel: PanelTree, Top: top, Height: h}, SelectNode{Node: value})
	moved := 0
	for _, a := range []Edit{{Node: value, Text: "f"}, {Op: EditAdd, Node: value}, {Op: EditUndo}, {Op: EditAdd, Node: value}, {Op: EditRemove, Node: value + 1}, {Op: EditOriginal}} {
		was := s.View[PanelTree]
		var fx []Effect
		s, fx = Apply(s, a)
		r := rowOfNode(s.TreeRows, s.Node)
		want := was.Reveal(r, r)
		got := s.View[PanelTree]
		if s.Edit.View.Err != "" || r < 0 || got.Top != want || got.Height != h || (want != was.Top) != (treeScroll(fx) == want) {
			t.Fatalf("after %+v: %q, node %d at row %d; the tree at %d+%d (was %d+%d, want %d), scrolled to %d",
				a, s.Edit.View.Err, s.Node, r, got.Top, got.Height, was.Top, was.Height, want, treeScroll(fx))
		}
		if want != was.Top {
			moved++
		}
	}
	if s.Edit.View.Edits != 0 || s.Node != value || moved == 0 {
		t.Fatalf("after Original: %d edits, node %d; the tree scrolled %d times", s.Edit.View.Edits, s.Node, moved)
	}
}

// treeScroll returns where the effects scroll the tree to, or -1.
func treeScroll(fx []Effect) int {
	top := -1
	for _, e := range fx {
		if e, ok := e.(EffectScroll); ok && e.Panel == PanelTree {
			top = e.Top
		}
	}
	return top
}
