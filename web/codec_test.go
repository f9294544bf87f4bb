package web

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"
)

// The link codecs agree with the standard library's on random bytes, and name bad characters.
func TestCodecsAgreeWithStandardLibrary(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := range 200 {
		b := make([]byte, n)
		rng.Read(b)
		if got, msg := decodeHex(strings.ToUpper(hex.EncodeToString(b))); msg != "" || !bytes.Equal(got, b) {
			t.Fatalf("decodeHex: %x, %q", got, msg)
		}
		enc := base64.RawURLEncoding.EncodeToString(b)
		if got := encodeBase64URL(b); got != enc {
			t.Fatalf("encodeBase64URL(%x) = %s, want %s", b, got, enc)
		}
		for _, s := range []string{enc, base64.URLEncoding.EncodeToString(b)} {
			if got, msg := decodeBase64URL(s); msg != "" || !bytes.Equal(got, b) {
				t.Fatalf("decodeBase64URL(%s) = %x, %q", s, got, msg)
			}
		}
	}
	if _, msg := decodeHex("42zz"); msg != "expected a hex digit at character 3, found 'z'" {
		t.Errorf("decodeHex: %q", msg)
	}
	if _, msg := decodeBase64URL("QU+B"); !strings.Contains(msg, "character 3, found '+'") {
		t.Errorf("decodeBase64URL: %q", msg)
	}
}
