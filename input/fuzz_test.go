package input

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no text makes Parse panic, that it returns either messages or an
// *Error, and that the error's position is inside the text.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range len(parsers) + 1 {
			f.Add(text, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte, which uint8) {
		force := Auto
		if int(which) < len(parsers) {
			force = parsers[which].format
		}
		r, err := Parse(text, force)
		if err != nil {
			if r != nil {
				t.Fatalf("both a result and an error: %v", err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T, want *Error", err)
			}
			if e.Offset < 0 || e.Offset > len(text) || e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("bad error position: %+v", e)
			}
			if e.Column > utf8.RuneCount(text)+1 {
				t.Fatalf("column %d beyond the text", e.Column)
			}
			return
		}
		if r == nil || r.Format == Auto {
			t.Fatalf("no error and no format: %+v", r)
		}
		if force != Auto && r.Format != force {
			t.Fatalf("forced %s, read as %s", force, r.Format)
		}
		for _, m := range r.Messages {
			if m.Line < 1 || cap(m.Bytes) != len(m.Bytes) {
				t.Fatalf("bad message %+v", m)
			}
		}
	})
}
