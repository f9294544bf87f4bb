package decoder

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// at finds a node of d's tree: field inside tuple in (0: anywhere in the message), inside the
// column or at the relation numbered index (0: any).
func at(t *testing.T, d *Draft, in FieldID, index int32, field FieldID) int {
	t.Helper()
	i := vFind(d.Tree(), vcheck{in: in, index: index, field: field})
	if i < 0 {
		t.Fatalf("no %v in\n%s", vcheck{in: in, index: index, field: field}, dump(d.Tree()))
	}
	return i
}

// wantBytes fails unless the draft's bytes are want, and its tree decodes them without error.
func wantBytes(t *testing.T, d *Draft, want []byte) {
	t.Helper()
	if !bytes.Equal(d.Bytes(), want) {
		t.Fatalf("bytes\n%x\nwant\n%x\n%s", d.Bytes(), want, dump(d.Tree()))
	}
	if d.Tree().Err != nil {
		t.Fatalf("edited message does not decode: %v", d.Tree().Err)
	}
	checkTiling(t, d.Tree())
}

// minus returns -v, for byte builders that take the bits of a negative number.
func minus(v int64) int64 { return -v }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func draftOf(t *testing.T, opts Options, b []byte) *Draft {
	t.Helper()
	tr := NewSession(opts).Decode(b)
	return NewDraft(tr)
}

// xlog wraps a message in XLogData inside CopyData, as a live stream sends it.
func xlog(msg []byte) []byte {
	return append(wire{}.b1('d').i32(uint32(4+25+len(msg))).b1('w').i64(0x1773FE8).i64(0x1773FE8).i64(5), msg...)
}

// TestDraftValues: a value of every kind is changed from its edit text, and every length
// around it follows: the column's, the CopyData's.
func TestDraftValues(t *testing.T) {
	ins := func(v string) []byte { return wire{}.b1('I').i32(16384).b1('N').i16(2).text("1").text(v) }
	d := draftOf(t, Options{}, xlog(ins("old")))
	must(t, d.SetText(at(t, d, FieldTupleNew, 2, FieldColumnValue), "a longer value"))
	wantBytes(t, d, xlog(ins("a longer value")))
	must(t, d.SetText(at(t, d, FieldTupleNew, 2, FieldColumnValue), ""))
	wantBytes(t, d, xlog(ins("")))
	// Bytes that are not UTF-8 are written and read as hex.
	must(t, d.SetText(at(t, d, FieldTupleNew, 2, FieldColumnValue), `\xff00`))
	wantBytes(t, d, xlog(ins("\xff\x00")))
	if got := d.EditText(at(t, d, FieldTupleNew, 2, FieldColumnValue)); got != `\xff00` {
		t.Errorf("edit text %q", got)
	}
	must(t, d.SetText(at(t, d, 0, 0, FieldXLogDataStart), "16/B374D848"))
	must(t, d.SetText(at(t, d, 0, 0, FieldXLogDataTime), "2000-01-01T00:00:01.5+01:00"))
	must(t, d.SetText(at(t, d, 0, 0, FieldInsertRelationOID), "4294967295"))
	want := append(wire{}.b1('d').i32(4+25+21).b1('w').i64(0x16B374D848).i64(0x1773FE8).i64(uint64(minus(3600000000-1500000))),
		wire{}.b1('I').i32(0xffffffff).b1('N').i16(2).text("1").raw("t\x00\x00\x00\x02\xff\x00")...)
	wantBytes(t, d, want)

	b := wire{}.b1('B').i64(1).i64(2).i32(754)
	d = draftOf(t, Options{}, b)
	must(t, d.SetText(at(t, d, 0, 0, FieldBeginCommitTime), "-infinity"))
	must(t, d.SetText(at(t, d, 0, 0, FieldBeginXid), " 755 "))
	must(t, d.SetText(at(t, d, 0, 0, FieldBeginFinalLSN), "0/1773fe8"))
	wantBytes(t, d, wire{}.b1('B').i64(0x1773FE8).i64(1<<63).i32(755))
	must(t, d.SetText(at(t, d, 0, 0, FieldBeginCommitTime), "-5"))
	wantBytes(t, d, wire{}.b1('B').i64(0x1773FE8).i64(uint64(minus(5))).i32(755))

	rel := func(ns string, typmod uint32) []byte {
		return wire{}.b1('R').i32(16384).str(ns).str("t").i8('d').i16(1).i8(1).str("id").i32(23).i32(typmod)
	}
	d = draftOf(t, Options{}, rel("public", 0xffffffff))
	must(t, d.SetText(at(t, d, 0, 0, FieldRelationNamespace), ""))
	must(t, d.SetText(at(t, d, 0, 1, FieldRelationColumnTypeModifier), "-7"))
	wantBytes(t, d, rel("", 0xfffffff9))
	must(t, d.SetNum(at(t, d, 0, 1, FieldRelationColumnTypeModifier), 8))
	wantBytes(t, d, rel("", 8))

	msg := func(content string) []byte {
		return wire{}.b1('M').i8(1).i64(5).str("p").i32(uint32(len(content))).raw(content)
	}
	d = draftOf(t, Options{}, msg("hi"))
	must(t, d.SetText(at(t, d, 0, 0, FieldMessageContent), "hello, world"))
	must(t, d.SetText(at(t, d, 0, 0, FieldMessagePrefix), "prefix"))
	wantBytes(t, d, wire{}.b1('M').i8(1).i64(5).str("prefix").i32(12).raw("hello, world"))
	// Text that reads as hex is hex: the edit text of such content is its hex form.
	must(t, d.SetText(at(t, d, 0, 0, FieldMessageContent), `\x5c783330`))
	wantBytes(t, d, wire{}.b1('M').i8(1).i64(5).str("prefix").i32(4).raw(`\x30`))
	if got := d.EditText(at(t, d, 0, 0, FieldMessageContent)); got != `\x5c783330` {
		t.Errorf(`content \x30 reads back as %q`, got)
	}
}

