package decoder

import (
	"bufio"
	"compress/gzip"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusPayloads returns every payload of the real captures under testdata/corpus, per file.
func corpusPayloads(t testing.TB) map[string][][]byte {
	out := map[string][][]byte{}
	for name, c := range corpusCaptures(t) {
		out[name] = c.msgs
	}
	return out
}

// capture is one capture file: its "# key: value" header lines and its payloads.
type capture struct {
	header map[string]string
	msgs   [][]byte
}

// corpusCaptures reads every capture under testdata/corpus.
func corpusCaptures(t testing.TB) map[string]*capture {
	t.Helper()
	files, _ := filepath.Glob("../testdata/corpus/*.capture*")
	out := map[string]*capture{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = fh
		if strings.HasSuffix(f, ".gz") {
			zr, err := gzip.NewReader(fh)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		}
		c := &capture{header: map[string]string{}}
		out[filepath.Base(f)] = c
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Text()
			if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": "); ok && line[0] == '#' {
				c.header[k] = v
			}
			if line == "" || line[0] == '#' {
				continue
			}
			sp := strings.IndexByte(line, ' ')
			if sp < 0 {
				t.Fatalf("%s: line without LSN: %.40q", f, line)
			}
			b, err := hex.DecodeString(line[sp+1:])
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			c.msgs = append(c.msgs, b)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	return out
}

func fuzzSeeds() [][]byte {
	rel := wire{}.b1('R').i32(16384).str("public").str("t").i8('d').i16(2).
		i8(1).str("id").i32(23).i32(0xffffffff).i8(0).str("v").i32(25).i32(0xffffffff)
	return [][]byte{
		wire{}.b1('B').i64(0x1773FE8).i64(1000000).i32(754),
		wire{}.b1('C').i8(0).i64(1).i64(2).i64(3),
		rel,
		wire{}.b1('I').i32(16384).b1('N').i16(2).text("1").b1('n'),
		wire{}.b1('U').i32(16384).b1('K').i16(2).text("1").b1('n').b1('N').i16(2).text("2").b1('u'),
		wire{}.b1('D').i32(16384).b1('O').i16(2).text("1").text("x"),
		wire{}.b1('T').i32(2).i8(3).i32(1).i32(2),
		wire{}.b1('M').i8(1).i64(5).str("p").i32(2).raw("hi"),
		wire{}.b1('S').i32(9).i8(1),
		wire{}.b1('A').i32(9).i32(10).i64(11).i64(12),
		wire{}.b1('r').i8(0).i64(1).i64(2).i64(3).i64(4).i32(5).str("gid"),
		wire{}.b1('r').i64(1).i64(2).i64(3).i64(4).b1(0),
		wire{}.b1('k').i64(1).i64(2).b1(1),
		append(wire{}.b1('w').i64(1).i64(1).i64(2), wire{}.b1('E')...),
		append(wire{}.b1('d').i32(4+25+1).b1('w').i64(1).i64(1).i64(2), 'E'),
	}
}

// FuzzDecode: any bytes, any options: never panics, the leaves always tile the input, whether
// or not it decodes, and Check gives its error.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, uint8(0))
	}
	for _, msgs := range corpusPayloads(f) {
		for i, m := range msgs {
			if i%50 == 0 {
				f.Add(m, uint8(0))
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, opt uint8) {
		opts := Options{Proto: int(opt & 7 % 5), InStream: Choice(opt >> 3 & 3 % 3),
			ParallelAbort: Choice(opt >> 5 & 3 % 3), Envelope: EnvelopeMode(opt >> 7)}
		s, fit := NewSession(opts), NewSession(opts)
		// Decode twice, so the second decode sees what the first added to the session.
		for range 2 {
			tr := s.Decode(b)
			checkTiling(t, tr)
			if c := fit.Check(b); !sameCheck(c, tr) {
				t.Fatalf("Check's error %+v is not Decode's %+v", c, tr.Err)
			}
			if tr.Err != nil {
				_ = tr.Err.Error()
			}
			for i := range tr.Nodes {
				_ = tr.AppendValue(nil, i)
				_ = tr.Label(i)
			}
		}
	})
}
