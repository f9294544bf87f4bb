package decoder

import (
	"strings"
	"testing"
)

// An error inside a group still open names the group from what was decoded of it, also when
// the tree held a longer message before (a reused node keeps the end of its earlier group).
func TestErrorPathInReusedTree(t *testing.T) {
	s := NewSession(Options{Proto: 1, Envelope: EnvelopeNone})
	var tr Tree
	long := wire{}.b1('R').i32(16384).str("public").str("t").b1('d').i16(2).
		i8(1).str("id").i32(23).i32(0xffffffff).
		i8(0).str("v").i32(25).i32(0xffffffff)
	s.DecodeInto(&tr, long)
	if tr.Err != nil {
		t.Fatalf("%x: %v", []byte(long), tr.Err)
	}
	for _, c := range []struct {
		b    wire
		path string
	}{
		// Cut before column 1's flags: the column has no name yet.
		{wire{}.b1('R').i32(16385).str("public").str("u").b1('d').i16(1), "Relation: column 1: "},
		// Cut in column 1's type OID: its name was read.
		{wire{}.b1('R').i32(16385).str("public").str("u").b1('d').i16(1).i8(0).str("k").raw("\x00\x00"), "Relation: column 1 (k): "},
	} {
		s.DecodeInto(&tr, c.b)
		if tr.Err == nil || !strings.Contains(tr.Err.Error(), c.path) {
			t.Errorf("%x: error %v, want the path %q", []byte(c.b), tr.Err, c.path)
		}
		checkTiling(t, &tr)
		s.DecodeInto(&tr, long)
	}
}