// TestDraftRefusals: what cannot be written is refused with the field and the reason, and the
// draft stays as it was.
func TestDraftRefusals(t *testing.T) {
	b := wire{}.b1('U').i32(16384).b1('K').i16(1).text("1").b1('N').i16(1).text("2")
	d := draftOf(t, Options{}, b)
	for _, c := range []struct {
		field FieldID
		in    FieldID
		text  string
		want  string
	}{
		{FieldUpdateType, 0, "I", "Type: the type byte decides the message's whole layout"},
		{FieldTupleColumnCount, FieldTupleNew, "3", "Column count: is computed from what it measures"},
		{FieldColumnLength, FieldTupleNew, "3", "Length: is computed"},
		{FieldUpdateRelationOID, 0, "x", `Relation OID: expected a whole number from 0 to 4294967295, found "x"`},
		{FieldUpdateRelationOID, 0, "4294967296", "expected a whole number"},
		{FieldColumnKind, FieldTupleNew, "x", `Kind: Update: New tuple: column 1: Kind: expected 'n' (null)`},
		{FieldColumnKind, FieldTupleNew, "tt", "Kind: expected one character: n (null), u (unchanged TOAST), t (text), b (binary)"},
		{FieldUpdateOld, 0, "N", "the edited message would not decode"},
		{FieldUpdateOld, 0, "X", "Old tuple marker: the edited message would not decode: Update: New tuple marker: expected 'K' (old key), 'O' (old tuple)"},
	} {
		err := d.SetText(at(t, d, c.in, 0, c.field), c.text)
		var ee *EditError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s = %q: error %v, want %q", c.field, c.text, err, c.want)
		}
		wantBytes(t, d, b)
	}
	d = draftOf(t, Options{}, wire{}.b1('O').i64(1).str("origin"))
	if err := d.SetText(at(t, d, 0, 0, FieldOriginName), "a\x00b"); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("NUL in a string: %v", err)
	}
	if err := d.SetText(0, "x"); err == nil || !strings.Contains(err.Error(), "is a group") {
		t.Errorf("group: %v", err)
	}
	d = draftOf(t, Options{}, wire{}.b1('B').i64(1).i64(2).i32(754))
	if err := d.SetText(at(t, d, 0, 0, FieldBeginFinalLSN), "1773FE8"); err == nil || !strings.Contains(err.Error(), "expected an LSN such as 16/B374D848") {
		t.Errorf("LSN: %v", err)
	}
	if err := d.SetText(at(t, d, 0, 0, FieldBeginCommitTime), "2024-02-30T00:00:00Z"); err == nil || !strings.Contains(err.Error(), "expected a timestamp") {
		t.Errorf("timestamp: %v", err)
	}
}

