package input

import (
	"runtime"
	"strings"
	"testing"
)

// TestParseAtMost: a text of a million one-byte messages read with a limit of a thousand keeps
// a thousand, counts the rest, and allocates a fraction of what keeping them all would (the
// Message records alone would take 88 MB).
func TestParseAtMost(t *testing.T) {
	const n, limit = 1_000_000, 1000
	text := []byte(strings.Repeat("00\n", n))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := ParseAtMost(text, Auto, limit)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != limit || r.More != n-limit {
		t.Fatalf("%d messages kept, %d more; want %d and %d", len(r.Messages), r.More, limit, n-limit)
	}
	if last := r.Messages[limit-1]; len(last.Bytes) != 1 || last.Bytes[0] != 0 || last.Line != limit {
		t.Errorf("last message kept: %x on line %d", last.Bytes, last.Line)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 24<<20 {
		t.Errorf("allocated %d bytes for %d bytes of text", got, len(text))
	}
	if all, err := ParseAtMost([]byte(strings.Repeat("00\n", limit)), Auto, limit); err != nil || all.More != 0 || len(all.Messages) != limit {
		t.Errorf("exactly the limit: %v, %+v", err, all)
	}
}
