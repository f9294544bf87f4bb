package decoder

import (
	"bytes"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestEncodeCorpus: every message of every capture under testdata/corpus, decoded as a stream
// (as TestCorpus decodes it), is written back by the encoder to the same bytes, with every
// length and count computed from what it measures.
func TestEncodeCorpus(t *testing.T) {
	caps := corpusCaptures(t)
	if len(caps) == 0 {
		t.Fatal("no capture under testdata/corpus")
	}
	var e Encoder
	var out []byte
	var tr Tree
	n, lengths := 0, 0
	names := make([]string, 0, len(caps))
	for name := range caps {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := caps[name]
		s := NewSession(Options{Proto: captureProto(t, name, c)})
		for i, b := range c.msgs {
			s.DecodeInto(&tr, b)
			if tr.Err != nil {
				t.Fatalf("%s message %d: %v", name, i, tr.Err)
			}
			var err error
			out, err = e.Append(out[:0], &tr)
			if err != nil {
				t.Fatalf("%s message %d: %v", name, i, err)
			}
			if !bytes.Equal(out, b) {
				t.Fatalf("%s message %d: encoded\n%x\nwant\n%x\n%s", name, i, out, b, dump(&tr))
			}
			for j := range tr.Nodes {
				if tr.Nodes[j].Field.Info().Kind == KindLength {
					lengths++
				}
			}
			n++
		}
	}
	t.Logf("%d captures, %d messages written back byte for byte, %d lengths and counts computed", len(caps), n, lengths)
}

// captureProto is the proto_version a capture's options header line asked for.
func captureProto(t testing.TB, name string, c *capture) int {
	for _, kv := range strings.Fields(c.header["options"]) {
		if v, ok := strings.CutPrefix(kv, "proto_version="); ok {
			p, err := strconv.Atoi(v)
			if err == nil {
				return p
			}
		}
	}
	t.Fatalf("%s: no proto_version in the header %q", name, c.header["options"])
	return 0
}

// TestEncodeVectors: every line of the peers' vectors, decoded with the context its notes give
// and again with none, is written back to the same bytes; the malformed lines too (written as
// found, undecoded and trailing bytes included).
func TestEncodeVectors(t *testing.T) {
	var good, bad int
	for _, f := range vectorFiles {
		lines := readVectors(t, f.name)
		for _, vs := range f.sessions {
			s := NewSession(vs.opts)
			for _, l := range vs.lines {
				b := lines[l.line]
				for _, tr := range []*Tree{s.Decode(b), NewSession(Options{}).Decode(b)} {
					out, err := Encode(tr)
					if err != nil {
						t.Fatalf("%s line %d: %v", f.name, l.line, err)
					}
					if !bytes.Equal(out, b) {
						t.Fatalf("%s line %d: encoded\n%x\nwant\n%x\n%s", f.name, l.line, out, b, dump(tr))
					}
					if tr.Err != nil {
						bad++
					} else {
						good++
					}
				}
			}
		}
	}
	t.Logf("%d decodes without error and %d with one written back byte for byte", good, bad)
}

// TestSizeRules: the encoder's size rules name exactly the length and count fields of the field
// table, each once, and what each measures is a field of the same layer.
func TestSizeRules(t *testing.T) {
	seen := map[FieldID]bool{}
	for _, r := range sizeRules {
		if seen[r.Field] {
			t.Errorf("%s has two size rules", r.Field)
		}
		seen[r.Field] = true
		if r.Field.Info().Kind != KindLength {
			t.Errorf("size rule for %s, of kind %s", r.Field, r.Field.Info().Kind)
		}
		if r.How != sizeRest && r.Of.Info().Of != r.Field.Info().Of && !strings.HasPrefix(r.Of.Info().Of, r.Field.Info().Of) {
			t.Errorf("%s (%s) measures %s (%s)", r.Field, r.Field.Info().Of, r.Of, r.Of.Info().Of)
		}
		if f := r.Field.Info().Format; f != FormatInt16 && f != FormatInt32 {
			t.Errorf("%s is %s; the encoder writes lengths and counts as Int16 or Int32", r.Field, f)
		}
	}
	for f := FieldID(0); int(f) < NumFields; f++ {
		if f.Info().Kind == KindLength && !seen[f] {
			t.Errorf("length field %s (%s) has no size rule: the encoder would not fix it up", f, f.Info().Of)
		}
	}
}

// TestEncodeFixesUp: lengths and counts are computed, not copied: a tree whose values changed
// is written with the lengths and counts of its new values.
func TestEncodeFixesUp(t *testing.T) {
	b := wire{}.b1('d').i32(4 + 25 + 15).b1('w').i64(1).i64(1).i64(2).
		b1('I').i32(16384).b1('N').i16(2).text("1").b1('n')
	tr := NewSession(Options{}).Decode(b)
	if tr.Err != nil {
		t.Fatal(tr.Err)
	}
	var e Encoder
	e.nodes = appendEditNodes(nil, tr)
	for i := range e.nodes {
		if e.nodes[i].field == FieldColumnValue {
			e.nodes[i].val = []byte("12345")
		}
	}
	out, err := e.encode(nil, e.nodes, fixMeasure)
	if err != nil {
		t.Fatal(err)
	}
	want := wire{}.b1('d').i32(4 + 25 + 19).b1('w').i64(1).i64(1).i64(2).
		b1('I').i32(16384).b1('N').i16(2).text("12345").b1('n')
	if !bytes.Equal(out, want) {
		t.Fatalf("got\n%x\nwant\n%x", out, want)
	}
	// A count too large for its field is refused, naming it.
	nodes := appendEditNodes(nil, tr)
	var col []editNode
	for i := range nodes {
		if nodes[i].field == FieldTupleColumn {
			col = append(col, nodes[i], nodes[i+1])
			break
		}
	}
	for range 1 << 16 {
		nodes = append(nodes, col...)
	}
	_, err = e.encode(nil, nodes, fixMeasure)
	var ee *EditError
	if !errors.As(err, &ee) || ee.Field != FieldTupleColumnCount || !strings.Contains(err.Error(), "65538 does not fit an Int16") {
		t.Fatalf("error %v", err)
	}
}
