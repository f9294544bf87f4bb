package decoder

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// nodeOf returns the first node of tr with field f (after skip others), or fails.
func nodeOf(t *testing.T, tr *Tree, f FieldID, skip int) int {
	t.Helper()
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == f {
			if skip == 0 {
				return i
			}
			skip--
		}
	}
	t.Fatalf("no %s node in %s", f.Info().Name, dump(tr))
	return -1
}

// accountsRelation is a Relation message of public.accounts (16394): id int4 key, note text,
// tags varchar(20)[], mood (a Type message's type 16385).
func accountsRelation() wire {
	return wire{}.b1('R').i32(16394).str("public").str("accounts").b1('d').i16(4).
		b1(1).str("id").i32(23).i32(0xffffffff).
		b1(0).str("note").i32(25).i32(0xffffffff).
		b1(0).str("tags").i32(1015).i32(24).
		b1(0).str("mood").i32(16385).i32(0xffffffff)
}

func TestExplainSentences(t *testing.T) {
	s := NewSession(Options{})
	s.Decode(wire{}.b1('B').i64(0x1000).i64(0).i32(700))          // 0
	s.Decode(wire{}.b1('Y').i32(16385).str("public").str("mood")) // 1
	s.Decode(wire{}.b1('Y').i32(16386).str("").str("int4"))       // 2: a domain over int4
	s.Decode(accountsRelation())                                  // 3
	ins := s.Decode(wire{}.b1('I').i32(16394).b1('N').i16(4).text("1").b1('n').b1('n').b1('b').i32(5).raw("happy"))
	upd := s.Decode(wire{}.b1('U').i32(16394).b1('K').i16(4).text("1").b1('n').b1('n').b1('n').
		b1('N').i16(4).text("2").b1('u').b1('n').b1('n'))
	trunc := s.Decode(wire{}.b1('T').i32(2).i8(0).i32(16394).i32(99999))
	orphan := NewSession(Options{}).Decode(wire{}.b1('D').i32(777).b1('K').i16(1).text("9"))

	for _, c := range []struct {
		tr   *Tree
		node int
		want string
	}{
		{ins, nodeOf(t, ins, FieldInsertRelationOID, 0), "These 4 bytes are the OID of relation public.accounts (16394); its columns came in the Relation message at index 3."},
		{ins, nodeOf(t, ins, FieldColumnValue, 1), "These 5 bytes are the value of column 4 (mood, public.mood) in binary format: \"happy\" (type not built in)."},
		{upd, nodeOf(t, upd, FieldUpdateOld, 0), "'K': the old values of the replica identity key columns follow (a TupleData; the other columns are sent as n). An Update carries the old key when the change has one: usually because the update changed a key column; the server also sends it when a key column is stored out of line (TOASTed). The bytes do not say which"},
		{upd, nodeOf(t, upd, FieldColumnKind, 5), "'u' for column 2 (note, text): an unchanged TOASTed value: the update did not change this column and PostgreSQL did not send it; keep the value you have."},
		{trunc, nodeOf(t, trunc, FieldTruncateRelationOID, 0), "These 4 bytes are the OID of relation public.accounts (16394), truncated; its Relation message came earlier."},
		{trunc, nodeOf(t, trunc, FieldTruncateRelationOID, 1), "These 4 bytes are the OID of relation OID 99999, truncated; no Relation message for it came earlier in this input, so its columns are known by position only and their types are not known."},
		{orphan, nodeOf(t, orphan, FieldDeleteRelationOID, 0), "These 4 bytes are the OID of relation OID 777; no Relation message for it came earlier in this input, so its columns are known by position only and their types are not known."},
		{trunc, nodeOf(t, trunc, FieldTruncateOptions, 0), "This byte is the TRUNCATE options, 0 none: a plain TRUNCATE: neither CASCADE nor RESTART IDENTITY."},
	} {
		if got := c.tr.Explain(c.node); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.tr.Label(c.node), got, c.want)
		}
	}
	if got := upd.Explain(nodeOf(t, upd, FieldUpdateOld, 0)); strings.Contains(got, "because this update changed") {
		t.Errorf("the reason for K is stated as fact: %s", got)
	}
}

