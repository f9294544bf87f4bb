package web

import (
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/input"
)

// apply runs actions in order and returns the last state.
func apply(t *testing.T, s State, as ...Action) State {
	t.Helper()
	for _, a := range as {
		s, _ = Apply(s, a)
	}
	return s
}

func TestExamplesDecode(t *testing.T) {
	for i, ex := range Examples {
		s := StateOfExample(i)
		if s.Doc == nil {
			t.Fatalf("example %d %q: no document: %v", i, ex.Name, s.InputErr)
		}
		tr := s.Tree()
		if tr == nil {
			t.Fatalf("example %q: no message shown", ex.Name)
		}
		wantErr := strings.HasPrefix(ex.Name, "Truncated")
		if (tr.Err != nil) != wantErr {
			t.Errorf("example %q: message %d error %v", ex.Name, s.Msg, tr.Err)
		}
		if name := s.Doc.Summaries[s.Msg].Name; !wantErr && !strings.Contains(strings.ToLower(ex.Description), strings.ToLower(name)) {
			t.Errorf("example %q shows a %s first", ex.Name, name)
		}
	}
}

func TestFirstExampleIsInsertWithNamedColumns(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	if tr.Type != 'I' {
		t.Fatalf("first example shows %q", tr.Type)
	}
	if tr.Relation == nil || tr.Relation.Name != "types" {
		t.Fatalf("columns not named from the Relation: %v", tr.Relation != nil)
	}
	if got := s.Doc.Rows[s.Doc.RowOf[s.Msg]]; !got.Nested {
		t.Errorf("the Insert's row %+v is not inside a transaction", got)
	}
}

func TestSelectNodeSelectsItsBytes(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	for i := range tr.Nodes {
		s2, _ := Apply(s, SelectNode{Node: int32(i)})
		n := tr.Nodes[i]
		if s2.Node != int32(i) || s2.Sel != (hexview.Range{Offset: n.Offset, Length: n.Length}) {
			t.Errorf("node %d (%s): selection %+v node %d", i, tr.Label(i), s2.Sel, s2.Node)
		}
	}
	if s.Node != -1 {
		t.Error("Apply changed the state it was given")
	}
}

func TestSelectByteSelectsLeaf(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	for off := range tr.Bytes {
		s2, _ := Apply(s, SelectByte{Offset: off})
		if s2.Node < 0 {
			t.Fatalf("byte %d: nothing selected", off)
		}
		n := tr.Nodes[s2.Node]
		if !tr.IsLeaf(int(s2.Node)) || off < n.Offset || off >= n.Offset+n.Length {
			t.Fatalf("byte %d selects node %d (%s) at %d+%d", off, s2.Node, tr.Label(int(s2.Node)), n.Offset, n.Length)
		}
		h, _ := Apply(s, HoverByte{Offset: off})
		if h.Hover != s2.Node || h.Described() != s2.Node {
			t.Fatalf("byte %d hovers node %d, selects %d", off, h.Hover, s2.Node)
		}
	}
}

func TestTreeKeyboard(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	s = apply(t, s, Key{PanelTree, "ArrowDown"})
	if s.Node != 0 {
		t.Fatalf("first ArrowDown selects %d", s.Node)
	}
	s = apply(t, s, Key{PanelTree, "Enter"})
	if len(s.TreeRows) != 1 {
		t.Fatalf("Enter on the root leaves %d rows", len(s.TreeRows))
	}
	s = apply(t, s, Key{PanelTree, "Enter"}, Key{PanelTree, "ArrowDown"}, Key{PanelTree, "ArrowDown"})
	if s.Node != 2 {
		t.Fatalf("two ArrowDowns from the root select %d", s.Node)
	}
	s = apply(t, s, Key{PanelTree, "ArrowLeft"})
	if s.Node != int32(tr.Parent(2)) {
		t.Fatalf("ArrowLeft on a leaf selects %d, not its parent", s.Node)
	}
	s = apply(t, s, Key{PanelTree, "End"})
	if int(s.Node) != len(tr.Nodes)-1 {
		t.Fatalf("End selects %d", s.Node)
	}
}

