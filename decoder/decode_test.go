package decoder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestBeginTiles(t *testing.T) {
	b := wire{}.b1('B').i64(0x1773FE8).i64(1000000).i32(754)
	tr := NewSession(Options{}).Decode(b)
	if tr.Err != nil {
		t.Fatal(tr.Err)
	}
	checkTiling(t, tr)
	if tr.Type != 'B' || len(tr.Nodes) != 5 {
		t.Fatalf("got %s", dump(tr))
	}
}

func TestUpdateTruncatedError(t *testing.T) {
	s := NewSession(Options{})
	rel := wire{}.b1('R').i32(16384).str("public").str("t").i8('d').i16(3).
		i8(1).str("id").i32(23).i32(0xffffffff).
		i8(0).str("v").i32(25).i32(0xffffffff).
		i8(0).str("w").i32(25).i32(0xffffffff)
	if tr := s.Decode(rel); tr.Err != nil {
		t.Fatal(tr.Err)
	}
	u := wire{}.b1('U').i32(16384).b1('N').i16(3).text("1").text("abc").b1('t').raw("\x00\x00")
	tr := s.Decode(u)
	checkTiling(t, tr)
	if !errors.Is(tr.Err, ErrTruncated) {
		t.Fatalf("err = %v", tr.Err)
	}
	want := "Update: New tuple: column 3 (w): Length: need 4 bytes at offset 23, 2 remain"
	if tr.Err.Error() != want {
		t.Fatalf("err = %q\nwant  %q\n%s", tr.Err.Error(), want, dump(tr))
	}
}

func TestStreamGuess(t *testing.T) {
	s := NewSession(Options{})
	ins := wire{}.b1('I').i32(777).i32(16384).b1('N').i16(1).b1('n')
	tr := s.Decode(ins)
	if tr.Err != nil || !tr.Reading.InStream || !tr.Reading.Guessed || tr.Reading.AlsoFit {
		t.Fatalf("reading %+v err %v\n%s", tr.Reading, tr.Err, dump(tr))
	}
	checkTiling(t, tr)
	if tr.MissingRelation != 16384 {
		t.Fatalf("missing relation %d", tr.MissingRelation)
	}
}

// TestDecodeIntoReusedTree: a tree reused for every message of a stream holds after each
// decode what a fresh tree holds, so DecodeInto clears all that the message before it left
// (the benchmarks and the page reuse one tree). The streams: every capture with its envelopes
// and as bare messages, and the kept FuzzDecode inputs one after another (errors of every kind).
func TestDecodeIntoReusedTree(t *testing.T) {
	type stream struct {
		opts Options
		msgs [][]byte
	}
	streams := map[string]stream{}
	for name, c := range corpusCaptures(t) {
		streams[name] = stream{Options{}, c.msgs}
		var bare [][]byte
		for _, m := range c.msgs {
			if p := xlogPayload(m); p != nil {
				bare = append(bare, p)
			}
		}
		streams[name+", bare"] = stream{Options{Envelope: EnvelopeNone}, bare}
	}
	files, _ := filepath.Glob("testdata/fuzz/FuzzDecode/*")
	var fuzz [][]byte
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		lit, ok := strings.CutPrefix(lines[1], "[]byte(")
		if !ok || !strings.HasSuffix(lit, ")") {
			t.Fatalf("%s: no []byte input on its second line", f)
		}
		b, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fuzz = append(fuzz, []byte(b))
	}
	if len(files) == 0 {
		t.Fatal("no kept FuzzDecode input")
	}
	streams["FuzzDecode inputs"] = stream{Options{}, fuzz}
	for name, st := range streams {
		fresh, reusing := NewSession(st.opts), NewSession(st.opts)
		var tr Tree
		for i, b := range st.msgs {
			want := fresh.Decode(b)
			reusing.DecodeInto(&tr, b)
			if diff := treeDiff(want, &tr); diff != "" {
				t.Fatalf("%s message %d: the reused tree differs from a fresh one: %s\nfresh:\n%s\nreused:\n%s", name, i, diff, dump(want), dump(&tr))
			}
		}
	}
}

// treeDiff names the first field in which two decodes of the same bytes differ, or returns "".
func treeDiff(a, b *Tree) string {
	switch {
	case !slices.Equal(a.Bytes, b.Bytes) || cap(a.Bytes) != cap(b.Bytes):
		return "Bytes"
	case !slices.Equal(a.Nodes, b.Nodes):
		return "Nodes"
	case !reflect.DeepEqual(a.Err, b.Err):
		return fmt.Sprintf("Err %v, %v", a.Err, b.Err)
	case a.Message != b.Message || a.Type != b.Type || a.msg != b.msg:
		return "Message, Type or MessageType"
	case a.Reading != b.Reading:
		return fmt.Sprintf("Reading %+v, %+v", a.Reading, b.Reading)
	case !reflect.DeepEqual(a.Relation, b.Relation) || a.MissingRelation != b.MissingRelation || a.RelationIndex != b.RelationIndex:
		return "Relation, MissingRelation or RelationIndex"
	case a.Index != b.Index:
		return "Index"
	case len(a.rels) != len(b.rels) || len(a.rels) > 0 && !reflect.DeepEqual(a.rels, b.rels):
		return "the Truncate's relations"
	case len(a.types) != len(b.types) || len(a.types) > 0 && !reflect.DeepEqual(a.types, b.types):
		return "the Relation's column types"
	}
	return ""
}