// TestDraftMarkers: a column's kind decides the rest of the column; K and O name the tuple
// after them.
func TestDraftMarkers(t *testing.T) {
	up := func(old byte, kinds ...[]byte) []byte {
		w := wire{}.b1('U').i32(16384).b1(old).i16(2).text("1").b1('n').b1('N').i16(2)
		for _, k := range kinds {
			w = append(w, k...)
		}
		return w
	}
	text := func(s string) []byte { return wire{}.text(s) }
	bin := func(s string) []byte { return wire{}.b1('b').i32(uint32(len(s))).raw(s) }
	n, u := []byte{'n'}, []byte{'u'}
	for _, opts := range []Options{{}, {InStream: Yes}} {
		wrap := func(b []byte) []byte {
			if opts.InStream == Yes {
				b = append([]byte{b[0], 0, 0, 0, 9}, b[1:]...) // the Xid of a streamed change
			}
			return xlog(b)
		}
		d := draftOf(t, opts, wrap(up('K', text("2"), u)))
		kind := func(col int32) int { return at(t, d, FieldTupleNew, col, FieldColumnKind) }
		must(t, d.SetMarker(kind(1), 'b')) // t to b: the value stays
		wantBytes(t, d, wrap(up('K', bin("2"), u)))
		must(t, d.SetMarker(kind(1), 'n')) // to null: the length and value go
		wantBytes(t, d, wrap(up('K', n, u)))
		must(t, d.SetMarker(kind(2), 't')) // from unchanged TOAST to text: an empty value
		wantBytes(t, d, wrap(up('K', n, text(""))))
		must(t, d.SetText(at(t, d, FieldTupleNew, 2, FieldColumnValue), "now sent"))
		wantBytes(t, d, wrap(up('K', n, text("now sent"))))
		must(t, d.SetText(at(t, d, 0, 0, FieldUpdateOld), "O"))
		wantBytes(t, d, wrap(up('O', n, text("now sent"))))
		if at(t, d, FieldTupleOld, 1, FieldColumnValue) < 0 {
			t.Fatal("no old tuple after O")
		}
		if d.Tree().Reading.InStream != (opts.InStream == Yes) {
			t.Errorf("reading %+v", d.Tree().Reading)
		}
	}
}

