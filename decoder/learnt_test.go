package decoder

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestLearn: a session taught the relations and types another learnt decodes a change as
// that one does, and says where its columns came from.
func TestLearn(t *testing.T) {
	// Inside a streamed transaction (xid 7): a Type message, and a Relation message with a
	// column of that type; then an Insert outside it.
	typ := "59" + "00004000" + "7075626c696300" + "6d6f6f6400"
	rel := "52" + "00000007" + "00004001" + "7075626c696300" + "7400" + "64" + "0002" +
		"01" + "696400" + "00000017" + "ffffffff" +
		"00" + "6d00" + "00004000" + "ffffffff"
	ins := "49" + "00004001" + "4e" + "0002" + "74" + "00000001" + "31" + "74" + "00000003" + "736164"
	from := NewSession(Options{})
	for _, m := range []string{"53" + "00000007" + "01", "59" + "00000007" + typ[2:], rel} {
		b, _ := hex.DecodeString(m)
		if tr := from.Decode(b); tr.Err != nil {
			t.Fatalf("%s: %v", m, tr.Err)
		}
	}
	types, relations := Learnt(from)
	learnt := append(types, relations...)
	want := []string{typ, "52" + rel[10:]}
	if len(learnt) != len(want) {
		t.Fatalf("Learnt gives %d messages, not %d", len(learnt), len(want))
	}
	for i, m := range learnt {
		if hex.EncodeToString(m) != want[i] {
			t.Errorf("Learnt[%d] = %x, not %s", i, m, want[i])
		}
	}
	s := NewSession(Options{InStream: No})
	s.Learn(learnt)
	b, _ := hex.DecodeString(ins)
	tr := s.Decode(b)
	if tr.Err != nil || tr.Relation == nil || tr.RelationIndex != -1 {
		t.Fatalf("the Insert decodes with relation %v, index %d, error %v", tr.Relation, tr.RelationIndex, tr.Err)
	}
	if got := tr.Relation.QualifiedName() + " " + tr.Relation.Columns[1].Name + " " + tr.Relation.Columns[1].TypeName; got != "public.t m public.mood" {
		t.Errorf("the relation is %q", got)
	}
	if types, relations := Learnt(s); len(types) != 1 || len(relations) != 1 {
		t.Errorf("the session taught does not teach on: %x, %x", types, relations)
	}
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == FieldInsertRelationOID {
			if got := string(tr.appendRelationSource(nil, i)); !strings.Contains(got, "before this input") {
				t.Errorf("the relation's source reads %q", got)
			}
		}
	}
}
