package input

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"pgoutput-inspector/internal/debpkg"
)

// TestFileText checks that a binary file shown as FileText reads back to the same messages as
// the file itself, and that FileText writes what xxd writes.
func TestFileText(t *testing.T) {
	debpkg.NoteOnFailure(t, "xxd")
	for _, name := range []string{"../testdata/input/recvlogical/stream.bin", "../testdata/input/tshark/pcapng.pcapng", "../testdata/input/recvlogical/one_raw.bin"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := Parse(b, Auto)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := FileText(b)
		if xxd, err := exec.Command("xxd", name).Output(); err == nil && string(xxd) != text {
			t.Errorf("%s: FileText differs from xxd's dump", name)
		}
		dumped, err := Parse([]byte(text), Auto)
		if err != nil {
			t.Fatalf("%s as text: %v", name, err)
		}
		if len(dumped.Messages) != len(direct.Messages) {
			t.Fatalf("%s: %d messages as text, %d as bytes", name, len(dumped.Messages), len(direct.Messages))
		}
		for i := range direct.Messages {
			if !bytes.Equal(direct.Messages[i].Bytes, dumped.Messages[i].Bytes) {
				t.Errorf("%s: message %d differs", name, i)
			}
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
