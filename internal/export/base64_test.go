package export_test

import (
	"bytes"
	"encoding/base64"
	"testing"

	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
)

// AppendBase64 writes what encoding/base64 writes, and input.DecodeBase64 reads it back.
func FuzzBase64(f *testing.F) {
	for _, s := range []string{"", "B", "BE", "BEG", "BEGIN\x00\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, url := range []bool{false, true} {
			enc := base64.StdEncoding
			if url {
				enc = base64.RawURLEncoding
			}
			got := export.AppendBase64([]byte("x"), b, url)
			if want := "x" + enc.EncodeToString(b); string(got) != want {
				t.Fatalf("url %v: %q, want %q", url, got, want)
			}
			back, bad := input.DecodeBase64(got[1:], url)
			if bad >= 0 || !bytes.Equal(back, b) {
				t.Fatalf("url %v: read back %x (bad %d), want %x", url, back, bad, b)
			}
		}
	})
}
