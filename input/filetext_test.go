package input

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"pgoutput-inspector/internal/debpkg"
)

// TestFileText checks that a binary file shown as FileText reads back to the same messages as
// the file itself, with the same frames, directions, connections and times, and that FileText
// writes what xxd writes of the file (a capture's, once its secrets are redacted).
func TestFileText(t *testing.T) {
	debpkg.NoteOnFailure(t, "xxd")
	names := []string{"../testdata/input/recvlogical/stream.bin", "../testdata/input/tshark/pcapng.pcapng", "../testdata/input/recvlogical/one_raw.bin"}
	conversations, _ := filepath.Glob("../testdata/conversation/*.pcapng")
	for _, name := range append(names, conversations...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := Parse(b, Auto)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := FileText(b)
		redacted := filepath.Join(t.TempDir(), filepath.Base(name))
		if err := os.WriteFile(redacted, RedactCapture(b), 0o644); err != nil {
			t.Fatal(err)
		}
		if xxd, err := exec.Command("xxd", redacted).Output(); err == nil && string(xxd) != text {
			t.Errorf("%s: FileText differs from xxd's dump", name)
		}
		dumped, err := Parse([]byte(text), Auto)
		if err != nil {
			t.Fatalf("%s as text: %v", name, err)
		}
		if len(dumped.Messages) != len(direct.Messages) {
			t.Fatalf("%s: %d messages as text, %d as bytes", name, len(dumped.Messages), len(direct.Messages))
		}
		for i, m := range direct.Messages {
			d := dumped.Messages[i]
			if !bytes.Equal(m.Bytes, d.Bytes) || m.Frame != d.Frame || m.Side != d.Side || m.Conn != d.Conn || m.Time != d.Time {
				t.Errorf("%s: message %d differs: frame %d, %v, connection %d, time %d as text; %d, %v, %d, %d as bytes",
					name, i, d.Frame, d.Side, d.Conn, d.Time, m.Frame, m.Side, m.Conn, m.Time)
			}
		}
		if !reflect.DeepEqual(dumped.Connections, direct.Connections) {
			t.Errorf("%s: connections as text %+v, as bytes %+v", name, dumped.Connections, direct.Connections)
		}
	}
	if FileText([]byte("42 00\n")) != "42 00\n" {
		t.Error("text changed")
	}
}

// TestFileTextCompact: a binary file over CompactDumpFrom is shown as xxd -p writes it, and
// reads back to the messages of the file itself; FileTextSize gives the text's length.
func TestFileTextCompact(t *testing.T) {
	debpkg.NoteOnFailure(t, "xxd")
	stream := benchStream(t, CompactDumpFrom+CompactDumpFrom/4)
	cuts, _ := splitRecvLogical(stream)
	var msgs [][]byte
	for _, c := range cuts {
		msgs = append(msgs, stream[c.start:c.end])
	}
	capture := benchPcap(msgs)
	for _, b := range [][]byte{capture, capture[:CompactDumpFrom-100], []byte("42 00\n")} {
		text := FileText(b)
		if FileTextSize(b) != len(text) {
			t.Errorf("FileTextSize %d, FileText %d bytes", FileTextSize(b), len(text))
		}
		if len(b) <= CompactDumpFrom {
			continue
		}
		f := "/tmp/filetext-compact.bin"
		if err := os.WriteFile(f, b, 0o644); err == nil {
			if xxd, err := exec.Command("xxd", "-p", f).Output(); err == nil && string(xxd) != text {
				t.Errorf("FileText differs from xxd -p's dump")
			}
			os.Remove(f)
		}
		direct, err := Parse(b, Auto)
		if err != nil {
			t.Fatal(err)
		}
		dumped, err := Parse([]byte(text), Auto)
		if err != nil {
			t.Fatal(err)
		}
		// The capture starts its connection with a StartupMessage before the messages.
		if dumped.Format != XxdPlain || len(dumped.Messages) != len(direct.Messages) || len(direct.Messages) != 1+len(msgs) {
			t.Fatalf("as text: %s, %d messages; as bytes %d; written %d", dumped.Format, len(dumped.Messages), len(direct.Messages), len(msgs))
		}
		for i := range direct.Messages {
			if !bytes.Equal(direct.Messages[i].Bytes, dumped.Messages[i].Bytes) {
				t.Errorf("message %d differs", i)
			}
		}
	}
}
