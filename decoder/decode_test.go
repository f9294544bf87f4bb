package decoder

import (
	"errors"
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
