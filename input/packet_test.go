package input

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
)

// TestCaptureTLS: a real capture of pg_recvlogical over TLS (scripts/tls-capture.sh) lists its
// connections as encrypted, with what could be read before: the SSLRequest and the server's
// 'S'; a note says why nothing more is read, and how to capture what can be.
func TestCaptureTLS(t *testing.T) {
	b, err := os.ReadFile("../testdata/input/tshark/tls.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse(b, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != Pcapng || len(r.Connections) == 0 {
		t.Fatalf("read as %s with %d connections", r.Format, len(r.Connections))
	}
	for _, c := range r.Connections {
		if c.Encrypted != "SSL" {
			t.Errorf("connection %s → %s: encrypted %q, want SSL", c.Client, c.Server, c.Encrypted)
		}
	}
	for _, m := range r.Messages {
		request := len(m.Bytes) == 8 && binary.BigEndian.Uint32(m.Bytes[4:]) == 80877103 && m.Side == decoder.Frontend
		answer := len(m.Bytes) == 1 && m.Bytes[0] == 'S' && m.Side == decoder.Backend
		if !request && !answer {
			t.Errorf("message %x (%s): want only SSLRequest and the 'S' answer", m.Bytes, m.Side)
		}
	}
	note := ""
	for _, n := range r.Notes {
		note += n.Text
	}
	if !strings.Contains(note, "encrypted (SSL or GSS encryption") || !strings.Contains(note, "sslmode=disable") {
		t.Errorf("notes %q", note)
	}
}

// TestCaptureIPFragments: a frame holding a fragment of an IP packet is skipped with a note
// that counts it and names its frame. The capture is one made by the benchmark's writer from
// the corpus's real messages, with the third frame's "more fragments" flag set.
func TestCaptureIPFragments(t *testing.T) {
	r, err := Parse(fragmentPcap(t), Auto)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 5 {
		t.Errorf("%d messages, want 5: the startup and 4 CopyData (the fragment's skipped)", len(r.Messages))
	}
	found := false
	for _, n := range r.Notes {
		if strings.Contains(n.Text, "1 frame (3) holds a fragment of IP packets") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note about the fragment: %v", r.Notes)
	}
}

// fragmentPcap is a capture of five real messages whose third frame holds an IP fragment.
func fragmentPcap(t testing.TB) []byte {
	stream := benchStream(t, 1)
	cuts, bad := splitRecvLogical(stream)
	if bad >= 0 || len(cuts) < 5 {
		t.Fatalf("stream splits into %d (bad %d)", len(cuts), bad)
	}
	var msgs [][]byte
	for _, c := range cuts[:5] {
		msgs = append(msgs, stream[c.start:c.end])
	}
	b := benchPcap(msgs)
	// Frame 1 is the startup message, frames 2 to 6 the CopyData messages.
	off := 24
	for n := 1; n < 3; n++ {
		off += 16 + int(binary.LittleEndian.Uint32(b[off+8:]))
	}
	ip := b[off+16+14:]
	ip[6] |= 0x20 // more fragments
	return b
}

// tlsSeeds are small pieces of the real TLS capture, whole pcapng blocks, for the fuzz
// targets: its start (the SSLRequest accepted, then TLS records) and blocks from its middle
// (TLS records only, as a capture begun mid-stream sees them).
func tlsSeeds(t testing.TB) [][]byte {
	b, err := os.ReadFile("../testdata/input/tshark/tls.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte // every block after the section header and interface description
	head := 0
	for off := 0; off+12 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[off+4:]))
		if n < 12 || off+n > len(b) {
			break
		}
		if typ := binary.LittleEndian.Uint32(b[off:]); typ == 0x0a0d0d0a || typ == 1 {
			head = off + n
		} else {
			blocks = append(blocks, b[off:off+n])
		}
		off += n
	}
	seed := func(from int) []byte {
		out := append([]byte(nil), b[:head]...)
		for _, bl := range blocks[from:] {
			if len(out)+len(bl) > 12<<10 {
				break
			}
			out = append(out, bl...)
		}
		return out
	}
	return [][]byte{seed(0), seed(len(blocks) / 2)}
}

