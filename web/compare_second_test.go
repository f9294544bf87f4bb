package web

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// secondInputPair returns the page with the first Insert into public.types of the PostgreSQL
// 18 text capture chosen and "Compare…" pressed, the binary capture of the same changes
// (the same server and statements, in binary mode) as its second Doc decoded whole, and the
// first Insert into public.types of each.
func secondInputPair(t *testing.T) (s State, second *Doc, text string, a, b int) {
	t.Helper()
	text = readCorpus(t, "pg18-binary-parallel")
	second = timelineDoc(t, text)
	s, _ = Apply(NewState(-1), SetText{Text: readCorpus(t, "pg18-text")})
	for !s.Doc.Complete() {
		s, _ = Apply(s, DecodeMore{})
	}
	a, b = NthChange(t, second, 'I', "public.types", 1), NthChange(t, s.Doc, 'I', "public.types", 1)
	s, _ = Apply(s, SelectMessage{Msg: b})
	s, _ = Apply(s, CompareWith{On: true})
	return s, second, text, a, b
}

// TestCompareSecondInput: a second input pasted in the comparison (the same Insert captured in
// binary mode beside the page's text capture) is read as the page's text is; its message
// chosen by number is pinned, and the comparison's rows are web.Compare's of the two messages,
// "≈" where a value is the same in other bytes; the heads and the sentence say the pinned
// message is the second input's, and of how many. A number past the end pins the last
// message, which the number box shows, and the sentence says there is no such message; an empty text pins the page's message again; closing the comparison forgets the
// second input.
func TestCompareSecondInput(t *testing.T) {
	s, second, text, a, b := secondInputPair(t)
	// The number first, then the text.
	s, _ = Apply(s, ComparePick{Msg: a})
	s, _ = Apply(s, CompareInput{Text: text})
	want := Compare(second.Trees[a], s.Doc.Trees[b], a, b)
	c, ch := s.Compare.Cmp, s.Compare.Change
	if c == nil || !slices.Equal(c.Rows, want.Rows) || c.Count != want.Count || c.MsgA != a || c.MsgB != b {
		t.Fatalf("the comparison: %+v", s.Compare)
	}
	if c.Count[DiffEncoded] == 0 || c.Count[DiffOnlyA]+c.Count[DiffOnlyB] > 0 {
		t.Errorf("encoded %d, only %d/%d", c.Count[DiffEncoded], c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
	if row := rowOf(t, c, "Insert / New tuple / column 7 (c_int4) / Value"); row.Diff != DiffEncoded ||
		!strings.HasSuffix(ch.Columns[indexOf(c, row)].Name, "Value ≈") {
		t.Errorf("c_int4's value: %+v", row)
	}
	name := "message " + strconv.Itoa(a+1) + " of " + strconv.Itoa(len(second.Messages)) + " of the second input" + " (" + second.Summaries[a].Line() + ")"
	if ch.Heads != [3]string{"field", name, "message " + strconv.Itoa(b+1)} || ch.Err != "" ||
		!strings.HasPrefix(ch.Why, "M"+name[1:]+", pinned, beside message "+strconv.Itoa(b+1)+", chosen in the list. Fields: ") {
		t.Fatalf("heads %q, why %q, err %q", ch.Heads, ch.Why, ch.Err)
	}
	// The same text again changes nothing: the text is not read again, nor the comparison made.
	sec, cmp := s.Compare.Second, s.Compare.Cmp
	if s, _ = Apply(s, CompareInput{Text: text}); s.Compare.Second != sec || s.Compare.Cmp != cmp {
		t.Errorf("the same text again: read again %t, compared again %t", s.Compare.Second != sec, s.Compare.Cmp != cmp)
	}
	// Another number: the Doc read before, another message pinned.
	doc := s.Compare.Second.Doc
	s, fx := Apply(s, ComparePick{Msg: 1 << 30})
	if last := len(second.Messages) - 1; s.Compare.Second.Msg != last ||
		s.Compare.Second.Doc.Text != doc.Text || s.Compare.Cmp.MsgA != last || s.Compare.Cmp.A != s.Compare.Second.Doc.Trees[last] {
		t.Errorf("past the end: message %d pinned, %d rows", s.Compare.Second.Msg, len(s.Compare.Cmp.Rows))
	}
	// The number box shows the message pinned, and the sentence says there is no such message.
	if last := len(second.Messages); !slices.Contains(fx, Effect(EffectShowPick{Msg: last, Max: last})) ||
		!strings.HasPrefix(s.Compare.Change.Why, "Message "+strconv.Itoa(last)+" of "+strconv.Itoa(last)+" of the second input"+" ("+second.Summaries[last-1].Line()+")"+", pinned (the nearest there is to the number asked), beside ") {
		t.Errorf("past the end: effects %v; %q", fx, s.Compare.Change.Why)
	}
	// Choosing another message in the list keeps the second input's message.
	s, _ = Apply(s, ComparePick{Msg: a})
	s, _ = Apply(s, SelectMessage{Msg: NthChange(t, s.Doc, 'I', "public.types", 2)})
	if s.Compare.Cmp.A != s.Compare.Second.Doc.Trees[a] || s.Compare.Cmp.MsgB == b {
		t.Errorf("another message chosen: %+v", s.Compare.Cmp)
	}
	s, _ = Apply(s, CompareInput{Text: ""})
	if s.Compare.Cmp.A != s.Doc.Trees[b] || s.Compare.Change.Heads[1] != "message "+strconv.Itoa(b+1) {
		t.Errorf("the text emptied: %q", s.Compare.Change.Heads)
	}
	s, _ = Apply(s, CompareInput{Text: text})
	if s.Compare.Second.Msg != a {
		t.Errorf("the text again after it was emptied: message %d pinned, want %d, the number asked", s.Compare.Second.Msg, a)
	}
	s, _ = Apply(s, CompareWith{On: false})
	s, _ = Apply(s, CompareWith{On: true})
	if s.Compare.Second != nil || s.Compare.Cmp.A != s.Tree() {
		t.Errorf("closed and opened again: %+v", s.Compare)
	}
}

// TestCompareSecondProtocols: the same Insert captured with protocol 1 (the page's input)
// and inside a streamed transaction with protocol 4 (the second input), PostgreSQL 16: the
// second input's protocol is its own, read from its capture header, whatever the page's
// options say; only its Xid is its own.
func TestCompareSecondProtocols(t *testing.T) {
	d1, d4 := guideCapture(t, "options/pg16-proto-version-1"), guideCapture(t, "options/pg16-streaming-on")
	s, _ := Apply(NewState(-1), SetText{Text: d1.Text})
	s, _ = Apply(s, SetProto{Proto: 1})
	b, a := NthChange(t, s.Doc, 'I', "public.accounts", 1), NthChange(t, d4, 'I', "public.accounts", 1)
	s, _ = Apply(s, SelectMessage{Msg: b})
	s, _ = Apply(s, CompareWith{On: true})
	s, _ = Apply(s, ComparePick{Msg: a})
	s, _ = Apply(s, CompareInput{Text: d4.Text})
	want := Compare(d4.Trees[a], s.Doc.Trees[b], a, b)
	if c := s.Compare.Cmp; !slices.Equal(c.Rows, want.Rows) || c.Count[DiffOnlyA] != 1 || c.Count[DiffOnlyB] != 0 ||
		rowOf(t, c, "Insert / Xid").Diff != DiffOnlyA || c.A.Nodes[rowOf(t, c, "Insert / Xid").A].Field != decoder.FieldStreamXid {
		t.Fatalf("only %d/%d", c.Count[DiffOnlyA], c.Count[DiffOnlyB])
	}
}

// TestCompareSecondErrors: a second input that does not read says why as the page's text box
// does (line, column, what was expected), and the page's message stays pinned; a message of
// it whose decode stops says where, in a field of its own beside the text's error; a text over MaxInput is refused, and so is one the box
// found too large to copy.
func TestCompareSecondErrors(t *testing.T) {
	s, _, _, _, b := secondInputPair(t)
	s, _ = Apply(s, CompareInput{Text: "not bytes at all"})
	ch := s.Compare.Change
	if !strings.HasPrefix(ch.Err, "The second input could not be read: line 1, column ") || s.Compare.Cmp.A != s.Doc.Trees[b] ||
		ch.Heads[1] != "message "+strconv.Itoa(b+1) {
		t.Fatalf("err %q, heads %q", ch.Err, ch.Heads)
	}
	// An Insert cut after its relation OID: the decode stops at the tuple.
	s, _ = Apply(s, CompareInput{Text: "4900004001"})
	if e := s.Compare.Second.Doc.Trees[0].Err; e == nil || s.Compare.Change.MsgErr != "The pinned message: "+e.Error() ||
		s.Compare.Change.Err != "" || !strings.Contains(e.Error(), "offset 5") {
		t.Fatalf("the decode's error: %q, %q", s.Compare.Change.Err, s.Compare.Change.MsgErr)
	}
	// The same message, read from a text whose second line does not read: both errors, each
	// in its own field.
	s, _ = Apply(s, CompareInput{Text: "4900004001\nzz"})
	if ch, e := s.Compare.Change, s.Compare.Second.Doc.Trees[0].Err; ch.Err != "The second input could not be read: line 2, column 1: hex: expected a hex digit, found 'z' (tried: hex, base64, base64url)" ||
		ch.MsgErr != "The pinned message: "+e.Error() {
		t.Fatalf("the text's and the message's errors: %q, %q", ch.Err, ch.MsgErr)
	}
	s, _ = Apply(s, CompareInput{Text: strings.Repeat("0", MaxInput+1)})
	if ch := s.Compare.Change; !strings.HasPrefix(ch.Err, "The second input is 16,777,217 bytes, more than the") || ch.Heads[1] != "message "+strconv.Itoa(b+1) {
		t.Errorf("too large: %q", ch.Err)
	}
	// Too large to be copied out of the box: its length in UTF-16 code units.
	s, _ = Apply(s, CompareInput{Size: MaxInput + 2})
	if ch := s.Compare.Change; !strings.HasPrefix(ch.Err, "The second input is at least 16,777,218 bytes, more than the") || ch.Heads[1] != "message "+strconv.Itoa(b+1) {
		t.Errorf("too large to copy: %q", ch.Err)
	}
}
