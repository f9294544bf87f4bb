package input

import (
	"bytes"
	"encoding/hex"
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
