package web

import (
	"os"
	"path/filepath"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// TestFilterCountInParts: the page's search of a big file's parts (Filter.Count on each part,
// decoded going on from the parts before: NewPartDoc; wasm/export) finds in real captures and
// a pg_recvlogical file cut into small parts what the filter finds in the file read whole,
// for queries of each kind but conn: (a part numbers its own connections).
func TestFilterCountInParts(t *testing.T) {
	queries := []string{"type:C", "type:I,U,D", "type:k from:server", "rel:t", "rel:public.t", "lsn:0/1..0/1A00000", "xid:700..800", "xid:801..", "from:client", "a", "2"}
	for _, path := range partFiles() {
		b, parts := partsOf(t, path)
		whole, _ := NewDoc(string(b), input.Auto, decoder.Options{}, -1)
		for _, q := range queries {
			f := ParseFilter(q)
			want, _ := f.Count(whole)
			got := 0
			for _, pt := range parts {
				if d := pt.whole; d != nil {
					n, first := f.Count(d)
					if n > 0 && !f.Match(d, first) || n == 0 && first != -1 {
						t.Errorf("%s, %s: %d found, the first %d", path, q, n, first)
					}
					got += n
				}
			}
			if got != want {
				t.Errorf("%s, %s: %d found in %d parts, %d in the whole file", path, q, got, len(parts), want)
			}
		}
	}
}

// partFiles are the real captures and pg_recvlogical file the tests of a big file's parts cut.
func partFiles() []string {
	files, _ := filepath.Glob("../testdata/conversation/recvlogical-*.pcapng")
	return append(files, "../testdata/conversation/subscriber-pg17-pg18.pcapng", "../testdata/input/recvlogical/stream.bin")
}

// part is one part of a file cut small, as the page and the export worker see it.
type part struct {
	text string // a file of its own: the file's head, then the part's bytes
	// before is what the page's decode of it goes on from (Carry.AppendBefore), holding
	// relations relations and types types.
	before           []byte
	relations, types int
	// whole is its decode going on from the parts before (NewPartDoc), nil when it does not
	// read.
	whole *Doc
}

// partsOf reads the file at path, cuts it into parts of at most 64 KiB or 100 items and
// decodes them in order, as the export worker does.
func partsOf(t *testing.T, path string) ([]byte, []part) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &input.Cutter{MaxBytes: 64 << 10, MaxItems: 100}
	c.Write(b)
	ps, err := c.Close()
	if err != nil {
		t.Fatal(err)
	}
	var carry Carry
	parts := make([]part, len(ps.Parts))
	for k, p := range ps.Parts {
		pt := &parts[k]
		pt.text = string(b[:ps.Head]) + string(b[p.Start:p.End])
		pt.before, pt.relations, pt.types = carry.AppendBefore(nil)
		pt.whole = NewPartDoc(pt.text, ps.Format, &carry)
	}
	return b, parts
}
