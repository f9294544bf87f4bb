package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/wirecapture"
)

// TestPartsHoldEveryMessage records a real replication connection under load (pgbench's
// clients; the walsender writes its messages in chunks that TCP segments end inside) and
// cuts the capture into parts of 1 MiB as the page does a big file: each part ends where
// the connection's streams are between messages, and the parts read alone hold every
// message of the capture read whole, in order.
func TestPartsHoldEveryMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("records a capture of a real server")
	}
	if err := wirecapture.Check(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	pcap := filepath.Join(dir, "big.pcapng")
	if err := run(ctx, filepath.Join(dir, "big.recv"), pcap, 12<<20, 4); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pcap)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := input.Parse(b, input.Auto)
	if err != nil {
		t.Fatal(err)
	}
	c := &input.Cutter{MaxBytes: 1 << 20, MaxItems: 100_000}
	c.Write(b)
	ps, err := c.Close()
	if err != nil {
		t.Fatal(err)
	}
	keep := func() {
		// The capture that failed, for a look with tshark.
		if f, err := os.CreateTemp("", "parts-*.pcapng"); err == nil {
			f.Write(b)
			f.Close()
			t.Logf("kept the capture as %s", f.Name())
		}
	}
	k := 0
	for i, p := range ps.Parts {
		if p.Mid {
			t.Errorf("part %d of %d ends inside a message", i+1, len(ps.Parts))
		}
		r, err := input.Parse(append(append([]byte(nil), b[:ps.Head]...), b[p.Start:p.End]...), ps.Format)
		if err != nil {
			t.Fatalf("part %d: %v", i+1, err)
		}
		for j, m := range r.Messages {
			if k >= len(whole.Messages) || !bytes.Equal(m.Bytes, whole.Messages[k].Bytes) {
				for d := -2; d <= 2; d++ {
					if k+d >= 0 && k+d < len(whole.Messages) {
						w := whole.Messages[k+d]
						t.Logf("whole %d: frame %d side %v conn %d %x", k+d+1, w.Frame, w.Side, w.Conn, w.Bytes[:min(20, len(w.Bytes))])
					}
					if j+d >= 0 && j+d < len(r.Messages) {
						w := r.Messages[j+d]
						t.Logf("part %d: frame %d side %v conn %d %x", j+d+1, w.Frame, w.Side, w.Conn, w.Bytes[:min(20, len(w.Bytes))])
					}
				}
				for _, n := range r.Notes {
					t.Log(n.Text)
				}
				keep()
				t.Fatalf("part %d, message %d: %x is not message %d of the capture read whole (of %d)", i+1, j+1, m.Bytes, k+1, len(whole.Messages))
			}
			k++
		}
	}
	if k != len(whole.Messages) {
		keep()
		t.Fatalf("the parts hold %d messages, the capture read whole %d", k, len(whole.Messages))
	}
	t.Logf("%d bytes in %d parts: %d messages", len(b), len(ps.Parts), k)
}
