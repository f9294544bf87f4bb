package input

import (
	"encoding/binary"
	"runtime"
	"testing"
)

// truncateMessage returns a Truncate of n relations: a message of 4n+6 bytes whose reading (with
// or without a streamed transaction's Xid) the decoder must choose, as a paste gives no context.
func truncateMessage(n int) []byte {
	b := make([]byte, 0, 6+4*n)
	b = append(b, 'T')
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = append(b, 0)
	for i := range n {
		b = binary.BigEndian.AppendUint32(b, uint32(16384+i))
	}
	return b
}

// TestChooseLargeMessage: scoring a reading asks the decoder whether each message fits and
// keeps no annotation of it, so choosing between the readings of one 8 MB message allocates
// next to nothing (its annotation would take 64 MB), and a reading whose messages decode is
// kept as it was.
func TestChooseLargeMessage(t *testing.T) {
	msg := truncateMessage(2_000_000)
	r := &Result{Format: Hex, Messages: []Message{{Bytes: msg}}}
	if rivals(r.Format) == nil {
		t.Fatal("hex has no rival readings: choose would not score it")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := choose(nil, r)
	runtime.ReadMemStats(&after)
	if got != r || len(got.Notes) != 0 || len(got.Also) != 0 {
		t.Fatalf("choose changed a reading whose message decodes: %s, notes %v, also %v", got.Format, got.Notes, got.Also)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 {
		t.Errorf("choosing the reading of one %d-byte message allocated %d bytes, want at most 256 KiB", len(msg), alloc)
	}
}

// BenchmarkChooseLarge scores the readings of one 50 MB message (12.5 M relation OIDs).
func BenchmarkChooseLarge(b *testing.B) {
	msg := truncateMessage(12_500_000)
	r := &Result{Format: Hex, Messages: []Message{{Bytes: msg}}}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if got := choose(nil, r); got != r {
			b.Fatal("the reading changed")
		}
	}
}
