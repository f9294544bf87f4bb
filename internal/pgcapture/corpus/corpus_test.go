package corpus_test

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/pgcapture"
	"pgoutput-inspector/internal/pgcapture/corpus"
)

// corpusDir is testdata/corpus at the repository root.
const corpusDir = "../../../testdata/corpus"

// TestCommittedCorpus checks, without a server, that the committed corpus has one file per
// server version and variant, that every file reads back, and that every pgoutput message
// type the server and options can produce appears in it (found by the type byte after the
// 25-byte XLogData header).
func TestCommittedCorpus(t *testing.T) {
	all := map[byte]bool{}
	for major := 14; major <= 18; major++ {
		for _, v := range append(corpus.Variants(major), corpus.OLTPVariants(major)...) {
			name := filepath.Join(corpusDir, "pg"+strconv.Itoa(major)+"-"+v.Name+".capture.gz")
			t.Run(filepath.Base(name), func(t *testing.T) {
				f := readCapture(t, name)
				if got := f.Headers["server"]; !strings.HasPrefix(got, "PostgreSQL "+strconv.Itoa(major)+".") {
					t.Errorf("server header %q, want PostgreSQL %d.x", got, major)
				}
				wantProto := "proto_version=" + strconv.Itoa(pgcapture.MaxProtoVersion(major))
				if opts := f.Headers["options"]; !strings.HasPrefix(opts, wantProto+" ") {
					t.Errorf("options header %q does not start with %s", opts, wantProto)
				}
				counts := f.Count()
				if missing := corpus.Missing(corpus.Expected(major, v), counts); missing != "" {
					t.Errorf("message types missing: %q (counts %v)", missing, counts.ByType)
				}
				if counts.Other != 0 {
					t.Errorf("%d payloads are neither XLogData nor keepalive", counts.Other)
				}
				for typ := range counts.ByType {
					if !strings.ContainsRune(corpus.TypeOrder, rune(typ)) {
						t.Errorf("unknown pgoutput message type %q", typ)
					}
					all[typ] = true
				}
			})
		}
	}
	for i := 0; i < len(corpus.TypeOrder); i++ {
		if !all[corpus.TypeOrder[i]] {
			t.Errorf("no corpus file has message type %q", corpus.TypeOrder[i])
		}
	}
}

// TestCorpusStreamAbortLayouts pins the two Stream Abort layouts: 9 bytes after the type
// byte with streaming=on, 25 with streaming=parallel (abort LSN and time added).
func TestCorpusStreamAbortLayouts(t *testing.T) {
	for file, want := range map[string]int{"pg16-text": 9, "pg16-binary-parallel": 25, "pg18-text": 9, "pg18-binary-parallel": 25} {
		f := readCapture(t, filepath.Join(corpusDir, file+".capture.gz"))
		n := 0
		for _, p := range f.Payloads {
			if m := p.Message(); len(m) > 0 && m[0] == 'A' {
				n++
				if len(m) != want {
					t.Errorf("%s: Stream Abort of %d bytes, want %d", file, len(m), want)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no Stream Abort", file)
		}
	}
}

func readCapture(t *testing.T, name string) *pgcapture.File {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatalf("%v (re-create the corpus with scripts/capture-corpus.sh)", err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pgcapture.ReadFile(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}