// TestRedactCapture: in a real capture of SCRAM, MD5 and clear-text logins, every byte a client
// sent as a password or SASL data is overwritten, in the messages read and in the file the page
// dumps into its text box (FileText), and the file reads back to the same messages.
func TestRedactCapture(t *testing.T) {
	for file, secrets := range map[string][]string{
		"scram-pg18.pcapng":               {"c=biws,r="},
		"fail-scram-password-pg18.pcapng": {"c=biws,r="},
		"ordinary-pg18.pcapng":            {"md5", "carol-correct-horse-battery"},
	} {
		b, err := os.ReadFile("../testdata/conversation/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if !bytes.Contains(b, []byte(s)) {
				t.Fatalf("%s does not hold %q: the test no longer tests", file, s)
			}
		}
		red := RedactCapture(b)
		if len(red) != len(b) || &red[0] == &b[0] {
			t.Fatalf("%s: RedactCapture gave %d bytes (of %d), the file itself", file, len(red), len(b))
		}
		for _, s := range secrets {
			if bytes.Contains(red, []byte(s)) {
				t.Errorf("%s: the redacted file holds %q", file, s)
			}
		}
		direct, err := Parse(b, Auto)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(red, Auto)
		if err != nil {
			t.Fatal(err)
		}
		if len(direct.Messages) != len(again.Messages) {
			t.Fatalf("%s: %d messages, %d after redaction", file, len(direct.Messages), len(again.Messages))
		}
		for i := range direct.Messages {
			m := direct.Messages[i].Bytes
			if !bytes.Equal(m, again.Messages[i].Bytes) {
				t.Errorf("%s: message %d differs after redaction", file, i)
			}
			for _, s := range secrets {
				if bytes.Contains(m, []byte(s)) {
					t.Errorf("%s: message %d holds %q", file, i, s)
				}
			}
		}
		text := FileText(b)
		dumped, err := Parse([]byte(text), Auto)
		if err != nil {
			t.Fatal(err)
		}
		if len(dumped.Messages) != len(direct.Messages) {
			t.Errorf("%s: its dump reads as %d messages, the file %d", file, len(dumped.Messages), len(direct.Messages))
		}
		// The dump is the redacted file's, byte for byte.
		if text != FileText(red) || strings.Contains(text, hex.EncodeToString([]byte("carol-correct"))) {
			t.Errorf("%s: FileText is not the dump of the redacted file", file)
		}
	}
}

// TestCaptureClose: each connection of a real capture says which end sent the first FIN or
// RST, in which frame and when (tshark -T fields -e frame.number -e frame.time_epoch -e
// tcp.flags.fin -e tcp.flags.reset reads the same): a walsender that ended a silent
// pg_recvlogical at wal_sender_timeout sent a FIN (frame 45) and nothing else; pg_recvlogical
// stopped with Ctrl-C closes its own connection.
func TestCaptureClose(t *testing.T) {
	for _, tc := range []struct {
		path  string
		conn  int
		frame int
		at    int64
		by    decoder.Side
	}{
		{"recvlogical-unanswered-pg16.pcapng", 0, 45, 1796409188320922387, decoder.Backend},
		{"recvlogical-fsync-pg16.pcapng", 0, 0, 0, decoder.Frontend},
	} {
		b, err := os.ReadFile("../testdata/consumer/" + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Parse(b, Auto)
		if err != nil {
			t.Fatal(err)
		}
		c := r.Connections[tc.conn]
		if c.ClosedBy != tc.by || c.Reset || c.CloseFrame == 0 || tc.frame != 0 && (c.CloseFrame != tc.frame || c.Closed != tc.at) {
			t.Errorf("%s: connection %d closed by %s in frame %d at %d (reset %v); want %s, frame %d at %d", tc.path, tc.conn+1,
				c.ClosedBy, c.CloseFrame, c.Closed, c.Reset, tc.by, tc.frame, tc.at)
		}
	}
}
