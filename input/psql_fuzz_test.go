package input

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// psqlFormats are the formats of psql's output, for FuzzPsql.
var psqlFormats = []Format{Auto, PsqlExpanded, PsqlAligned, PsqlHTML, PsqlAsciidoc, Copy, PsqlCSV, PsqlUnaligned}

// FuzzPsql feeds the psql readers real psql output (testdata/input/psql, the start of each
// file) and what the fuzzer makes of it, detected and forced: no panic, no hang, either
// messages or an *Error inside the text, and every result well formed (checkMessages).
// Run it with: go test ./input -run '^$' -fuzz FuzzPsql -fuzztime 60s -parallel 1
func FuzzPsql(f *testing.F) {
	files, _ := filepath.Glob("../testdata/input/psql/*.txt")
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(text) > 4096 {
			text = text[:4096]
		}
		f.Add(text, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text []byte, which uint8) {
		force := psqlFormats[int(which)%len(psqlFormats)]
		r, err := Parse(text, force)
		checkMessages(t, r)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T, want *Error", err)
			}
			if e.Offset < 0 || e.Offset > len(text) || e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("bad error position: %+v", e)
			}
			return
		}
		if force != Auto && r.Format != force {
			t.Fatalf("forced %s, read as %s", force, r.Format)
		}
	})
}
