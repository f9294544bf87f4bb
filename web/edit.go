package web

import (
	"strconv"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
)

// EditOp is what an Edit action does to the selected node.
type EditOp uint8

// Edit operations.
const (
	// EditSet sets a leaf's value from Text, written as EditView.Text writes it.
	EditSet EditOp = iota
	// EditAdd adds an item to a counted list (decoder.Draft.AddItem): a copy of the column or
	// relation OID the node is or lies in, after it; for the list's group or count, a copy of
	// its last item at the end, or, in an empty list, a null column (a relation OID 0; a
	// Relation column with no name and type 0). The new item is selected.
	EditAdd
	// EditRemove removes the column or relation OID the node is or lies in; the group it was in
	// is selected.
	EditRemove
	// EditUndo makes the input what it was before the last edit; EditOriginal, before the first.
	EditUndo
	EditOriginal
)

// Edit: the edit controls changed node Node of the chosen message (through a decoder.Draft), or
// asked to undo edits; the input becomes the edited stream.
type Edit struct {
	Op   EditOp
	Node int32
	Text string
}

func (Edit) isAction() {}

// MaxUndo is how many inputs before an edit the page keeps: the original and the inputs before
// the last MaxUndo-1 edits.
const MaxUndo = 20

// EditState is the editing of the chosen message: what the controls offer for the selected node,
// and the inputs before the edits made.
type EditState struct {
	// View is what the edit controls show; a new one whenever anything in it changes.
	View *EditView
	// Undo holds the input before each edit, oldest first (the original is Undo[0]). The
	// history is forgotten when another input is typed, pasted or opened.
	Undo []EditBefore
	// Changed are the bytes of message ChangedMsg that the last edit wrote, in its new bytes.
	Changed    []hexview.Range
	ChangedMsg int
}

// EditBefore is an input as it was before an edit, and the node selected in it.
type EditBefore struct {
	Text    string
	Force   input.Format
	Proto   int
	Example int
	Msg     int
	Node    int32
}

// EditView is what the edit controls show for node Node of Tree. It never changes once made.
type EditView struct {
	Tree *decoder.Tree
	Node int32
	// How says how the value is written as text (decoder.EditNone: not a value to edit);
	// Text is the value written so.
	How  decoder.EditHow
	Text string
	// CanAdd says EditAdd adds an item for the node; Item is the item EditRemove removes (-1:
	// none).
	CanAdd bool
	Item   int32
	// Err is the draft's reason for refusing the last edit of this node.
	Err string
	// Edits counts the edits that can be undone.
	Edits int
}

// syncEdit brings Edit.View up to date with the chosen message and the selected node.
func (s *State) syncEdit() {
	t := s.Tree()
	v := s.Edit.View
	if v != nil && v.Tree == t && v.Node == s.Node && v.Edits == len(s.Edit.Undo) {
		return
	}
	if t == nil && len(s.Edit.Undo) == 0 {
		s.Edit.View = nil
		return
	}
	nv := &EditView{Tree: t, Node: -1, Item: -1, Edits: len(s.Edit.Undo)}
	// A Draft reads replication messages only: the frontend/backend protocol's messages, which
	// only their connection's conversation can read, are not edited.
	if t != nil && s.Node >= 0 && int(s.Node) < len(t.Nodes) && t.Wire == nil {
		i := int(s.Node)
		d := decoder.NewDraft(t)
		nv.Node, nv.How, nv.CanAdd, nv.Item = s.Node, d.EditHow(i), d.CanAddItem(i), int32(d.ItemOf(i))
		if nv.How != decoder.EditNone {
			nv.Text = d.EditText(i)
		}
	}
	s.Edit.View = nv
}

// edit applies an edit to node a.Node of the chosen message; the effects scroll the tree to the
// node selected then.
func (s *State) edit(a Edit) []Effect {
	t := s.Tree()
	if a.Op >= EditUndo {
		return s.undoEdit(a.Op == EditOriginal)
	}
	if t == nil || a.Node < 0 || int(a.Node) >= len(t.Nodes) {
		return nil
	}
	if s.Stale {
		// The text box holds typing that does not read: the edited stream would replace it.
		s.refuseEdit("the text in the input box does not read now (" + s.InputErr.Msg + "); correct it there first")
		return nil
	}
	d := decoder.NewDraft(t)
	i := int(a.Node)
	// The edit wrote b[from:to] of the new message b: the value, the column read again after
	// its marker, the item added, nothing where an item was removed; node sel is selected then.
	w, sel := i, a.Node
	var err error
	switch a.Op {
	case EditAdd:
		w, err = d.AddItem(i)
		sel = int32(w)
	case EditRemove:
		w = d.ItemOf(i)
		err = d.RemoveItem(i)
	default:
		err = d.SetText(i, a.Text)
		if p := t.Parent(i); p >= 0 && p+1 == i && t.Nodes[i].Field.Info().Kind == decoder.KindMarker {
			w = p // the marker opens its group, which is read again
		}
	}
	if err != nil {
		s.refuseEdit(err.Error())
		return nil
	}
	b, nt := d.Bytes(), d.Tree()
	var from, to int
	if a.Op == EditRemove {
		// The bytes before the item are as they were (but a length or count that changed).
		from, to, sel = t.Nodes[w].Offset, t.Nodes[w].Offset, int32(t.Parent(w))
	} else {
		from, to = nt.Nodes[w].Offset, nt.Nodes[w].Offset+nt.Nodes[w].Length
	}
	if string(b) == string(t.Bytes) {
		return nil // the value it had
	}
	text := s.Doc.editedText(s.Msg, b)
	if text == "" {
		s.refuseEdit("the input has an empty message, which the edited input (one message a line) cannot hold")
		return nil
	}
	if len(text) > MaxInput {
		s.refuseEdit("the edited input would be " + strconv.Itoa(len(text)) + " bytes of text, more than the page reads")
		return nil
	}
	undo := append(make([]EditBefore, 0, len(s.Edit.Undo)+1), s.Edit.Undo...)
	if len(undo) == MaxUndo {
		undo = append(undo[:1], undo[2:]...) // the original stays
	}
	undo = append(undo, EditBefore{Text: s.Text, Force: s.Force, Proto: s.Proto, Example: s.Example, Msg: s.Msg, Node: s.Node})
	force := input.Hex
	if s.Doc.Format == input.Capture {
		force = input.Capture
	}
	m := s.Msg
	fx := s.openEdited(text, force, m, sel)
	s.Edit.Undo = undo
	s.Edit.Changed, s.Edit.ChangedMsg = changedBytes(t.Bytes, b, from, to), m
	if s.Msg == m && s.Model != nil {
		s.Model = s.Model.WithChanged(s.Edit.Changed)
	}
	return fx
}

