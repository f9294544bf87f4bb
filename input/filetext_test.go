package input

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/internal/debpkg"
)

// FileText returns a file's bytes as text, for the tests of dumps: text as it is, and a binary
// file as xxd dumps it (TestFileText compares the two), or over CompactDumpFrom bytes as
// xxd -p does.
func FileText(b []byte) string {
	if !IsBinary(b) {
		return string(b)
	}
	// What a client sent as a password or SASL data is not written out (RedactCapture).
	b = RedactCapture(b)
	if len(b) > CompactDumpFrom {
		return string(plainDump(b))
	}
	digits := pgvalue.HexDigits
	out := make([]byte, 0, (len(b)+15)/16*68)
	for off := 0; off < len(b); off += 16 {
		row := b[off:min(off+16, len(b))]
		for shift := 28; shift >= 0; shift -= 4 {
			out = append(out, digits[off>>shift&15])
		}
		out = append(out, ':', ' ')
		for i := 0; i < 16; i++ {
			if i < len(row) {
				out = append(out, digits[row[i]>>4], digits[row[i]&15])
			} else {
				out = append(out, ' ', ' ')
			}
			if i%2 == 1 {
				out = append(out, ' ')
			}
		}
		out = append(out, ' ')
		for _, c := range row {
			out = append(out, printable(c))
		}
		out = append(out, '\n')
	}
	return string(out)
}

// CompactDumpFrom is the size of binary file above which FileText writes xxd -p's plain hex.
const CompactDumpFrom = 1 << 20

// FileTextSize returns the length of FileText(b) without making it.
func FileTextSize(b []byte) int {
	switch {
	case !IsBinary(b):
		return len(b)
	case len(b) > CompactDumpFrom:
		return 2*len(b) + (len(b)+xxdPlainWidth/2-1)/(xxdPlainWidth/2)
	}
	return (len(b)+15)/16*52 + len(b) // a row: offset, hex and blanks, its ASCII column, a newline
}

// plainDump writes b as xxd -p does: 30 bytes (60 hex digits) a line.
func plainDump(b []byte) []byte {
	digits := pgvalue.HexDigits
	out := make([]byte, 0, 2*len(b)+len(b)/(xxdPlainWidth/2)+1)
	for off := 0; off < len(b); off += xxdPlainWidth / 2 {
		for _, c := range b[off:min(off+xxdPlainWidth/2, len(b))] {
			out = append(out, digits[c>>4], digits[c&15])
		}
		out = append(out, '\n')
	}
	return out
}

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
