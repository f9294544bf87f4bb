package input

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestFileText checks that a binary file shown as FileText reads back to the same messages as
// the file itself, and that FileText writes what xxd writes.
func TestFileText(t *testing.T) {
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
