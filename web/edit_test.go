package web

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
)

// findNode returns the n-th node (0-based) of the chosen message's tree with field f, failing
// the test when there is none.
func findNode(t *testing.T, s State, f decoder.FieldID, n int) int32 {
	t.Helper()
	tr := s.Tree()
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == f {
			if n == 0 {
				return int32(i)
			}
			n--
		}
	}
	t.Fatalf("message %d has no node %v", s.Msg, f)
	return -1
}

// editedInsert is the first example (an Insert) after its first column's value, "1", was set
// to "hello".
func editedInsert(t *testing.T) (before, after State, value int32) {
	t.Helper()
	before = NewState(0)
	value = findNode(t, before, decoder.FieldColumnValue, 0)
	before = apply(t, before, SelectNode{Node: value})
	if got := before.Edit.View; got == nil || got.Node != value || got.How != decoder.EditText || got.Text != "1" {
		t.Fatalf("edit view of the first column value: %+v", got)
	}
	after = apply(t, before, Edit{Op: EditSet, Node: value, Text: "hello"})
	return before, after, value
}

func TestEditTextValue(t *testing.T) {
	before, s, value := editedInsert(t)
	old := before.Tree()
	if s.Edit.View.Err != "" {
		t.Fatalf("refused: %s", s.Edit.View.Err)
	}
	// The new bytes, written out by hand: the length before the value says 5, the value is
	// "hello", everything else is as it was.
	v := &old.Nodes[value]
	length := &old.Nodes[value-1]
	if length.Field != decoder.FieldColumnLength {
		t.Fatalf("node before the value is %v", length.Field)
	}
	want := append([]byte{}, old.Bytes[:length.Offset]...)
	want = binary.BigEndian.AppendUint32(want, 5)
	want = append(want, "hello"...)
	want = append(want, old.Bytes[v.Offset+v.Length:]...)
	nt := s.Tree()
	if !bytes.Equal(nt.Bytes, want) {
		t.Fatalf("edited message:\n got %x\nwant %x", nt.Bytes, want)
	}
	if nt.Err != nil || nt.Type != 'I' || string(nt.ValueBytes(int(value))) != "hello" {
		t.Fatalf("the decoder reads the edited message as %v, %q: %q", nt.Err, nt.Type, nt.ValueBytes(int(value)))
	}
	// The other messages keep their bytes; the text is the capture file again.
	if s.Force != input.Capture || s.Doc.Format != input.Capture || len(s.Doc.Messages) != len(before.Doc.Messages) {
		t.Fatalf("edited input read as %q (%q), %d messages", s.Doc.Format, s.Force, len(s.Doc.Messages))
	}
	for k := range s.Doc.Messages {
		if k != s.Msg && !bytes.Equal(s.Doc.Messages[k].Bytes, before.Doc.Messages[k].Bytes) {
			t.Errorf("message %d changed", k)
		}
		if m, o := s.Doc.Messages[k], before.Doc.Messages[k]; m.LSN != o.LSN {
			t.Errorf("message %d: LSN %x, was %x", k, m.LSN, o.LSN)
		}
	}
	if strings.Join(s.Doc.Header, "\n") != strings.Join(before.Doc.Header, "\n") {
		t.Errorf("header %q, was %q", s.Doc.Header, before.Doc.Header)
	}
	// The selection stays on the value; the changed bytes are the length's last byte and the value.
	if s.Msg != before.Msg || s.Node != value {
		t.Errorf("selected message %d node %d, want %d %d", s.Msg, s.Node, before.Msg, value)
	}
	wantChanged := []hexview.Range{{Offset: length.Offset + 3, Length: 1 + 5}}
	if !equalRanges(s.Edit.Changed, wantChanged) {
		t.Errorf("changed bytes %v, want %v", s.Edit.Changed, wantChanged)
	}
	rows := s.Model.Rows(0, s.Model.RowCount(), hexview.Marks{})
	changed := 0
	for _, r := range rows {
		for _, sg := range r.Segments {
			if sg.Changed {
				changed += sg.Length
			}
		}
	}
	if changed != 6 {
		t.Errorf("the hex view marks %d bytes as changed, want 6", changed)
	}
	if s.Edit.View.Edits != 1 || s.Edit.View.Text != "hello" {
		t.Errorf("edit view after the edit: %+v", s.Edit.View)
	}
}

