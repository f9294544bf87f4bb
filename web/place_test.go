package web

import (
	"strings"
	"testing"
)

// selectLabel selects the first node of the shown message labelled label.
func selectLabel(t *testing.T, s State, label string, nth int) State {
	t.Helper()
	tr := s.Tree()
	for i := range tr.Nodes {
		if tr.Label(i) == label {
			if nth == 0 {
				return apply(t, s, SelectNode{Node: int32(i)})
			}
			nth--
		}
	}
	t.Fatalf("no node %q", label)
	return s
}

func TestTreePath(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Update, key changed"))
	tr := s.Tree()
	for i := range tr.Nodes {
		p := treePath(tr, int32(i))
		if n, whole := nodeAtPath(tr, p); n != int32(i) || !whole || len(p) != int(tr.Nodes[i].Depth)+1 {
			t.Fatalf("node %d: path %v leads to %d (whole %v)", i, p, n, whole)
		}
	}
	if n, whole := nodeAtPath(tr, []int{0, 1, 99}); whole || n != 2 {
		t.Errorf("a path past the tree leads to %d (whole %v), want its last node on the way, 2", n, whole)
	}
}

// TestEditKeepsPlace checks that an edit of the text keeps the message chosen (by its LSN in a
// capture, so a line added above does not move it) and the field chosen (by its path).
func TestEditKeepsPlace(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Update, key changed"))
	if s.Doc.Summaries[s.Msg].Name != "Update" {
		t.Fatalf("the example shows %s", s.Doc.Summaries[s.Msg].Name)
	}
	s = selectLabel(t, s, "Value", 0) // the old key's first column, before the new tuple
	newTuple := int32(-1)
	for i := range s.Tree().Nodes {
		if s.Tree().Label(i) == "New tuple" {
			newTuple = int32(i)
		}
	}
	s = apply(t, s, ToggleNode{Node: newTuple})
	msg, node, sel := s.Msg, s.Node, s.Sel
	lines := strings.Split(s.Text, "\n")

	// Text added at the end.
	e := apply(t, s, SetText{Text: s.Text + "\n\n", Typing: true})
	if e.Msg != msg || e.Node != node || e.Sel != sel || !e.Collapsed[newTuple] || e.Stale || e.InputErr != nil {
		t.Errorf("after a blank line: message %d node %d sel %+v collapsed %v; want %d %d %+v", e.Msg, e.Node, e.Sel, e.Collapsed, msg, node, sel)
	}
	// A message added above: the Update moves one down, found by its LSN.
	added := strings.Join(append(lines[:3:3], append([]string{lines[3]}, lines[3:]...)...), "\n")
	e = apply(t, s, SetText{Text: added})
	if e.Msg != msg+1 || e.Node != node || e.Tree().Label(int(e.Node)) != "Value" {
		t.Errorf("after a message added above: message %d node %d; want %d %d", e.Msg, e.Node, msg+1, node)
	}
	// The format chosen again, the protocol chosen: the same place.
	for _, a := range []Action{SetForce{Format: "capture"}, SetProto{Proto: 4}} {
		if e := apply(t, s, a); e.Msg != msg || e.Node != node {
			t.Errorf("after %T: message %d node %d; want %d %d", a, e.Msg, e.Node, msg, node)
		}
	}
	// A text without LSNs keeps the index.
	h := apply(t, NewState(-1), SetText{Text: txnInsert}, SelectMessage{Msg: 2})
	h = selectLabel(t, h, "Length", 0)
	hm, hn := h.Msg, h.Node
	h = apply(t, h, SetText{Text: txnInsert + txnInsert})
	if h.Msg != hm || h.Node != hn {
		t.Errorf("hex lines: message %d node %d after an edit, want %d %d", h.Msg, h.Node, hm, hn)
	}
}

// TestFileStartsAtFirstMessage: a file opened is another input, shown from its first message
// and none of its fields, where the same text pasted keeps the place.
func TestFileStartsAtFirstMessage(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: txnInsert}, SelectMessage{Msg: 2})
	s = selectLabel(t, s, "Length", 0)
	f := apply(t, s, SetText{Text: txnInsert + txnInsert, File: true})
	if f.Msg != 0 || f.Node != -1 || !f.Sel.Empty() || f.View[PanelList].Top != 0 {
		t.Errorf("a file opened shows message %d, node %d, selection %+v, list from %d; want message 0, nothing chosen, from the top",
			f.Msg, f.Node, f.Sel, f.View[PanelList].Top)
	}
	if p := apply(t, s, SetText{Text: txnInsert + txnInsert}); p.Msg != 2 {
		t.Errorf("a paste shows message %d, want 2 as before", p.Msg)
	}
}

// TestTypingKeepsLastGoodDecode checks that a text made unreadable for a moment by typing keeps
// the last decode on the page, marked stale, with the error where the typing is; and that a
// paste with a bad character shows what could be read.
func TestTypingKeepsLastGoodDecode(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Update, key changed"))
	s = selectLabel(t, s, "Value", 1)
	doc, node := s.Doc, s.Node
	// Delete the last hex digit of the Update's line.
	line := s.Doc.Messages[s.Msg].Line
	lines := strings.Split(s.Text, "\n")
	lines[line-1] = lines[line-1][:len(lines[line-1])-1]
	odd := strings.Join(lines, "\n")
	e := apply(t, s, SetText{Text: odd, Typing: true})
	if !e.Stale || e.Doc != doc || e.Node != node || e.InputErr == nil || e.InputErr.Line != line {
		t.Fatalf("an odd digit typed: stale %v, same doc %v, node %d, error %v", e.Stale, e.Doc == doc, e.Node, e.InputErr)
	}
	// More typing that does not read: still the same decode.
	e = apply(t, e, SetText{Text: odd + "x", Typing: true})
	if !e.Stale || e.Doc != doc {
		t.Errorf("more typing: stale %v, same doc %v", e.Stale, e.Doc == doc)
	}
	// Typed back: read again, the place kept.
	e = apply(t, e, SetText{Text: s.Text, Typing: true})
	if e.Stale || e.InputErr != nil || e.Doc == doc || e.Node != node || e.Msg != s.Msg {
		t.Errorf("typed back: stale %v, error %v, node %d msg %d", e.Stale, e.InputErr, e.Node, e.Msg)
	}

	// A paste of the same text shows what can be read, and selects the bad character.
	long := strings.Repeat(txnInsert, 50)
	bad := strings.Index(long, "\n4900005967") + 10 // a character in the 3rd message's line
	pasted := long[:bad] + "g" + long[bad+1:]
	p, fx := Apply(NewState(-1), SetText{Text: pasted})
	if p.Stale || p.Doc == nil || len(p.Doc.Messages) != 4*50-1 || p.InputErr == nil || p.InputErr.Line != 3 {
		t.Fatalf("a paste with one bad character: doc %v, error %v", p.Doc != nil, p.InputErr)
	}
	var selected *EffectSelectText
	for _, f := range fx {
		if f, ok := f.(EffectSelectText); ok {
			selected = &f
		}
	}
	if selected == nil || selected.Start != bad || selected.End != bad+1 {
		t.Errorf("the bad character at %d is not selected: %v", bad, fx)
	}
	if _, fx := Apply(p, SelectBadText{}); len(fx) != 1 {
		t.Errorf("clicking the error: %v", fx)
	}
}