func TestPageKeys(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Insert"))
	s = apply(t, s, Scroll{Panel: PanelTree, Height: 10 * hexview.RowHeight}, Key{PanelTree, "Home"}, Key{PanelTree, "PageDown"})
	if s.Node != s.TreeRows[9] {
		t.Errorf("PageDown in a tree 10 rows tall selects row %d, want 9", rowOfNode(s.TreeRows, s.Node))
	}
	if s = apply(t, s, Key{PanelTree, "PageUp"}); s.Node != s.TreeRows[0] {
		t.Errorf("PageUp back selects row %d", rowOfNode(s.TreeRows, s.Node))
	}
	s = apply(t, s, Scroll{Panel: PanelList, Height: 3 * hexview.RowHeight}, Key{PanelList, "Home"}, Key{PanelList, "PageDown"})
	if s.Msg != 2 {
		t.Errorf("PageDown in a list 3 rows tall selects message %d, want 2", s.Msg)
	}
}

// Real bytes from /work/shared/vectors: a captured transaction (postgrex_wal_txn_insert), a
// streamed one (postgrex_wal_stream_v2) and a protocol 4 Stream Abort (pg_walstream_stream_v2_v4).
const (
	txnInsert = "420000000002e34ae0000292492d0f8ae600000de4\n" +
		"52000059677075626c6963007573657273006400070169640000000014ffffffff006e616d650000000413ffffffff006167650000000017ffffffff00656d61696c0000000413ffffffff0070617373776f72645f6469676573740000000413ffffffff0073616c61727900000006a400060006007365780000000010ffffffff\n" +
		"49000059674e000774000000093938303139313234337400000003616263740000000232326e6e6e6e\n" +
		"43000000000002e34ae00000000002e34b10000292492d0f8ae6\n"
	streamV2 = "5300000df701\n" +
		"440000007b000059674f0007740000000939383031393130323974000000087469746c653232327400000001326e6e6e6e\n" +
		"4d0000007b000000000002e3fbe86d795f74657374000000000474657374\n" +
		"590000007b000079e47075626c6963006d795f7479706500\n" +
		"45\n" +
		"6300000df7000000000002e3fbe80000000002e3fbf5000292ea9fd15342\n"
	parallelAbort = "410000002a0000002b000000000000900000000000499602d2\n"
)

func TestListKeyboardAndGroups(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: txnInsert})
	s = apply(t, s, Key{PanelList, "Home"}, Key{PanelList, "ArrowDown"})
	if s.Msg != 1 || s.Tree().Type != 'R' {
		t.Fatalf("ArrowDown from the first message shows %d", s.Msg)
	}
	for i, sm := range s.Doc.Summaries {
		if !sm.HasXid || sm.Xid != 3556 || sm.Group != 0 {
			t.Errorf("message %d: xid %d (%v), group %d", i, sm.Xid, sm.HasXid, sm.Group)
		}
	}
}

func TestStreamExampleGroupsAndReadsInStream(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: streamV2}, SelectMessage{Msg: 1})
	if s.Doc.Rows[0].Group != GroupStream {
		t.Fatalf("first row %+v", s.Doc.Rows[0])
	}
	if !s.Tree().Reading.InStream {
		t.Errorf("the Delete after Stream Start was not read inside the stream: %+v", s.Tree().Reading)
	}
	if s.Doc.Errors != 0 {
		t.Errorf("%d errors", s.Doc.Errors)
	}
}

func exampleIndex(t *testing.T, name string) int {
	for i, ex := range Examples {
		if ex.Name == name {
			return i
		}
	}
	t.Fatalf("no example %q", name)
	return -1
}

func TestOptionsRedecode(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: parallelAbort}, SetProto{Proto: 4})
	if !s.Tree().Reading.ParallelAbort || s.Tree().Err != nil {
		t.Fatalf("proto 4: %+v %v", s.Tree().Reading, s.Tree().Err)
	}
	s = apply(t, s, SetProto{Proto: 2})
	if s.Tree().Err == nil {
		t.Fatalf("a 25-byte Stream Abort read as protocol 2 has no error")
	}
	s = apply(t, s, SetProto{Proto: 0})
	if s.Tree().Err != nil || !s.Tree().Reading.Guessed {
		t.Fatalf("inferred: %+v %v", s.Tree().Reading, s.Tree().Err)
	}
}