func equalRanges(a, b []hexview.Range) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEditMarker(t *testing.T) {
	s := NewState(0)
	kind := findNode(t, s, decoder.FieldColumnKind, 0)
	cols := len(s.Tree().Nodes)
	s = apply(t, s, SelectNode{Node: kind}, Edit{Op: EditSet, Node: kind, Text: "n"})
	nt := s.Tree()
	if s.Edit.View.Err != "" || nt.Err != nil {
		t.Fatalf("refused: %q, %v", s.Edit.View.Err, nt.Err)
	}
	if got := nt.ValueOf(int(kind)).Num; got != 'n' {
		t.Fatalf("kind %q", rune(got))
	}
	// A null column has no length and no value.
	if len(nt.Nodes) != cols-2 || nt.Nodes[kind+1].Field != decoder.FieldTupleColumn {
		t.Fatalf("%d nodes (was %d); after the kind: %v", len(nt.Nodes), cols, nt.Nodes[kind+1].Field)
	}
	if s.Node != kind {
		t.Errorf("selected %d, want the marker %d", s.Node, kind)
	}
	// Back to text: an empty value.
	s = apply(t, s, Edit{Op: EditSet, Node: kind, Text: "t"})
	if nt := s.Tree(); nt.Err != nil || len(nt.Nodes) != cols || len(nt.ValueBytes(int(kind)+2)) != 0 {
		t.Fatalf("after t: %v, %d nodes", nt.Err, len(nt.Nodes))
	}
}

func TestEditRefused(t *testing.T) {
	s := NewState(0)
	typ := findNode(t, s, decoder.FieldInsertType, 0)
	before := s.Text
	s = apply(t, s, SelectNode{Node: typ}, Edit{Op: EditSet, Node: typ, Text: "U"})
	if !strings.Contains(s.Edit.View.Err, "the type byte decides the message's whole layout") {
		t.Fatalf("refusal %q", s.Edit.View.Err)
	}
	if s.Text != before || s.Edit.View.Edits != 0 {
		t.Fatalf("a refused edit changed the input")
	}
	// The reason goes with the node: another node's controls do not show it.
	s = apply(t, s, SelectNode{Node: typ + 1})
	if s.Edit.View.Err != "" {
		t.Fatalf("refusal shown for another node: %q", s.Edit.View.Err)
	}
	// A value that does not read.
	oid := findNode(t, s, decoder.FieldInsertRelationOID, 0)
	s = apply(t, s, SelectNode{Node: oid}, Edit{Op: EditSet, Node: oid, Text: "-3"})
	if !strings.Contains(s.Edit.View.Err, "expected a whole number") {
		t.Fatalf("refusal %q", s.Edit.View.Err)
	}
}

func TestEditUndo(t *testing.T) {
	before, s, value := editedInsert(t)
	first := s.Text
	s = apply(t, s, Edit{Op: EditSet, Node: value, Text: "again"})
	if s.Edit.View.Edits != 2 || s.Text == first {
		t.Fatalf("second edit: %d edits", s.Edit.View.Edits)
	}
	u := apply(t, s, Edit{Op: EditUndo})
	if u.Text != first || u.Edit.View.Edits != 1 || u.Node != value {
		t.Fatalf("undo: %d edits, node %d, text same as after the first edit: %v", u.Edit.View.Edits, u.Node, u.Text == first)
	}
	o := apply(t, s, Edit{Op: EditOriginal})
	if o.Text != before.Text || o.Edit.View.Edits != 0 || o.Example != 0 || o.Msg != before.Msg || o.Node != value {
		t.Fatalf("original: %d edits, example %d, message %d node %d", o.Edit.View.Edits, o.Example, o.Msg, o.Node)
	}
	// Another input forgets the edits.
	s = apply(t, s, SetText{Text: "42"})
	if len(s.Edit.Undo) != 0 {
		t.Fatalf("%d edits kept after new text", len(s.Edit.Undo))
	}
}

func TestEditShareLink(t *testing.T) {
	_, s, value := editedInsert(t)
	_, fx := Apply(s, Share{})
	var payload []byte
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			payload = c.Payload
		}
	}
	if payload == nil {
		t.Fatalf("Share made no payload: %v", fx)
	}
	o := apply(t, NewState(-1), OpenShared{Payload: payload})
	if o.Doc == nil || o.Msg != s.Msg || !bytes.Equal(o.Tree().Bytes, s.Tree().Bytes) {
		t.Fatalf("the link opens message %d, other bytes", o.Msg)
	}
	if string(o.Tree().ValueBytes(int(value))) != "hello" {
		t.Fatalf("the link's value %q", o.Tree().ValueBytes(int(value)))
	}
}

func TestEditHexInput(t *testing.T) {
	// A Truncate as one line of hex (not a capture): the edited input is hex, one message a
	// line.
	s := StateOfExample(exampleNamed(t, "Truncate"))
	tr := s.Tree()
	oid := findNode(t, s, decoder.FieldTruncateRelationOID, 0)
	b := tr.Bytes
	s = apply(t, NewState(-1), SetText{Text: string(hexLine(b))})
	if s.Tree() == nil || !bytes.Equal(s.Tree().Bytes, b) {
		t.Fatalf("hex input not read")
	}
	s = apply(t, s, SelectNode{Node: oid}, Edit{Node: oid, Text: "4294967295"})
	if s.Force != input.Hex || s.Tree() == nil || s.Tree().Err != nil || s.Tree().ValueOf(int(oid)).Num != 1<<32-1 {
		t.Fatalf("after setting an OID: %q, %v", s.Force, s.Tree())
	}
	if o := tr.Nodes[oid].Offset; !bytes.Equal(s.Tree().Bytes[o:o+4], []byte{0xff, 0xff, 0xff, 0xff}) ||
		!bytes.Equal(s.Tree().Bytes[:o], b[:o]) || !bytes.Equal(s.Tree().Bytes[o+4:], b[o+4:]) {
		t.Fatalf("edited bytes %x, were %x", s.Tree().Bytes, b)
	}
	if want := string(hexLine(s.Tree().Bytes)) + "\n"; s.Text != want {
		t.Fatalf("text %q, want %q", s.Text, want)
	}
}

