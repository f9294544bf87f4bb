package web

import (
	"strconv"
	"strings"

	"pgoutput-inspector/decoder/pgvalue"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/export"
)

// The hex codec is not encoding/hex, which imports fmt: that alone brings fmt, os, io/fs and
// time into main.wasm (443 KB; docs/performance.md). Hex is written by export.AppendBytes (the
// Export menu's writer) and read here.
// base64url is export.AppendBase64's and input.DecodeBase64's (size: docs/performance.md, "Size tricks").

// unhex returns the value of the hex digit c, and whether c is one.
func unhex(c byte) (byte, bool) {
	v := pgvalue.HexValue(c)
	return v, v != 0xff
}

// decodeHex reads hex digits; the error names the first character that is not one.
func decodeHex(s string) ([]byte, string) {
	if len(s)%2 == 1 {
		return nil, "odd number of hex digits (" + strconv.Itoa(len(s)) + ")"
	}
	out := make([]byte, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			j := i
			if ok1 {
				j++
			}
			return nil, "expected a hex digit at character " + strconv.Itoa(j+1) + ", found " + strconv.QuoteRune(rune(s[j]))
		}
		out[i/2] = hi<<4 | lo
	}
	return out, ""
}

// encodeBase64URL writes b as unpadded base64url (RFC 4648 §5).
func encodeBase64URL(b []byte) string { return string(export.AppendBase64(nil, b, true)) }

// decodeBase64URL reads base64url, padded or not; the error names the first character that
// does not belong.
func decodeBase64URL(s string) ([]byte, string) {
	s = strings.TrimRight(s, "=")
	b, bad := input.DecodeBase64([]byte(s), true)
	switch {
	case bad < 0:
		return b, ""
	case bad < len(s):
		return nil, "expected a base64url character at character " + strconv.Itoa(bad+1) + ", found " + strconv.QuoteRune(rune(s[bad]))
	}
	return nil, "a length of " + strconv.Itoa(len(s)) + " characters is not base64url"
}
