package web

import (
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// The link codecs are written out here rather than taken from encoding/hex and
// encoding/base64: encoding/hex imports fmt, which alone brings fmt, os, io/fs and time into
// main.wasm.

// appendHex appends b as lower-case hex.
func appendHex(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
	}
	return dst
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
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

const base64URLAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// encodeBase64URL writes b as unpadded base64url (RFC 4648 §5).
func encodeBase64URL(b []byte) string {
	out := make([]byte, 0, (len(b)*4+2)/3)
	for i := 0; i < len(b); i += 3 {
		n := min(3, len(b)-i)
		var v uint32
		for j := range 3 {
			v <<= 8
			if j < n {
				v |= uint32(b[i+j])
			}
		}
		for j := 0; j <= n; j++ {
			out = append(out, base64URLAlphabet[(v>>(18-6*j))&63])
		}
	}
	return string(out)
}

// decodeBase64URL reads base64url, padded or not; the error names the first character that
// does not belong.
func decodeBase64URL(s string) ([]byte, string) {
	for len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
	}
	if len(s)%4 == 1 {
		return nil, "a length of " + strconv.Itoa(len(s)) + " characters is not base64url"
	}
	out := make([]byte, 0, len(s)*3/4)
	var v uint32
	bits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= 'A' && c <= 'Z':
			d = c - 'A'
		case c >= 'a' && c <= 'z':
			d = c - 'a' + 26
		case c >= '0' && c <= '9':
			d = c - '0' + 52
		case c == '-':
			d = 62
		case c == '_':
			d = 63
		default:
			return nil, "expected a base64url character at character " + strconv.Itoa(i+1) + ", found " + strconv.QuoteRune(rune(c))
		}
		v = v<<6 | uint32(d)
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(v>>bits))
		}
	}
	return out, ""
}
