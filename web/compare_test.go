package web

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/guide"
)

// guideCapture decodes a capture of testdata/guide whole.
func guideCapture(t *testing.T, name string) *Doc {
	t.Helper()
	raw, err := os.ReadFile("../testdata/guide/" + name + ".capture")
	if err != nil {
		t.Fatal(err)
	}
	return timelineDoc(t, string(raw))
}

// NthChange returns the index of the n-th (from 1) message of type typ on relation rel (the
// browser tests use it too).
func NthChange(t testing.TB, d *Doc, typ byte, rel string, n int) int {
	t.Helper()
	k := n
	for i, tr := range d.Trees {
		if tr.Type == typ && tr.Relation != nil && tr.Relation.QualifiedName() == rel {
			if k--; k == 0 {
				return i
			}
		}
	}
	t.Fatalf("no %c #%d on %s", typ, n, rel)
	return -1
}

// ValueRow returns the row of c that holds column col's Value (col from 1) of the pinned
// message (the browser tests use it too).
func ValueRow(t testing.TB, c *Comparison, col int) int {
	t.Helper()
	for r, row := range c.Rows {
		if row.A >= 0 && c.A.Nodes[row.A].Field == decoder.FieldColumnValue && int(c.A.Nodes[c.A.Parent(int(row.A))].Index) == col {
			return r
		}
	}
	t.Fatalf("no row for column %d's value", col)
	return -1
}

// TypesInsertPair returns the pair the comparison tests compare, in the pg18-text capture: the
// first Insert into public.types and the last one inside a streamed transaction (with an Xid).
func TypesInsertPair(t testing.TB, d *Doc) (a, b int) {
	t.Helper()
	a, b = NthChange(t, d, 'I', "public.types", 1), -1
	for i, tr := range d.Trees {
		if tr.Type == 'I' && tr.Relation != nil && tr.Relation.QualifiedName() == "public.types" && tr.Find(tr.Message, decoder.FieldStreamXid) >= 0 {
			b = i
		}
	}
	if b < 0 {
		t.Fatal("no streamed Insert into public.types")
	}
	return a, b
}

// rowOf returns the row of the field labelled path (labels from the message down, joined by
// " / ", as the left side names them, else the right).
func rowOf(t *testing.T, c *Comparison, path string) *CompareRow {
	t.Helper()
	for r := range c.Rows {
		row := &c.Rows[r]
		tr, i := c.A, int(row.A)
		if i < 0 {
			tr, i = c.B, int(row.B)
		}
		var labels []string
		for j := i; j >= 0 && j >= tr.Message; j = tr.Parent(j) {
			labels = append([]string{tr.Label(j)}, labels...)
		}
		if strings.Join(labels, " / ") == path {
			return row
		}
	}
	t.Fatalf("no row %q", path)
	return nil
}

// checkRows fails unless every node of both trees is in exactly one row, in tree order on each
// side, and paired rows hold the same field.
func checkRows(t *testing.T, c *Comparison) {
	t.Helper()
	nextA, nextB := int32(0), int32(0)
	for r, row := range c.Rows {
		if row.A >= 0 {
			if row.A != nextA {
				t.Fatalf("row %d: node %d of A after %d", r, row.A, nextA-1)
			}
			nextA++
		}
		if row.B >= 0 {
			if row.B != nextB {
				t.Fatalf("row %d: node %d of B after %d", r, row.B, nextB-1)
			}
			nextB++
		}
		if row.A >= 0 && row.B >= 0 && c.A.Nodes[row.A].Field != c.B.Nodes[row.B].Field {
			t.Fatalf("row %d pairs %s with %s", r, c.A.Label(int(row.A)), c.B.Label(int(row.B)))
		}
		if (row.A < 0) != (row.Diff == DiffOnlyB) || (row.B < 0) != (row.Diff == DiffOnlyA) {
			t.Fatalf("row %d (%d, %d) says %d", r, row.A, row.B, row.Diff)
		}
	}
	if int(nextA) != len(c.A.Nodes) || int(nextB) != len(c.B.Nodes) {
		t.Fatalf("rows hold %d of A's %d nodes, %d of B's %d", nextA, len(c.A.Nodes), nextB, len(c.B.Nodes))
	}
}

