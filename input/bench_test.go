package input

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand"
	"testing"
)

// benchText builds about 1 MB of hex: lines of lineBytes bytes each (one message per line), or
// one line when lineBytes is 0.
func benchText(lineBytes int) []byte {
	rng := rand.New(rand.NewSource(1))
	raw := make([]byte, 1<<19)
	rng.Read(raw)
	if lineBytes == 0 {
		return []byte(hex.EncodeToString(raw) + "\n")
	}
	var b bytes.Buffer
	for i := 0; i < len(raw); i += lineBytes {
		b.WriteString(hex.EncodeToString(raw[i:min(i+lineBytes, len(raw))]))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func benchParse(b *testing.B, text []byte, f Format) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHexLines: 1 MB of hex, one 100-byte message per line, detected.
func BenchmarkHexLines(b *testing.B) { benchParse(b, benchText(100), Auto) }

// BenchmarkHexOneLine: 1 MB of hex on one line (one message), detected.
func BenchmarkHexOneLine(b *testing.B) { benchParse(b, benchText(0), Auto) }

// BenchmarkHexLinesForced: as BenchmarkHexLines with the format given.
func BenchmarkHexLinesForced(b *testing.B) { benchParse(b, benchText(100), Hex) }

// BenchmarkHexOneLineForced: as BenchmarkHexOneLine with the format given.
func BenchmarkHexOneLineForced(b *testing.B) { benchParse(b, benchText(0), Hex) }

// BenchmarkFormats reads about 1 MB of text in other formats, detected.
func BenchmarkFormats(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	raw := make([]byte, 1<<18)
	rng.Read(raw)
	var xxd, psql, b64 bytes.Buffer
	for i := 0; i < len(raw); i += 16 {
		row := raw[i:min(i+16, len(raw))]
		fmt.Fprintf(&xxd, "%08x: ", i)
		for j := 0; j < 16; j += 2 {
			fmt.Fprintf(&xxd, "%x ", row[j:j+2])
		}
		xxd.WriteString(" ")
		for _, c := range row {
			xxd.WriteByte(printable(c))
		}
		xxd.WriteString("\n")
	}
	psql.WriteString("lsn|xid|data\n")
	for i := 0; i < len(raw); i += 200 {
		fmt.Fprintf(&psql, "0/%X|%d|\\x%x\n", 0x1528468+i, 726+i/1000, raw[i:min(i+200, len(raw))])
		fmt.Fprintf(&b64, "%s\n", base64.StdEncoding.EncodeToString(raw[i:min(i+200, len(raw))]))
	}
	for _, c := range []struct {
		name string
		text []byte
	}{
		{"xxd", xxd.Bytes()},
		{"psql-unaligned", psql.Bytes()},
		{"base64", b64.Bytes()},
	} {
		b.Run(c.name, func(b *testing.B) { benchParse(b, c.text, Auto) })
	}
}