func TestPasteAndInputError(t *testing.T) {
	s := NewState(0)
	s = apply(t, s, SetText{Text: "42 00 zz"})
	if s.Doc != nil || s.InputErr == nil {
		t.Fatalf("bad text: doc %v err %v", s.Doc, s.InputErr)
	}
	if s.InputErr.Line != 1 || s.InputErr.Column == 0 {
		t.Errorf("error at line %d column %d", s.InputErr.Line, s.InputErr.Column)
	}
	s = apply(t, s, SetText{Text: txnInsert})
	if s.Doc == nil || len(s.Doc.Trees) != 4 {
		t.Fatalf("pasted example: %v", s.InputErr)
	}
}

func TestErrorMarksBytes(t *testing.T) {
	s := StateOfExample(exampleIndex(t, "Truncated Insert"))
	tr := s.Tree()
	if tr.Err == nil {
		t.Fatal("no error")
	}
	var marked bool
	for i := 0; i < s.Model.SpanCount(); i++ {
		sp := s.Model.Span(i)
		if sp.Class == hexview.ClassError && sp.Offset == tr.Err.Offset {
			marked = true
		}
	}
	if !marked {
		t.Errorf("no error span at offset %d", tr.Err.Offset)
	}
}

func TestFragments(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: txnInsert})
	msg := s.Doc.Messages[2].Bytes
	frag := SimpleFragment(msg, 1, decoder.Auto, hexview.Range{Offset: 6, Length: 2})
	s2, _ := Apply(NewState(-1), OpenFragment{Fragment: frag})
	if s2.Doc == nil || s2.Tree().Type != 'I' {
		t.Fatalf("hex link: %v %s", s2.InputErr, s2.LinkErr)
	}
	if s2.Sel != (hexview.Range{Offset: 6, Length: 2}) || s2.Node < 0 || s2.Proto != 1 {
		t.Errorf("hex link: selection %+v node %d proto %d", s2.Sel, s2.Node, s2.Proto)
	}
	s3, _ := Apply(NewState(-1), OpenFragment{Fragment: "#b64=QgAAAAAC40rgAAKSSS0PiuYAAA3k&sel=0-1"})
	if s3.Doc == nil || s3.Tree().Type != 'B' || s3.Sel.Length != 1 {
		t.Fatalf("b64 link: %s %+v", s3.LinkErr, s3.Sel)
	}
	s4, _ := Apply(NewState(0), OpenFragment{Fragment: "#hex=4g"})
	if !strings.Contains(s4.LinkErr, "hex") || s4.Doc == nil {
		t.Errorf("bad hex link: %q", s4.LinkErr)
	}
}

func TestShareRoundTrip(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: txnInsert})
	s = apply(t, s, SelectMessage{Msg: 1}, SelectNode{Node: 5}, SetProto{Proto: 1})
	s, fx := Apply(s, Share{})
	c, ok := fx[0].(EffectCompress)
	if !ok || !s.Share.Busy {
		t.Fatalf("Share effects %v", fx)
	}
	// The glue compresses; an identity "compression" stands in for it here.
	s, fx = Apply(s, ShareMade{Compressed: c.Payload})
	if s.Share.Link == "" || len(fx) != 2 {
		t.Fatalf("ShareMade: %+v %v", s.Share, fx)
	}
	o, fx := Apply(NewState(-1), OpenFragment{Fragment: s.Share.Link})
	d, ok := fx[0].(EffectDecompress)
	if !ok {
		t.Fatalf("z1 link effects %v (%s)", fx, o.LinkErr)
	}
	o, _ = Apply(o, OpenShared{Payload: d.Data})
	if o.Text != s.Text || o.Msg != 1 || o.Sel != s.Sel || o.Node != s.Node || o.Proto != 1 {
		t.Errorf("shared state: msg %d sel %+v node %d proto %d; want %d %+v %d", o.Msg, o.Sel, o.Node, o.Proto, s.Msg, s.Sel, s.Node)
	}
}

