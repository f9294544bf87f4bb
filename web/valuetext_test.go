package web

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// hugeTrees decodes a Relation whose only column has a name of nameLen bytes, then an Insert
// of that relation whose one value of valueLen bytes has the given kind ('t' or 'b') and type.
func hugeTrees(t testing.TB, nameLen, valueLen int, kind byte, typeOID uint32) (rel, ins *decoder.Tree) {
	t.Helper()
	be32 := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
	r := []byte{'R'}
	r = be32(r, 16384)
	r = append(r, "public\x00big\x00d"...)
	r = append(r, 0, 1, 1) // one column, part of the key
	r = append(r, strings.Repeat("n", nameLen)...)
	r = append(r, 0)
	r = be32(r, typeOID)
	r = be32(r, 0xffffffff)
	in := []byte{'I'}
	in = be32(in, 16384)
	in = append(in, 'N', 0, 1, kind)
	in = be32(in, uint32(valueLen))
	v := make([]byte, valueLen)
	for i := range v {
		v[i] = 'a' + byte(i%26)
	}
	in = append(in, v...)
	s := decoder.NewSession(decoder.Options{Proto: 1})
	rel, ins = s.Decode(r), s.Decode(in)
	if rel.Err != nil || ins.Err != nil {
		t.Fatalf("decode: %v, %v", rel.Err, ins.Err)
	}
	return rel, ins
}

// nodeOf returns the first node of field f.
func nodeOf(t testing.TB, tr *decoder.Tree, f decoder.FieldID) int {
	t.Helper()
	for i := range tr.Nodes {
		if tr.Nodes[i].Field == f {
			return i
		}
	}
	t.Fatalf("no %v node", f)
	return -1
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// A tree row, a tooltip and the description write at most what they show, however long the
// value or the name is: the same text as the whole value cut, for a cost that does not grow
// with the value.
func TestValueTextFormatsOnlyWhatIsShown(t *testing.T) {
	const big = 8 << 20
	for _, tc := range []struct {
		name  string
		kind  byte
		oid   uint32
		exact bool // the cut text equals the whole value cut
	}{
		{"text column", 't', 25, true},
		{"binary bytea", 'b', 17, true},
		{"binary text", 'b', 25, false}, // typed binary values longer than formatWhole show as hex
	} {
		rel, ins := hugeTrees(t, big, big, tc.kind, tc.oid)
		val := nodeOf(t, ins, decoder.FieldColumnValue)
		col := nodeOf(t, ins, decoder.FieldTupleColumn)
		relCol := nodeOf(t, rel, decoder.FieldRelationColumn)
		for _, limit := range []int{MaxRowText, MaxDescriptionText, MaxTitleText} {
			var got, label, relLabel string
			n := allocated(func() {
				got = ValueText(ins, val, limit)
				label = LabelText(ins, col, limit)
				relLabel = LabelText(rel, relCol, limit)
			})
			if n > 16*uint64(limit)+4096 {
				t.Errorf("%s, limit %d: formatting allocated %d bytes", tc.name, limit, n)
			}
			for _, s := range []string{got, label, relLabel} {
				if len(s) > limit || !strings.HasSuffix(s, "…") {
					t.Errorf("%s, limit %d: %d bytes %q…, want at most %d ending in …", tc.name, limit, len(s), s[:min(len(s), 40)], limit)
				}
			}
			if want := Cut(ins.Value(val), limit); tc.exact && got != want {
				t.Errorf("%s, limit %d: value %q, want %q", tc.name, limit, got, want)
			}
			if want := Cut(ins.Label(col), limit); label != want {
				t.Errorf("%s, limit %d: label %q, want %q", tc.name, limit, label, want)
			}
			if want := Cut(rel.Label(relCol), limit); relLabel != want {
				t.Errorf("%s, limit %d: Relation column label %q, want %q", tc.name, limit, relLabel, want)
			}
		}
	}
	// What the test guards against: the whole value costs its length, each time.
	_, ins := hugeTrees(t, 8, big, 't', 25)
	val := nodeOf(t, ins, decoder.FieldColumnValue)
	if n := allocated(func() { _ = ins.Value(val) }); n < big {
		t.Errorf("the whole value allocated only %d bytes", n)
	}
	// Short values and names come out whole.
	rel, ins := hugeTrees(t, 4, 5, 't', 25)
	if got := ValueText(ins, nodeOf(t, ins, decoder.FieldColumnValue), MaxRowText); got != `"abcde"` {
		t.Errorf("short value %q", got)
	}
	if got := LabelText(rel, nodeOf(t, rel, decoder.FieldRelationColumn), MaxRowText); got != "column 1 (nnnn)" {
		t.Errorf("short name %q", got)
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s     string
		limit int
		want  string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "…"},
		{"abcdef", 5, "ab…"},
		{"aéééé", 6, "aé…"},
		{"aéééé", 5, "a…"},
	} {
		if got := Cut(tc.s, tc.limit); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.limit, got, tc.want)
		}
	}
}