// TestCompareSame: a message beside itself is the same in every row.
func TestCompareSame(t *testing.T) {
	d := timelineDoc(t, readCorpus(t, "pg18-text"))
	m := NthChange(t, d, 'I', "public.types", 1)
	c := Compare(d.Trees[m], d.Trees[m], m, m)
	checkRows(t, c)
	if len(c.Rows) != len(d.Trees[m].Nodes) || c.Differs() || c.Count[DiffEncoded]+c.Count[DiffUndecided] > 0 {
		t.Fatalf("%d rows for %d nodes; differ %d, encoded %d, undecided %d, only %d/%d",
			len(c.Rows), len(d.Trees[m].Nodes), c.Count[DiffValue], c.Count[DiffEncoded], c.Count[DiffUndecided], c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
	for r, row := range c.Rows {
		if row.A != row.B || row.Diff != DiffSame {
			t.Fatalf("row %d: %+v", r, row)
		}
	}
}

// TestCompareValue: two Inserts of the table of many types (PostgreSQL 18, text): the same
// fields, paired; the id's value differs, and so do its column, the tuple and the message; a
// column with the same value in both is the same.
func TestCompareValue(t *testing.T) {
	d := timelineDoc(t, readCorpus(t, "pg18-text"))
	a, b := NthChange(t, d, 'I', "public.types", 1), NthChange(t, d, 'I', "public.types", 2)
	c := Compare(d.Trees[a], d.Trees[b], a, b)
	checkRows(t, c)
	if c.Count[DiffOnlyA]+c.Count[DiffOnlyB] > 0 || c.Count[DiffValue] == 0 || c.Count[DiffEncoded]+c.Count[DiffUndecided] > 0 {
		t.Fatalf("differ %d, encoded %d, undecided %d, only %d/%d", c.Count[DiffValue], c.Count[DiffEncoded], c.Count[DiffUndecided], c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
	for path, want := range map[string]Diff{
		"Insert":                             DiffValue,
		"Insert / New tuple / column 1 (id)": DiffValue,
		"Insert / New tuple / column 1 (id) / Value": DiffValue,
		"Insert / New tuple / column 1 (id) / Kind":  DiffSame,
		"Insert / Relation OID":                      DiffSame,
	} {
		if row := rowOf(t, c, path); row.Diff != want {
			t.Errorf("%s: %d, want %d", path, row.Diff, want)
		}
	}
	row := rowOf(t, c, "Insert / New tuple / column 1 (id) / Value")
	if va, vb := ValueText(c.A, int(row.A), 20), ValueText(c.B, int(row.B), 20); va != `"1"` || vb != `"2"` {
		t.Errorf("the id: %s beside %s", va, vb)
	}
}

// TestCompareTextBinary: the same Insert captured in text and in binary mode (PostgreSQL 18):
// every column's value is the same in other bytes, its kind and length too, except the types
// the page does not decode in binary (point, money, an enum and an array of it), which are
// undecided; what differs as a value is only in the XLogData envelope (its send time).
func TestCompareTextBinary(t *testing.T) {
	dt, db := timelineDoc(t, readCorpus(t, "pg18-text")), timelineDoc(t, readCorpus(t, "pg18-binary-parallel"))
	a, b := NthChange(t, dt, 'I', "public.types", 1), NthChange(t, db, 'I', "public.types", 1)
	c := Compare(dt.Trees[a], db.Trees[b], a, b)
	checkRows(t, c)
	if c.Count[DiffOnlyA]+c.Count[DiffOnlyB] > 0 || c.Count[DiffEncoded] == 0 {
		t.Fatalf("encoded %d, only %d/%d", c.Count[DiffEncoded], c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
	undecided := map[string]bool{}
	for _, row := range c.Rows {
		i := int(row.A)
		switch {
		case row.Diff == DiffValue && c.A.IsLeaf(i) && i >= c.A.Message:
			t.Errorf("%s differs: %s beside %s", c.A.Label(i), ValueText(c.A, i, 40), ValueText(c.B, int(row.B), 40))
		case row.Diff == DiffUndecided && c.A.Nodes[i].Field == decoder.FieldTupleColumn:
			undecided[c.A.Name(i)] = true
		}
	}
	if got := len(undecided); got != 4 || !undecided["c_point"] || !undecided["c_money"] || !undecided["c_mood"] || !undecided["a_mood"] {
		t.Errorf("undecided columns: %v", undecided)
	}
	for path, want := range map[string]Diff{
		"Insert / New tuple / column 7 (c_int4) / Value":         DiffEncoded,
		"Insert / New tuple / column 7 (c_int4) / Kind":          DiffEncoded,
		"Insert / New tuple / column 7 (c_int4) / Length":        DiffEncoded,
		"Insert / New tuple / column 7 (c_int4)":                 DiffEncoded,
		"Insert / New tuple / column 21 (c_timestamptz) / Value": DiffEncoded,
		"Insert / New tuple / column 47 (a_numeric) / Value":     DiffEncoded,
		"Insert / New tuple / column 54 (c_posint) / Value":      DiffEncoded,
		"Insert / Relation OID":                                  DiffSame,
		"Insert":                                                 DiffUndecided,
	} {
		if row := rowOf(t, c, path); row.Diff != want {
			t.Errorf("%s: %d, want %d", path, row.Diff, want)
		}
	}
}

// TestCompareProtocol1Streamed: the same Insert captured with protocol 1 and inside a streamed
// transaction with protocol 4 (PostgreSQL 16): the streamed one's Xid is its own, right after
// the type byte; the tuple is the same. Swapped, the Xid is the left side's own.
func TestCompareProtocol1Streamed(t *testing.T) {
	d1, d4 := guideCapture(t, "options/pg16-proto-version-1"), guideCapture(t, "options/pg16-streaming-on")
	a, b := NthChange(t, d1, 'I', "public.accounts", 1), NthChange(t, d4, 'I', "public.accounts", 1)
	c := Compare(d1.Trees[a], d4.Trees[b], a, b)
	checkRows(t, c)
	if c.Count[DiffOnlyA] != 0 || c.Count[DiffOnlyB] != 1 {
		t.Fatalf("only %d/%d", c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
	xid := rowOf(t, c, "Insert / Xid")
	if xid.Diff != DiffOnlyB || c.B.Nodes[xid.B].Field != decoder.FieldStreamXid || xid.Depth != c.B.Nodes[c.B.Message].Depth+1 {
		t.Fatalf("the Xid's row: %+v", *xid)
	}
	// The row before is the type byte, paired.
	if typ := rowOf(t, c, "Insert / Type"); typ.Diff != DiffSame || xid == &c.Rows[0] || &c.Rows[xid.B-1+int32(c.Count[DiffOnlyA])] != typ {
		t.Errorf("the type byte's row: %+v", *typ)
	}
	if row := rowOf(t, c, "Insert / New tuple"); row.Diff != DiffSame {
		t.Errorf("the tuple: %d", row.Diff)
	}
	if row := rowOf(t, c, "Insert"); row.Diff != DiffValue {
		t.Errorf("the message: %d", row.Diff)
	}
	back := Compare(d4.Trees[b], d1.Trees[a], b, a)
	checkRows(t, back)
	if back.Count[DiffOnlyA] != 1 || back.Count[DiffOnlyB] != 0 || rowOf(t, back, "Insert / Xid").Diff != DiffOnlyA {
		t.Fatalf("swapped: only %d/%d", back.Count[DiffOnlyA], back.Count[DiffOnlyB])
	}
}

// TestCompareWith: "Compare with…" pins the chosen message; choosing another compares the two,
// drawn as the before and after's view draws its columns: a row per field, the differing ones
// marked changed, a click on the chosen message's value selecting it; another protocol option
// keeps the pair, the timeline and another input close the comparison.
func TestCompareWith(t *testing.T) {
	text := readCorpus(t, "pg18-text")
	s, _ := Apply(NewState(-1), SetText{Text: text})
	for !s.Doc.Complete() {
		s, _ = Apply(s, DecodeMore{})
	}
	a, b := NthChange(t, s.Doc, 'I', "public.types", 1), NthChange(t, s.Doc, 'I', "public.types", 2)
	s, _ = Apply(s, SelectMessage{Msg: a})
	s, _ = Apply(s, CompareWith{On: true})
	if !s.Compare.On || s.Compare.Pinned != a || s.Compare.Cmp == nil || s.Compare.Cmp.Differs() ||
		!strings.HasSuffix(s.Compare.Change.Why, "is pinned: choose another message in the list to compare it with.") {
		t.Fatalf("pinned: %+v", s.Compare)
	}
	s.View[PanelChange].Top = 100
	s, fx := Apply(s, SelectMessage{Msg: b})
	c, ch := s.Compare.Cmp, s.Compare.Change
	if c == nil || c.A != s.Doc.Trees[a] || c.B != s.Doc.Trees[b] || c.MsgA != a || c.MsgB != b || !c.Differs() {
		t.Fatalf("after choosing message %d: %+v", b, s.Compare)
	}
	if !hasEffect(fx, EffectScroll{Panel: PanelChange}) || s.View[PanelChange].Top != 0 {
		t.Errorf("the comparison's list is not scrolled to its top: %v", fx)
	}
	if len(ch.Columns) != len(c.Rows) || ch.Heads != [3]string{"field", "message 10", "message 11"} ||
		ch.Why != "Message 10, pinned, beside message 11, chosen in the list. Fields: "+strconv.Itoa(c.Count[DiffValue])+" differ (≠). The hex view marks their bytes in message 11." {
		t.Fatalf("%d columns for %d rows, heads %q, %q", len(ch.Columns), len(c.Rows), ch.Heads, ch.Why)
	}
	id := rowOf(t, c, "Insert / New tuple / column 1 (id) / Value")
	col := ch.Columns[indexOf(c, id)]
	if !col.Changed || col.Name != strings.Repeat("\u00a0\u00a0", int(id.Depth))+"Value ≠" || col.Old.Text != `"1"` || col.New.Text != `"2"` ||
		col.Old.Node != -1 || col.New.Node != id.B || col.Type != "differ" {
		t.Errorf("the id's value: %+v", col)
	}
	if same := ch.Columns[indexOf(c, rowOf(t, c, "Insert / Relation OID"))]; same.Changed || same.Name != strings.Repeat("\u00a0\u00a0", int(id.Depth)-2)+"Relation OID" {
		t.Errorf("the relation OID: %+v", same)
	}
	// A click on the chosen message's value selects it, as in the before and after.
	s, _ = Apply(s, SelectNode{Node: col.New.Node})
	if s.Node != id.B || s.Msg != b || s.Compare.Change != ch {
		t.Errorf("the click: node %d of message %d", s.Node, s.Msg)
	}
	// The same pair decoded again (another protocol option) is compared again.
	s, _ = Apply(s, SetProto{Proto: 4})
	if s.Compare.Cmp == c || s.Compare.Cmp == nil || s.Compare.Cmp.MsgA != a || s.Compare.Cmp.MsgB != b {
		t.Errorf("after another protocol option: %+v", s.Compare)
	}
	s, _ = Apply(s, ShowTimeline{On: true})
	if s.Compare.On || s.Compare.Cmp != nil {
		t.Errorf("the timeline shown: %+v", s.Compare)
	}
	s, _ = Apply(s, ShowTimeline{On: false})
	s, _ = Apply(s, CompareWith{On: true})
	if !s.Compare.On || s.Compare.Pinned != b {
		t.Fatalf("pinned again: %+v", s.Compare)
	}
	s, _ = Apply(s, SetText{Text: readCorpus(t, "pg16-text")})
	if s.Compare.On || s.Compare.Cmp != nil {
		t.Errorf("another input: %+v", s.Compare)
	}
}

// diffBytes returns the bytes of c's chosen message (B) that the hex view should mark: those of
// every leaf whose row says anything but DiffSame (a value, the same value in other bytes, an
// undecided value, a field only B has), from the rows and the tree's byte ranges.
func diffBytes(c *Comparison) map[int]bool {
	want := map[int]bool{}
	for _, row := range c.Rows {
		if row.B >= 0 && row.Diff != DiffSame && c.B.IsLeaf(int(row.B)) {
			n := &c.B.Nodes[row.B]
			for off := n.Offset; off < n.Offset+n.Length; off++ {
				want[off] = true
			}
		}
	}
	return want
}

// classBytes returns the bytes the hex view's model tints with class.
func classBytes(m *hexview.Model, class hexview.Class) map[int]bool {
	got := map[int]bool{}
	for off := range m.Len() {
		if f, ok := m.FieldAt(off); ok && f.Class == class {
			got[off] = true
		}
	}
	return got
}

// pinnedTypesInsert returns the state that has read the whole pg18-text capture and pinned the
// first message of TypesInsertPair, a, chosen beside itself; and the pair, a and b.
func pinnedTypesInsert(t *testing.T) (s State, a, b int) {
	t.Helper()
	s, _ = Apply(NewState(-1), SetText{Text: readCorpus(t, "pg18-text")})
	for !s.Doc.Complete() {
		s, _ = Apply(s, DecodeMore{})
	}
	a, b = TypesInsertPair(t, s.Doc)
	s, _ = Apply(s, SelectMessage{Msg: a})
	s, _ = Apply(s, CompareWith{On: true})
	return s, a, b
}

// TestCompareMarksTheHexView: while comparing, the hex view marks the bytes of the chosen
// message's fields that differ from the pinned one's (an Insert of the table of many types
// beside a later one inside a streamed transaction: values, and the Xid only it has), and
// nothing else; the comparison's mark goes over the lens's (the Xid, absent from protocol 1);
// a message beside itself, and the hex view once the comparison is closed, mark nothing.
func TestCompareMarksTheHexView(t *testing.T) {
	s, _, b := pinnedTypesInsert(t)
	if got := classBytes(s.Model, hexview.ClassDiffers); len(got) != 0 {
		t.Errorf("the pinned message beside itself: %d bytes marked", len(got))
	}
	s, _ = Apply(s, SelectMessage{Msg: b})
	c := s.Compare.Cmp
	want := diffBytes(c)
	xid := c.B.Nodes[c.B.Find(c.B.Message, decoder.FieldStreamXid)]
	if c.Count[DiffValue] == 0 || c.Count[DiffOnlyB] == 0 || !want[xid.Offset] || len(want) >= len(c.B.Bytes) {
		t.Fatalf("the pair: %v, %d of %d bytes differ", c.Count, len(want), len(c.B.Bytes))
	}
	if got := classBytes(s.Model, hexview.ClassDiffers); !maps.Equal(got, want) {
		t.Errorf("%d bytes marked, want %d: %v, want %v", len(got), len(want), slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	s, _ = Apply(s, SetLens{Lens: guide.Lens{Proto: 1}})
	if got := classBytes(s.Model, hexview.ClassDiffers); !maps.Equal(got, want) {
		t.Errorf("under protocol 1: %d bytes marked, want %d", len(got), len(want))
	}
	s, _ = Apply(s, CompareWith{On: false})
	if got := classBytes(s.Model, hexview.ClassDiffers); len(got) != 0 || !classBytes(s.Model, hexview.ClassAbsent)[xid.Offset] {
		t.Errorf("closed: %d bytes marked; the Xid absent under protocol 1: %v", len(got), classBytes(s.Model, hexview.ClassAbsent)[xid.Offset])
	}
}

// differingRows returns the rows of c's fields (leaves) that say anything but DiffSame, in
// order: the rows "Next difference" steps through.
func differingRows(c *Comparison) []int {
	var rows []int
	for r, row := range c.Rows {
		if t, i := c.Node(r); row.Diff != DiffSame && t.IsLeaf(i) {
			rows = append(rows, r)
		}
	}
	return rows
}

// TestCompareStep: "Next difference" steps through the differing fields in order from the top
// and wraps around past the last; "Previous difference" goes back, and from the top wraps to
// the last; each scrolls the list to its row when it is out of view and selects the chosen
// message's field (its bytes), or nothing for a field only the pinned message has. A message
// beside itself has no difference to step to.
func TestCompareStep(t *testing.T) {
	s, a, b := pinnedTypesInsert(t)
	if s2, fx := Apply(s, CompareStep{By: 1}); s2.Compare.Row != -1 || s2.Node != -1 || len(fx) != 0 {
		t.Errorf("a message beside itself: row %d, node %d, %v", s2.Compare.Row, s2.Node, fx)
	}
	s, _ = Apply(s, SelectMessage{Msg: b})
	s.View[PanelChange] = hexview.Viewport{Top: 0, Height: 10 * hexview.RowHeight}
	c := s.Compare.Cmp
	want := differingRows(c)
	onlyA := 0
	for _, r := range want {
		if c.Rows[r].B < 0 {
			onlyA = r
		}
	}
	if len(want) < 3 || onlyA == 0 || s.Compare.Row != -1 {
		t.Fatalf("%d differing rows, one only in the pinned message at %d; row %d", len(want), onlyA, s.Compare.Row)
	}
	check := func(before, s State, fx []Effect, r int, what string) {
		t.Helper()
		row, v := c.Rows[r], s.View[PanelChange]
		if s.Compare.Row != r || s.Compare.Cmp != c {
			t.Fatalf("%s: row %d, want %d", what, s.Compare.Row, r)
		}
		if top := r * hexview.RowHeight; top < v.Top || top+hexview.RowHeight > v.Top+v.Height {
			t.Errorf("%s: row %d out of view (top %d)", what, r, v.Top)
		}
		if v.Top != before.View[PanelChange].Top && !hasEffect(fx, EffectScroll{Panel: PanelChange, Top: v.Top}) {
			t.Errorf("%s: scrolled to %d without telling the list (%v)", what, v.Top, fx)
		}
		if row.B < 0 {
			if s.Node != -1 || !s.Sel.Empty() {
				t.Errorf("%s: node %d selected for a field only the pinned message has", what, s.Node)
			}
			return
		}
		n := &c.B.Nodes[row.B]
		if s.Node != row.B || s.Sel != (hexview.Range{Offset: n.Offset, Length: n.Length}) || s.Msg != b {
			t.Errorf("%s: node %d, bytes %v selected, want %d", what, s.Node, s.Sel, row.B)
		}
	}
	next := s
	for k := 0; k <= len(want); k++ {
		n, fx := Apply(next, CompareStep{By: 1})
		check(next, n, fx, want[k%len(want)], "next #"+strconv.Itoa(k+1))
		next = n
	}
	prev, fx := Apply(s, CompareStep{By: -1})
	check(s, prev, fx, want[len(want)-1], "previous from the top")
	if prev.View[PanelChange].Top == 0 {
		t.Errorf("previous from the top: the list is not scrolled to row %d", want[len(want)-1])
	}
	again, fx := Apply(prev, CompareStep{By: -1})
	check(prev, again, fx, want[len(want)-2], "previous again")
	prev = again
	// Another message chosen: the steps start again from the top.
	prev, _ = Apply(prev, SelectMessage{Msg: a + 1})
	if prev.Compare.Row != -1 {
		t.Errorf("another message chosen: row %d", prev.Compare.Row)
	}
}

// indexOf returns the index of row in c.Rows.
func indexOf(c *Comparison, row *CompareRow) int {
	for r := range c.Rows {
		if &c.Rows[r] == row {
			return r
		}
	}
	return -1
}

func hasEffect(fx []Effect, want Effect) bool {
	for _, f := range fx {
		if f == want {
			return true
		}
	}
	return false
}