// TestExplainVersion: at a protocol version set below a message's, the sentence says so.
func TestExplainVersion(t *testing.T) {
	tr := NewSession(Options{Proto: 1}).Decode(wire{}.b1('S').i32(5).b1(1))
	if got, want := tr.Explain(0), "It exists from protocol version 2 (PostgreSQL 14); the protocol version is set to 1."; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end in %q", got, want)
	}
	tr = NewSession(Options{Proto: 2}).Decode(wire{}.b1('S').i32(5).b1(1))
	if got := tr.Explain(0); strings.Contains(got, "exists from") {
		t.Errorf("at protocol 2: %q", got)
	}
}

// TestExplainCorpus: every node of every real message has a sentence, with every placeholder
// filled, as valid UTF-8 text.
func TestExplainCorpus(t *testing.T) {
	n := 0
	for name, c := range corpusCaptures(t) {
		s := NewSession(Options{})
		for _, b := range c.msgs {
			tr := s.Decode(b)
			for i := range tr.Nodes {
				e := tr.Explain(i)
				if e == "" || strings.ContainsAny(e, "{}") && !strings.Contains(tr.Value(i), "{") || !utf8.ValidString(e) {
					t.Fatalf("%s: %s: %q", name, tr.Label(i), e)
				}
				n++
			}
		}
	}
	t.Logf("%d sentences", n)
}

