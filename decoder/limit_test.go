package decoder

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// hugeNumerics is a Relation of 65,535 numeric columns and an Insert of as many binary numerics
// of weight 32767 (10 bytes each; 131,069 digits of text each, 8.6 GB for the message).
func hugeNumerics() (rel, ins []byte) {
	const n = 65535
	r := wire{}.b1('R').i32(16384).str("public").str("wide").i8('d').i16(n)
	in := wire{}.b1('I').i32(16384).b1('N').i16(n)
	value := wire{}.i16(1).i16(32767).i16(0).i16(0).i16(1)
	for range n {
		r = r.i8(0).str("n").i32(1700).i32(0xffffffff)
		in = in.b1('b').i32(uint32(len(value))).raw(string(value))
	}
	return r, in
}

// TestValueLimitOfHugeNumerics: capped, every value of the message is formatted without
// allocating and within the cap.
func TestValueLimitOfHugeNumerics(t *testing.T) {
	rel, ins := hugeNumerics()
	s := NewSession(Options{})
	s.Decode(rel)
	tr := s.Decode(ins)
	if tr.Err != nil {
		t.Fatal(tr.Err)
	}
	buf := make([]byte, 0, 256)
	values := 0
	allocs := testing.AllocsPerRun(1, func() {
		values = 0
		for i := range tr.Nodes {
			if tr.Nodes[i].Field != FieldColumnValue {
				continue
			}
			out, cut, err := tr.AppendValueLimit(buf[:0], i, 160)
			if len(out) > 160 || !cut || err != nil {
				t.Fatalf("node %d: %d bytes, cut %v, %v", i, len(out), cut, err)
			}
			values++
		}
	})
	if values != 65535 || allocs != 0 {
		t.Fatalf("%d values, %v allocations", values, allocs)
	}
}

// BenchmarkValueLimitOfHugeNumerics formats the 65,535 numerics of weight 32767 of one message,
// each capped at 160 bytes as the text dump shows it. One op is the whole message.
func BenchmarkValueLimitOfHugeNumerics(b *testing.B) {
	rel, ins := hugeNumerics()
	s := NewSession(Options{})
	s.Decode(rel)
	tr := s.Decode(ins)
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(ins)))
	b.ReportAllocs()
	for b.Loop() {
		for i := range tr.Nodes {
			if tr.Nodes[i].Field == FieldColumnValue {
				tr.AppendValueLimit(buf[:0], i, 160)
			}
		}
	}
}

// TestValueForms: for every node of the corpus and of hand-made values, the capped text is a
// prefix of the whole text cut on a character boundary, and WriteValue writes the whole text.
func TestValueForms(t *testing.T) {
	check := func(tr *Tree) {
		for i := range tr.Nodes {
			full := tr.AppendValue(nil, i)
			var w bytes.Buffer
			if err := tr.WriteValue(&w, i); err != nil || w.String() != string(full) {
				t.Fatalf("%s: WriteValue %q, %v; AppendValue %q", tr.Label(i), w.String(), err, full)
			}
			for _, limit := range []int{0, 1, 2, 7, 20, len(full) - 1, len(full), len(full) + 1} {
				if limit < 0 {
					continue
				}
				got, cut, _ := tr.AppendValueLimit([]byte("x"), i, limit)
				got = got[1:]
				if !bytes.HasPrefix(full, got) || len(got) > limit || cut != (len(got) < len(full)) || !utf8.Valid(got) {
					t.Fatalf("%s: AppendValueLimit(%d) = %q, cut %v; whole %q", tr.Label(i), limit, got, cut, full)
				}
			}
		}
	}
	for _, c := range corpusCaptures(t) {
		s := NewSession(Options{})
		for k, b := range c.msgs {
			tr := s.Decode(b)
			if k%5 == 0 {
				check(tr)
			}
		}
	}
	s := NewSession(Options{})
	s.Decode(wire{}.b1('R').i32(7).str("").str("t").i8('d').i16(3).
		i8(0).str("a").i32(1007).i32(0xffffffff).i8(0).str("b").i32(25).i32(0xffffffff).i8(0).str("c").i32(1700).i32(0xffffffff))
	tr := s.Decode(wire{}.b1('I').i32(7).b1('N').i16(3).
		b1('b').i32(12).raw("\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x17"). // int4[] with 7 dimensions: invalid
		text("é\u202e\"x\\\n").
		b1('b').i32(10).raw("\x00\x01\x7f\xff\x40\x00\x00\x00\x00\x01"))
	check(tr)
	var verr *pgvalue.ValueError
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == FieldColumnValue && tr.Nodes[i].Offset == 13 {
			if _, _, err := tr.AppendValueLimit(nil, i, 5); !errors.As(err, &verr) || !errors.As(tr.ValueError(i), &verr) {
				t.Errorf("an invalid int4[]: AppendValueLimit error %v, ValueError %v", err, tr.ValueError(i))
			}
		}
	}
	check(s.Decode(wire{}.b1('R').i32(8).str("").str("t").i8('d').i16(0)))
	check(s.Decode(wire{}.b1('M').i8(1).i64(5).str("p\u202e").i32(3).raw("\xffab")))
}