// decodeAll applies DecodeMore until the Doc is complete and returns the state and how many
// actions it took.
func decodeAll(t *testing.T, s State) (State, int) {
	t.Helper()
	n := 0
	for s.Doc != nil && !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
		n++
		if n > len(s.Doc.Messages) {
			t.Fatal("DecodeMore makes no progress")
		}
	}
	return s, n
}

func TestLongInputDecodesInChunks(t *testing.T) {
	// Streamed blocks of 6 messages, over two chunks' worth: a chunk ends inside a block
	// (DecodeChunk is not a multiple of 6).
	blocks := 2*DecodeChunk/6 + 50
	text := strings.Repeat(streamV2, blocks)
	whole, ierr := NewDoc(text, input.Auto, decoder.Options{}, -1)
	if ierr != nil || !whole.Complete() || len(whole.Trees) != 6*blocks {
		t.Fatalf("whole decode: %v", ierr)
	}
	s := apply(t, NewState(-1), SetText{Text: text})
	if len(s.Doc.Trees) != DecodeChunk || s.Doc.Complete() || s.Msg != 0 || s.Tree() == nil {
		t.Fatalf("after the paste %d of %d messages decoded, message %d shown", len(s.Doc.Trees), len(s.Doc.Messages), s.Msg)
	}
	// Apply stays pure: the first chunk's Doc does not change while the rest is decoded, and
	// DecodeMore on the same state gives the same Doc.
	first := s
	open := first.Doc.openGroup
	if open < 0 {
		t.Fatalf("the first chunk ends inside a group")
	}
	openCount, rows := first.Doc.GroupCount(open), len(first.Doc.Rows)
	s1 := apply(t, first, DecodeMore{})
	if s2 := apply(t, first, DecodeMore{}); s2.Doc != s1.Doc {
		t.Error("DecodeMore on the same state gives another Doc")
	}
	done, n := decodeAll(t, s1)
	if want := (6*blocks+DecodeChunk-1)/DecodeChunk - 1; n+1 != want {
		t.Errorf("%d DecodeMore actions for %d messages, want %d", n+1, 6*blocks, want)
	}
	if len(first.Doc.Trees) != DecodeChunk || len(first.Doc.Rows) != rows || first.Doc.GroupCount(open) != openCount {
		t.Errorf("decoding more changed the first chunk's Doc: %d trees, %d rows, group of %d",
			len(first.Doc.Trees), len(first.Doc.Rows), first.Doc.GroupCount(open))
	}
	if done.Doc.GroupCount(open) != 5 {
		t.Errorf("the block open at the chunk's end holds %d messages, want 5 (Stream Start … Stream Stop)", done.Doc.GroupCount(open))
	}
	// Decoded in chunks, the Doc is the one decoded whole.
	d := done.Doc
	if len(d.Rows) != len(whole.Rows) || d.Errors != whole.Errors || d.Proto != whole.Proto {
		t.Fatalf("chunked: %d rows, %d errors, proto %d; whole: %d, %d, %d",
			len(d.Rows), d.Errors, d.Proto, len(whole.Rows), whole.Errors, whole.Proto)
	}
	for i := range d.Rows {
		if d.Rows[i] != whole.Rows[i] || d.GroupCount(i) != whole.GroupCount(i) {
			t.Fatalf("row %d: %+v (%d), whole %+v (%d)", i, d.Rows[i], d.GroupCount(i), whole.Rows[i], whole.GroupCount(i))
		}
	}
	for i := range d.Summaries {
		if d.Summaries[i] != whole.Summaries[i] || d.RowOf[i] != whole.RowOf[i] ||
			d.Trees[i].Reading != whole.Trees[i].Reading || len(d.Trees[i].Nodes) != len(whole.Trees[i].Nodes) {
			t.Fatalf("message %d: %+v, whole %+v", i, d.Summaries[i], whole.Summaries[i])
		}
	}
	if s := apply(t, done, DecodeMore{}); s.Doc != done.Doc {
		t.Error("DecodeMore on a complete Doc changed it")
	}
}