// refuseEdit shows why the draft refused the edit, next to the controls.
func (s *State) refuseEdit(reason string) {
	s.syncEdit()
	v := *s.Edit.View
	v.Err = reason
	s.Edit.View = &v
}

// openEdited makes text the input, read as force, with message m chosen and node n of it
// selected; the hex view and the tree keep their place, the tree scrolling as little as shows
// the node (the effects: the rows are drawn for where its box is).
func (s *State) openEdited(text string, force input.Format, m int, n int32) []Effect {
	shown, tree := s.Shown, s.View[PanelTree]
	s.Text, s.Force, s.Example = text, force, -1
	s.Menu.Want = -1 // the input changed: an example still loading is no longer wanted
	s.Doc, s.InputErr, s.Stale, s.LinkErr, s.Refused.Msg = nil, nil, false, "", ""
	s.Share = ShareState{}
	s.Doc, s.InputErr = NewDoc(text, force, s.options(), m+1)
	s.selectMessage(m, false)
	s.Shown, s.View[PanelTree] = shown, tree
	var fx []Effect
	fx = s.selectNode(n, true)
	s.Reveal++
	s.Edit.Changed = nil
	return fx
}

// undoEdit goes back to the input before the last edit (or the first).
func (s *State) undoEdit(original bool) []Effect {
	if len(s.Edit.Undo) == 0 {
		return nil
	}
	k := len(s.Edit.Undo) - 1
	if original {
		k = 0
	}
	b := s.Edit.Undo[k]
	undo := s.Edit.Undo[:k:k]
	s.Proto = b.Proto
	fx := s.openEdited(b.Text, b.Force, b.Msg, b.Node)
	s.Example = b.Example
	s.Edit.Undo = undo
	return fx
}

// editedText is the input with message m's bytes replaced by b, and every other message's
// bytes as they were: a capture file as a capture file (its header and each message's LSN),
// anything else as hex, one message a line. It returns "" when a message is empty: a line
// cannot hold it.
func (d *Doc) editedText(m int, b []byte) string { return d.linesText(nil, m, b) }

// linesText writes the messages idx (nil: all) as editedText writes them, with message m's
// bytes replaced by b.
func (d *Doc) linesText(idx []int, m int, b []byte) string {
	var out []byte
	capture := d.Format == input.Capture
	if capture {
		for _, h := range d.Header {
			out = append(append(append(out, "# "...), h...), '\n')
		}
	}
	n := len(idx)
	if idx == nil {
		n = len(d.Messages)
	}
	for i := range n {
		k := i
		if idx != nil {
			k = idx[i]
		}
		msg := d.Messages[k].Bytes
		if k == m {
			msg = b
		}
		if len(msg) == 0 {
			return ""
		}
		if capture {
			out = append(pgvalue.AppendLSN(out, d.Messages[k].LSN), ' ')
		}
		out = append(export.AppendBytes(out, export.Hex, msg), '\n')
	}
	return string(out)
}

// changedBytes returns the bytes of b, the edited message, that differ from a, the message before
// the edit, which wrote b[from:to] (every byte there when its length changed): before from,
// bytes are compared at the same offset, from to on with the bytes after the edit in a.
func changedBytes(a, b []byte, from, to int) []hexview.Range {
	var rs []hexview.Range
	mark := func(k int) {
		if n := len(rs); n > 0 && rs[n-1].End() == k {
			rs[n-1].Length++
		} else {
			rs = append(rs, hexview.Range{Offset: k, Length: 1})
		}
	}
	shift := len(b) - len(a)
	for k := range b {
		switch {
		case k < from || k >= to:
			if j := k; k >= to {
				j = k - shift
				if j < 0 || j >= len(a) || a[j] != b[k] {
					mark(k)
				}
			} else if j >= len(a) || a[j] != b[k] {
				mark(k)
			}
		case shift != 0 || a[k] != b[k]:
			mark(k)
		}
	}
	return rs
}
