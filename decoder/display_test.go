package decoder

import (
	"pgoutput-inspector/decoder/pgvalue"
	"strings"
	"testing"
)

func TestTypeModifierMeaning(t *testing.T) {
	s := NewSession(Options{})
	tr := s.Decode(wire{}.b1('R').i32(1).str("public").str("t").i8('d').i16(4).
		i8(0).str("a").i32(1700).i32(6<<16 | 2 + 4).
		i8(0).str("b").i32(1043).i32(24).
		i8(0).str("c").i32(1184).i32(3).
		i8(0).str("d").i32(23).i32(0xffffffff))
	var got []string
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == FieldRelationColumnTypeModifier {
			got = append(got, tr.Value(i))
		}
	}
	want := []string{"393222 (precision 6, scale 2)", "24 (length 20)", "3 (precision 3)", "-1"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("type modifiers shown as %q, want %q", got, want)
		}
	}
}

// Names from the wire (relation, namespace, column) reach labels, error paths and notes
// escaped, so that a hostile name cannot drive a terminal or reorder the text around it; the
// raw name stays available as data (Tree.Name, Relation.Name).
func TestNamesEscapedInDisplayText(t *testing.T) {
	const hostile = "id\u009b2J\u202e\x1b]0;x\x07\u200b\xff"
	const escaped = `id\u009b2J\u202e\x1b]0;x\x07\u200b\xff`
	s := NewSession(Options{Proto: 1})
	rel := wire{}.b1('R').i32(16384).str("pub\u202elic").str("t\u2066").i8('d').i16(2).
		i8(1).str(hostile).i32(23).i32(0xffffffff).
		i8(0).str("n").i32(25).i32(0xffffffff)
	tr := s.Decode(rel)
	if tr.Err != nil {
		t.Fatal(tr.Err)
	}
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == FieldRelationColumn && tr.Nodes[i].Index == 1 {
			if got := tr.Label(i); got != "column 1 ("+escaped+")" {
				t.Errorf("Relation column label %q", got)
			}
			if got := tr.Name(i); got != hostile {
				t.Errorf("Name %q, want the raw name", got)
			}
		}
	}
	// A truncated Insert: its error path names the column.
	ins := wire{}.b1('I').i32(16384).b1('N').i16(3).b1('t').i32(5).raw("ab")
	tr = s.Decode(ins)
	if tr.Err == nil {
		t.Fatal("want an error")
	}
	if msg := tr.Err.Error(); !strings.Contains(msg, "column 1 ("+escaped+")") || containsRaw(msg) {
		t.Errorf("error %q", msg)
	}
	for _, note := range tr.Notes() {
		if containsRaw(note) || !strings.Contains(note, `t\u2066`) {
			t.Errorf("note %q", note)
		}
	}
	for i := range tr.Nodes {
		if l := tr.Label(i); containsRaw(l) {
			t.Errorf("label %q", l)
		}
	}
	if tr.Relation == nil || tr.Relation.Name != "t\u2066" || tr.Relation.Namespace != "pub\u202elic" {
		t.Errorf("Relation %+v: want the raw names as data", tr.Relation)
	}
}

// containsRaw reports whether s holds something AppendText escapes.
func containsRaw(s string) bool { return pgvalue.SafeText(s) != s }