func TestNewInputEndsBackgroundDecode(t *testing.T) {
	long := strings.Repeat(txnInsert, DecodeChunk) // 4·DecodeChunk messages
	s := apply(t, StateOfExample(-1), SetText{Text: long}, DecodeMore{})
	if s.Doc.Complete() {
		t.Fatal("all messages decoded by the paste and one DecodeMore")
	}
	// A new paste, or an example, replaces the Doc: nothing of the old one is decoded on.
	s = apply(t, s, SetText{Text: txnInsert})
	if !s.Doc.Complete() || len(s.Doc.Trees) != 4 {
		t.Fatalf("a short paste after a long one: %d of %d", len(s.Doc.Trees), len(s.Doc.Messages))
	}
	if s2 := apply(t, s, DecodeMore{}); s2.Doc != s.Doc {
		t.Error("DecodeMore after a short paste changed its Doc")
	}
	for i := range Examples {
		if s := apply(t, s, SetText{Text: long}, LoadExample{Index: i}); !s.Doc.Complete() {
			t.Errorf("example %d is not decoded at once", i)
		}
	}
}

func TestLinkOpensMessagePastFirstChunk(t *testing.T) {
	text := strings.Repeat(txnInsert, DecodeChunk) // 4·DecodeChunk messages
	m := 3*DecodeChunk + 1
	s := apply(t, NewState(-1), OpenShared{Payload: SharePayload(Shared{Text: text, Msg: m})})
	if s.Msg != m || len(s.Doc.Trees) <= m {
		t.Fatalf("link to message %d shows %d (%d decoded)", m, s.Msg, len(s.Doc.Trees))
	}
	// A protocol chosen then keeps the message and what was decoded.
	s = apply(t, s, SetProto{Proto: 1})
	if s.Msg != m || len(s.Doc.Trees) <= m {
		t.Fatalf("after SetProto message %d shown (%d decoded)", s.Msg, len(s.Doc.Trees))
	}
}

// TestClickDoesNotScroll checks that a row chosen with the pointer stays where it is (the
// pointer is on it), while one chosen with the keyboard is scrolled into view.
func TestClickDoesNotScroll(t *testing.T) {
	s := StateOfExample(exampleNamed(t, "Insert"))
	s = apply(t, s, Scroll{Panel: PanelTree, Top: 0, Height: 5*hexview.RowHeight + hexview.RowHeight/2})
	// Row 5 is cut at the bottom edge of the box.
	s2, fx := Apply(s, SelectNode{Node: s.TreeRows[5]})
	if s2.View[PanelTree].Top != 0 || len(fx) != 0 {
		t.Errorf("clicking a row cut at the edge scrolled the tree to %d (%v)", s2.View[PanelTree].Top, fx)
	}
	s3, _ := Apply(s2, Key{Panel: PanelTree, Key: "ArrowDown"})
	if want := 7*hexview.RowHeight - s.View[PanelTree].Height; s3.View[PanelTree].Top != want {
		t.Errorf("ArrowDown to row 6 scrolled the tree to %d, want %d", s3.View[PanelTree].Top, want)
	}
	s = apply(t, s, Scroll{Panel: PanelList, Top: 0, Height: 2*hexview.RowHeight + hexview.RowHeight/2})
	if s2, fx := Apply(s, SelectMessage{Msg: 1}); s2.View[PanelList].Top != 0 || len(fx) != 1 {
		t.Errorf("clicking a message cut at the edge scrolled the list to %d (%v)", s2.View[PanelList].Top, fx)
	}
	if s2, _ := Apply(s, Key{Panel: PanelList, Key: "End"}); s2.View[PanelList].Top == 0 {
		t.Errorf("End did not scroll the list to the last message")
	}
}

func exampleNamed(t *testing.T, name string) int {
	t.Helper()
	for i, ex := range Examples {
		if ex.Name == name {
			return i
		}
	}
	t.Fatalf("no example %q", name)
	return -1
}