// TestDraftItems: columns and relation OIDs are added (a copy of the one chosen, or of the
// last; the decoder's reading of zero bytes in an empty list) and removed, and the counts follow.
func TestDraftItems(t *testing.T) {
	ins := func(cols ...[]byte) []byte {
		w := wire{}.b1('I').i32(16384).b1('N').i16(uint16(len(cols)))
		for _, c := range cols {
			w = append(w, c...)
		}
		return w
	}
	a, b, n := wire{}.text("a"), wire{}.text("bb"), []byte{'n'}
	d := draftOf(t, Options{}, xlog(ins(a, b)))
	i, err := d.AddItem(at(t, d, FieldTupleNew, 1, FieldColumnValue))
	must(t, err)
	wantBytes(t, d, xlog(ins(a, a, b)))
	if d.Tree().Nodes[i].Field != FieldTupleColumn || d.Tree().Nodes[i].Index != 2 {
		t.Errorf("new item at %d: %s", i, d.Tree().Label(i))
	}
	_, err = d.AddItem(at(t, d, 0, 0, FieldTupleNew))
	must(t, err)
	wantBytes(t, d, xlog(ins(a, a, b, b)))
	must(t, d.RemoveItem(at(t, d, FieldTupleNew, 1, FieldColumnKind)))
	must(t, d.RemoveItem(at(t, d, FieldTupleNew, 1, FieldTupleColumn)))
	wantBytes(t, d, xlog(ins(b, b)))
	must(t, d.RemoveItem(at(t, d, FieldTupleNew, 2, FieldColumnValue)))
	must(t, d.RemoveItem(at(t, d, FieldTupleNew, 1, FieldColumnValue)))
	wantBytes(t, d, xlog(ins()))
	_, err = d.AddItem(at(t, d, FieldTupleNew, 0, FieldTupleColumnCount))
	must(t, err)
	wantBytes(t, d, xlog(ins(n)))
	if err := d.RemoveItem(at(t, d, 0, 0, FieldInsertRelationOID)); err == nil {
		t.Error("removed the relation OID")
	}
	if d.CanAddItem(at(t, d, 0, 0, FieldInsertNew)) {
		t.Error("can add an item at the new tuple marker")
	}

	rel := func(cols ...[]byte) []byte {
		w := wire{}.b1('R').i32(16384).str("public").str("t").i8('d').i16(uint16(len(cols)))
		for _, c := range cols {
			w = append(w, c...)
		}
		return w
	}
	id := wire{}.i8(1).str("id").i32(23).i32(0xffffffff)
	d = draftOf(t, Options{}, rel(id))
	_, err = d.AddItem(at(t, d, 0, 1, FieldRelationColumnName))
	must(t, err)
	must(t, d.SetText(at(t, d, 0, 2, FieldRelationColumnName), "note"))
	wantBytes(t, d, rel(id, wire{}.i8(1).str("note").i32(23).i32(0xffffffff)))
	must(t, d.RemoveItem(at(t, d, 0, 1, FieldRelationColumn)))
	must(t, d.RemoveItem(at(t, d, 0, 1, FieldRelationColumn)))
	wantBytes(t, d, rel())
	_, err = d.AddItem(0)
	must(t, err)
	wantBytes(t, d, rel(wire{}.i8(0).str("").i32(0).i32(0)))

	trunc := func(oids ...uint32) []byte {
		w := wire{}.b1('T').i32(uint32(len(oids))).i8(1)
		for _, o := range oids {
			w = w.i32(o)
		}
		return w
	}
	d = draftOf(t, Options{}, trunc(7))
	_, err = d.AddItem(at(t, d, 0, 1, FieldTruncateRelationOID))
	must(t, err)
	must(t, d.SetText(at(t, d, 0, 2, FieldTruncateRelationOID), "8"))
	wantBytes(t, d, trunc(7, 8))
	must(t, d.RemoveItem(at(t, d, 0, 1, FieldTruncateRelationOID)))
	must(t, d.RemoveItem(at(t, d, 0, 1, FieldTruncateRelationOID)))
	wantBytes(t, d, trunc())
	_, err = d.AddItem(at(t, d, 0, 0, FieldTruncateOptions)) // not the list: refused
	if err == nil {
		t.Error("added at the options")
	}
	_, err = d.AddItem(0)
	must(t, err)
	wantBytes(t, d, trunc(0))
}