func hexLine(b []byte) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

func TestChangedBytes(t *testing.T) {
	for _, c := range []struct {
		a, b     string
		from, to int
		want     []hexview.Range
	}{
		{"abcd", "abXd", 2, 3, []hexview.Range{{Offset: 2, Length: 1}}},
		{"abcd", "abcd", 2, 3, nil},
		{"5abc", "6abXc", 3, 4, []hexview.Range{{Offset: 0, Length: 1}, {Offset: 3, Length: 1}}},
		{"5abXc", "4abc", 3, 3, []hexview.Range{{Offset: 0, Length: 1}}},
		{"2ab", "3abb", 3, 4, []hexview.Range{{Offset: 0, Length: 1}, {Offset: 3, Length: 1}}},
		{"ab", "abc", 0, 3, []hexview.Range{{Offset: 0, Length: 3}}},
	} {
		if got := changedBytes([]byte(c.a), []byte(c.b), c.from, c.to); !equalRanges(got, c.want) {
			t.Errorf("changedBytes(%q, %q, %d, %d) = %v, want %v", c.a, c.b, c.from, c.to, got, c.want)
		}
	}
}

func TestEditRefusedWhileTyping(t *testing.T) {
	// The text box holds a hex line with an odd digit typed after it: the page shows the last
	// decode that read, and an edit would throw the typing away.
	s := StateOfExample(exampleNamed(t, "Truncate"))
	line := string(hexLine(s.Tree().Bytes))
	s = apply(t, NewState(-1), SetText{Text: line})
	s = apply(t, s, SetText{Text: line + "0", Typing: true})
	if !s.Stale {
		t.Fatalf("not stale: %v", s.InputErr)
	}
	oid := findNode(t, s, decoder.FieldTruncateRelationOID, 0)
	s = apply(t, s, SelectNode{Node: oid}, Edit{Node: oid, Text: "7"})
	if !strings.Contains(s.Edit.View.Err, "does not read now") || s.Text != line+"0" {
		t.Fatalf("edit while stale: %q, text kept: %v", s.Edit.View.Err, s.Text == line+"0")
	}
}

func TestEditedTextEmptyMessage(t *testing.T) {
	d := &Doc{Format: input.Hex, Messages: []input.Message{{Bytes: []byte{1}}, {Bytes: nil}}}
	if got := d.editedText(0, []byte{2}); got != "" {
		t.Fatalf("an input with an empty message written as %q", got)
	}
	d.Messages[1].Bytes = []byte{3}
	if got := d.editedText(0, []byte{2}); got != "02\n03\n" {
		t.Fatalf("written as %q", got)
	}
}

// TestEditNotWireMessages: a message of the frontend/backend protocol (here the server's
// one-byte answer to an SSLRequest, and a DataRow, whose 'D' a Draft would read as a Delete)
// offers no edit, nor an item to add or remove, so the page sends none: a Draft reads
// replication messages only (reading an SSLResponse's field 1 in one panicked).
func TestEditNotWireMessages(t *testing.T) {
	text := "Follow: tcp,raw\nNode 0: a\nNode 1: b\n" +
		"0000000804d2162f\n\t4e\n" + // SSLRequest, N
		"0000000800030000" + "00\n" + // StartupMessage with no parameters
		"\t5a0000000549\n" + // ReadyForQuery
		"510000000a53454c45435400\n" + // Query "SELECT"
		"\t54000000060000\n\t440000000a00010000000131\n\t5a0000000549\n" // RowDescription, DataRow "1", ReadyForQuery
	s := apply(t, NewState(0), SetText{Text: text})
	if s.Doc == nil || len(s.Doc.Trees) < 7 {
		t.Fatalf("the follow text does not read: %v", s.InputErr)
	}
	for m, tr := range s.Doc.Trees {
		if tr.Wire == nil {
			continue
		}
		for n := range tr.Nodes {
			s = apply(t, s, SelectMessage{Msg: m}, SelectNode{Node: int32(n)})
			if v := s.Edit.View; v == nil || v.How != decoder.EditNone || v.CanAdd {
				t.Errorf("message %d node %d: edit view %+v", m, n, v)
			}
		}
	}
}
