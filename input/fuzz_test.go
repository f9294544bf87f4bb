package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no text makes Parse panic, that it returns either messages or an
// *Error, and that the error's position is inside the text.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	// Real tool output too (the smaller files, so that seeds stay quick): dumps, literals,
	// pg_recvlogical files, captures, tshark's text.
	more, _ := filepath.Glob("../testdata/input/*/*")
	for _, f := range more {
		if fi, err := os.Stat(f); err == nil && !fi.IsDir() && fi.Size() < 24<<10 &&
			!strings.HasSuffix(f, ".want") && !strings.HasSuffix(f, "MADE_BY") && !strings.HasSuffix(f, ".gz") {
			files = append(files, f)
		}
	}
	texts := append(tlsSeeds(f), fragmentPcap(f))
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		texts = append(texts, text)
	}
	for _, text := range texts {
		for i := range len(parsers) + 1 {
			f.Add(text, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte, which uint8) {
		force := Auto
		if int(which) < len(parsers) {
			force = parsers[which].format
		}
		checkAtMost(t, text, force, 1+int(which)%4)
		r, err := Parse(text, force)
		if err != nil {
			if r != nil && (len(r.Messages) == 0 || len(r.Errors) == 0 || r.Errors[0] != err) {
				t.Fatalf("a partial result must hold messages and list the error first: %v, %+v", err, r)
			}
			checkMessages(t, r)
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
		checkMessages(t, r)
	})
}

// checkAtMost checks ParseAtMost with a limit: at most limit messages kept, the rest counted,
// and the same messages as Parse when they are no more than the limit.
func checkAtMost(t *testing.T, text []byte, force Format, limit int) {
	r, err := ParseAtMost(text, force, limit)
	checkMessages(t, r)
	if r == nil {
		return
	}
	if len(r.Messages) > limit || r.More > 0 && len(r.Messages) != limit {
		t.Fatalf("ParseAtMost(%d): %d messages kept, %d more", limit, len(r.Messages), r.More)
	}
	if r.More > 0 || err != nil {
		return
	}
	all, err := Parse(text, force)
	if err != nil || len(all.Messages) != len(r.Messages) {
		t.Fatalf("ParseAtMost(%d) read %d messages, Parse %d (%v)", limit, len(r.Messages), len(all.Messages), err)
	}
}

// checkMessages checks what every result must hold: lines from 1, offsets inside the text and
// in order, message bytes that cannot be appended over each other, notes about messages that exist.
func checkMessages(t *testing.T, r *Result) {
	if r == nil {
		return
	}
	prev := 0
	for _, m := range r.Messages {
		binary := r.Format == Pcap || r.Format == Pcapng || r.Format == RecvLogical || r.Format == Binary
		if (m.Line < 1) != binary || cap(m.Bytes) != len(m.Bytes) || m.Offset < prev && !binary {
			t.Fatalf("bad message %+v", m)
		}
		prev = m.Offset
	}
	for _, n := range r.Notes {
		if n.Message < -1 || n.Message >= len(r.Messages) || n.Text == "" {
			t.Fatalf("bad note %+v", n)
		}
	}
}

// dumpFormats are the readers of dumps, program output, binary files and captures, fuzzed on
// their own by FuzzDumps (forced, and detected among themselves).
var dumpFormats = []Format{Pcap, Pcapng, RecvLogical, Binary, Follow, NodeBuffer, NodeUint8Array, GoPrint,
	GoString, Java, RustHex, Xxd, HexdumpC, Hexdump, Od, WiresharkDump, XxdPlain, CSharp, HexItems, Base64Wrapped, KotlinJoin}

// FuzzDumps checks the readers of dumps, program output, binary files and captures as FuzzParse
// does, each forced, seeded with the real tool output in testdata/input.
func FuzzDumps(f *testing.F) {
	more, _ := filepath.Glob("../testdata/input/*/*")
	for _, file := range more {
		if fi, err := os.Stat(file); err != nil || fi.IsDir() || fi.Size() > 24<<10 ||
			strings.HasSuffix(file, ".want") || strings.HasSuffix(file, "MADE_BY") || strings.HasSuffix(file, ".gz") {
			continue
		}
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range dumpFormats {
			f.Add(text, uint8(i))
		}
	}
	for _, text := range append(tlsSeeds(f), fragmentPcap(f)) {
		for i := range dumpFormats {
			f.Add(text, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte, which uint8) {
		force := dumpFormats[int(which)%len(dumpFormats)]
		r, err := Parse(text, force)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T, want *Error", err)
			}
			if e.Offset < 0 || e.Offset > len(text) || e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("bad error position: %+v", e)
			}
			if r != nil && (len(r.Messages) == 0 || r.Errors[0] != err) {
				t.Fatalf("a partial result must hold messages and list the error first")
			}
		}
		if r != nil && r.Format != force {
			t.Fatalf("forced %s, read as %s", force, r.Format)
		}
		checkMessages(t, r)
	})
}