// TestDraftIncomplete: a message with an error is edited as found: its bytes round trip, a
// marker changes in place, a length can be set, and lengths move by what an edit changed. This
// is how a broken message is repaired.
func TestDraftIncomplete(t *testing.T) {
	// A column whose length says 5 with 3 bytes left.
	short := xlog(wire{}.b1('I').i32(1).b1('N').i16(1).b1('t').i32(5).raw("abc"))
	d := draftOf(t, Options{}, short)
	if d.Tree().Err == nil || !bytes.Equal(d.Bytes(), short) {
		t.Fatalf("%v %x", d.Tree().Err, d.Bytes())
	}
	if d.EditHow(at(t, d, FieldTupleNew, 1, FieldColumnLength)) != EditNumber {
		t.Fatal("the length of a broken message is not editable")
	}
	must(t, d.SetText(at(t, d, 0, 0, FieldUndecoded), `\x6162636465`)) // the missing bytes; the CopyData length follows
	wantBytes(t, d, xlog(wire{}.b1('I').i32(1).b1('N').i16(1).b1('t').i32(5).raw("abcde")))

	// A wrong kind byte: the bytes after it read as a value once it is t.
	bad := wire{}.b1('I').i32(1).b1('N').i16(1).b1('x').i32(2).raw("hi")
	d = draftOf(t, Options{}, bad)
	must(t, d.SetText(at(t, d, FieldTupleNew, 1, FieldColumnKind), "t"))
	wantBytes(t, d, wire{}.b1('I').i32(1).b1('N').i16(1).text("hi"))

	// A count that says more than there is: fixed by hand.
	d = draftOf(t, Options{InStream: No}, wire{}.b1('T').i32(3).i8(0).i32(7))
	must(t, d.SetText(at(t, d, 0, 0, FieldTruncateRelationCount), "1"))
	wantBytes(t, d, wire{}.b1('T').i32(1).i8(0).i32(7))

	// A column that holds the undecodable rest is not copied: each copy would copy the rest
	// too, doubling the message with every AddItem (found by FuzzEncode: 3c5e67e66c2772d2).
	rest := xlog(wire{}.b1('I').i32(1).b1('N').i16(2).b1('n').b1(2).raw("rest of the message"))
	d = draftOf(t, Options{}, rest)
	if _, err := d.AddItem(at(t, d, FieldTupleNew, 2, FieldColumnKind)); err == nil || !strings.Contains(err.Error(), "not read whole") {
		t.Fatalf("AddItem of a column holding the undecoded rest: %v\n%s", err, dump(d.Tree()))
	}
	if !bytes.Equal(d.Bytes(), rest) {
		t.Fatalf("a refused AddItem changed the bytes: %x", d.Bytes())
	}
	if _, err := d.AddItem(at(t, d, FieldTupleNew, 1, FieldColumnKind)); err != nil {
		t.Fatalf("AddItem of a column read whole: %v", err)
	}

	// Trailing bytes inside a CopyData stay; the CopyData length moves with the edit.
	tr := wire{}.b1('d').i32(4 + 1 + 4 + 2).raw("E").raw("xx").raw("yy")
	d = draftOf(t, Options{}, tr)
	if d.Tree().Err == nil || !bytes.Equal(d.Bytes(), tr) {
		t.Fatalf("%v", d.Tree().Err)
	}
}

// TestDraftEditTextCorpus: for every value of every corpus message, writing its edit text back
// gives the same bytes: the edit texts read back exactly.
func TestDraftEditTextCorpus(t *testing.T) {
	caps := corpusCaptures(t)
	n, msgs := 0, 0
	for name, c := range caps {
		s := NewSession(Options{Proto: captureProto(t, name, c)})
		for k, b := range c.msgs {
			tr := s.Decode(b)
			// Natively every message; under GOOS=js (six times slower) and -short every seventh.
			if k%7 != 0 && (testing.Short() || runtime.GOOS == "js") {
				continue
			}
			d := NewDraft(tr)
			if !bytes.Equal(d.Bytes(), b) || d.Tree().Err != nil || len(d.Tree().Nodes) != len(tr.Nodes) {
				t.Fatalf("%s message %d: draft differs from the tree", name, k)
			}
			msgs++
			for i := range tr.Nodes {
				if d.EditHow(i) == EditNone {
					continue
				}
				if err := d.SetText(i, d.EditText(i)); err != nil {
					t.Fatalf("%s message %d node %d (%s) = %q: %v", name, k, i, tr.Label(i), d.EditText(i), err)
				}
				if !bytes.Equal(d.Bytes(), b) {
					t.Fatalf("%s message %d node %d (%s) = %q: bytes changed", name, k, i, tr.Label(i), d.EditText(i))
				}
				n++
			}
		}
	}
	t.Logf("%d values of %d messages written back from their edit text", n, msgs)
}
