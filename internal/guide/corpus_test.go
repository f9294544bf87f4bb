package guide

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusPayloads reads the payloads of every real capture under testdata/corpus, per file:
// the captures the decoder's own tests decode (its corpusCaptures reads the same files).
func corpusPayloads(t testing.TB) map[string][][]byte {
	t.Helper()
	files, _ := filepath.Glob("../../testdata/corpus/*.capture*")
	if len(files) == 0 {
		t.Fatal("no capture under testdata/corpus")
	}
	out := map[string][][]byte{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = fh
		if strings.HasSuffix(f, ".gz") {
			if r, err = gzip.NewReader(fh); err != nil {
				t.Fatal(err)
			}
		}
		var msgs [][]byte
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' {
				continue
			}
			_, h, ok := strings.Cut(line, " ")
			if !ok {
				t.Fatalf("%s: line without LSN: %.40q", f, line)
			}
			b, err := hex.DecodeString(h)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			msgs = append(msgs, b)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
		out[filepath.Base(f)] = msgs
	}
	return out
}

// be writes a message: its type byte, then each value big-endian at its own size.
func be(typ byte, values ...any) []byte {
	b := []byte{typ}
	for _, v := range values {
		b, _ = binary.Append(b, binary.BigEndian, v)
	}
	return b
}