// TestNamesNotNumbers: type OIDs, relation OIDs and flags are named; values of types that are
// not built in are shown as text or bytes and marked; a domain's values in its base type's
// format are read as such; an array type's modifier is explained like its element's.
func TestNamesNotNumbers(t *testing.T) {
	s := NewSession(Options{})
	s.Decode(wire{}.b1('Y').i32(16385).str("public").str("mood"))
	s.Decode(wire{}.b1('Y').i32(16386).str("").str("int4"))
	rel := s.Decode(wire{}.b1('R').i32(16394).str("public").str("accounts").b1('d').i16(4).
		b1(1).str("id").i32(23).i32(0xffffffff).
		b1(0).str("tags").i32(1015).i32(24).
		b1(0).str("mood").i32(16385).i32(0xffffffff).
		b1(0).str("n").i32(16386).i32(0xffffffff))
	ins := s.Decode(wire{}.b1('I').i32(16394).b1('N').i16(4).b1('b').i32(4).raw("\x00\x00\x00\x07").
		b1('b').i32(3).raw("\x01\x02\x03").b1('b').i32(5).raw("happy").b1('b').i32(4).raw("\x00\x00\x00\x2a"))
	other := s.Decode(wire{}.b1('R').i32(20000).str("").str("x").b1('d').i16(1).b1(0).str("c").i32(30000).i32(0xffffffff))
	trunc := s.Decode(wire{}.b1('T').i32(1).i8(3).i32(16394))
	msg := s.Decode(wire{}.b1('M').i8(0).i64(1).str("p").i32(0))
	for _, c := range []struct {
		tr   *Tree
		node int
		want string
	}{
		{rel, nodeOf(t, rel, FieldRelationColumnTypeOID, 0), "23 int4"},
		{rel, nodeOf(t, rel, FieldRelationColumnTypeOID, 1), "1015 varchar[]"},
		{rel, nodeOf(t, rel, FieldRelationColumnTypeModifier, 1), "24 (length 20)"},
		{rel, nodeOf(t, rel, FieldRelationColumnTypeOID, 2), "16385 public.mood"},
		{rel, nodeOf(t, rel, FieldRelationColumnTypeOID, 3), "16386 int4"},
		{rel, nodeOf(t, rel, FieldRelationColumnFlags, 1), "0 none"},
		{rel, nodeOf(t, rel, FieldRelationColumnFlags, 0), "1 key"},
		{other, nodeOf(t, other, FieldRelationColumnTypeOID, 0), "30000"},
		{ins, nodeOf(t, ins, FieldInsertRelationOID, 0), "16394 public.accounts"},
		{ins, nodeOf(t, ins, FieldColumnValue, 1), `\x010203`},
		{ins, nodeOf(t, ins, FieldColumnValue, 2), `"happy" (type not built in)`},
		{ins, nodeOf(t, ins, FieldColumnValue, 3), "42"},
		{trunc, nodeOf(t, trunc, FieldTruncateRelationOID, 0), "16394 public.accounts"},
		{trunc, nodeOf(t, trunc, FieldTruncateOptions, 0), "3 CASCADE|RESTART IDENTITY"},
		{msg, nodeOf(t, msg, FieldMessageFlags, 0), "0 none"},
	} {
		if got := c.tr.Value(c.node); got != c.want {
			t.Errorf("%s: %q, want %q", c.tr.Label(c.node), got, c.want)
		}
		var w strings.Builder
		if err := c.tr.WriteValue(&w, c.node); err != nil || w.String() != c.tr.Value(c.node) {
			t.Errorf("%s: WriteValue wrote %q (%v), Value %q", c.tr.Label(c.node), w.String(), err, c.tr.Value(c.node))
		}
	}
	// A binary value of a type that is not built in and whose bytes are not text.
	s2 := NewSession(Options{})
	s2.Decode(wire{}.b1('R').i32(1).str("s").str("t").b1('d').i16(1).b1(0).str("c").i32(40000).i32(0xffffffff))
	tr := s2.Decode(wire{}.b1('I').i32(1).b1('N').i16(1).b1('b').i32(2).raw("\x00\x01"))
	if got, want := tr.Value(nodeOf(t, tr, FieldColumnValue, 0)), `\x0001 (type not built in)`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestVersionNotes: a message or field that does not exist at the protocol version set is
// flagged, and a Stream Abort's 16 trailing bytes are recognised as the parallel fields.
func TestVersionNotes(t *testing.T) {
	has := func(notes []string, want string) bool {
		for _, n := range notes {
			if strings.Contains(n, want) {
				return true
			}
		}
		return false
	}
	tr := NewSession(Options{Proto: 1}).Decode(wire{}.b1('S').i32(5).b1(1))
	if want := "Stream Start exists from protocol version 2 (PostgreSQL 14); the protocol version is set to 1."; !has(tr.Notes(), want) {
		t.Errorf("notes %q, want %q", tr.Notes(), want)
	}
	tr = NewSession(Options{Proto: 2}).Decode(wire{}.b1('b').i64(1).i64(2).i64(3).i32(4).str("g"))
	if want := "Begin Prepare exists from protocol version 3 (PostgreSQL 15)"; !has(tr.Notes(), want) {
		t.Errorf("notes %q, want %q", tr.Notes(), want)
	}
	tr = NewSession(Options{Proto: 1, InStream: Yes}).Decode(wire{}.b1('I').i32(5).i32(1).b1('N').i16(0))
	if want := "Xid (streamed change) exists from protocol version 2"; !has(tr.Notes(), want) {
		t.Errorf("notes %q, want %q", tr.Notes(), want)
	}
	for _, p := range []int{2, 3} {
		tr = NewSession(Options{Proto: p}).Decode(wire{}.b1('A').i32(5).i32(6).i64(0x16B374D848).i64(817000000000000))
		if want := "The 16 trailing bytes have the layout of the abort LSN and abort timestamp that a Stream Abort carries with streaming = parallel (protocol 4): they read as 16/B374D848 and 2025-11-21T00:26:40.000000Z. The protocol version is set to " + itoa(p) + ", which has no such fields."; !has(tr.Notes(), want) {
			t.Errorf("protocol %d: notes %q, want %q", p, tr.Notes(), want)
		}
	}
	tr = NewSession(Options{Proto: 4}).Decode(wire{}.b1('S').i32(5).b1(1))
	if len(tr.Notes()) != 0 {
		t.Errorf("protocol 4 Stream Start: notes %q", tr.Notes())
	}
}
