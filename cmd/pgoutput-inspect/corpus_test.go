package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds captures of the corpus workload from PostgreSQL 14 to 18, each option set.
const corpusDir = "../../testdata/corpus"

func readCorpus(t testing.TB, file string) []byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return b
}

// TestCorpus decodes every committed corpus capture in both output modes: every message must
// decode, and the JSON must keep its documented shape.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.capture.gz"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", corpusDir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".capture.gz"), func(t *testing.T) {
			in := string(readCorpus(t, file))
			r := runCmd(t, in, nil, "decode", "--json")
			if r.code != exitOK {
				t.Errorf("decode --json: exit %d; stderr:\n%s\nerrors:\n%s", r.code, r.stderr, jsonErrors(r.stdout))
			}
			checkJSONDocument(t, []byte(r.stdout))
			r = runCmd(t, in, nil, "decode")
			if r.code != exitOK || !strings.HasPrefix(r.stdout, "format capture, ") {
				t.Errorf("decode: exit %d; stderr:\n%s", r.code, r.stderr)
			}
		})
	}
}

// BenchmarkDecode measures decode of a whole corpus capture (PostgreSQL 18, binary values),
// from text to output, in both modes.
func BenchmarkDecode(b *testing.B) {
	in := readCorpus(b, filepath.Join(corpusDir, "pg18-binary-parallel.capture.gz"))
	for _, mode := range []string{"text", "json"} {
		args := []string{"decode"}
		if mode == "json" {
			args = append(args, "--json")
		}
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				e := &env{ctx: context.Background(), stdin: bytes.NewReader(in), stdout: io.Discard,
					stderr: io.Discard, getenv: func(string) string { return "" }}
				if code := run(e, args); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
