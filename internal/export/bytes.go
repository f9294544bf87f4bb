// Package export writes bytes as hex, base64 or a Go, Python or JavaScript literal, and a
// message as a Go test against github.com/jackc/pglogrepl (decode --go-test). It reads decoder
// trees and writes text, and knows nothing of terminals or browsers, so that the page can
// write the same.
package export

import "pgoutput-inspector/decoder/pgvalue"

// BytesFormat is a way to write bytes as text.
type BytesFormat uint8

// Byte formats.
const (
	Hex        BytesFormat = iota // lower-case hex digits, no separators: "4900"
	Base64                        // standard base64 with padding (RFC 4648)
	Go                            // a Go []byte composite literal
	Python                        // a Python bytes literal, b'\x49\x00'
	JavaScript                    // a JavaScript new Uint8Array([0x49, 0x00])
	numBytesFormats
)

// BytesFormats lists the byte formats in menu order.
var BytesFormats = []BytesFormat{Hex, Base64, Go, Python, JavaScript}

// FormatNames name the formats, by format, as the page says "Copied 12 bytes as Go". (A
// list, not a String method: a method is code in main.wasm, twice over with its pointer
// wrapper.)
// size: docs/performance.md, "Size tricks".
var FormatNames = [numBytesFormats]string{"hex", "base64", "Go", "Python", "JavaScript"}

// literal describes how AppendBytes writes a format: between open and close, each byte as
// prefix and two hex digits, bytes joined by sep. Literals of more than bytesPerLine bytes open
// with openLines and close with closeLines instead, and each line of bytesPerLine bytes starts
// with line and ends with lineEnd.
type literal struct {
	open, close           string
	openLines, closeLines string
	line, lineEnd         string
	prefix, sep           string
}

// bytesPerLine is how many bytes a line of a multi-line literal holds.
const bytesPerLine = 16

// literals describe the formats, all but Base64. Hex is one line, however long.
var literals = [numBytesFormats]literal{
	Go: {open: "[]byte{", close: "}", openLines: "[]byte{\n", closeLines: "}",
		line: "\t", lineEnd: ",\n", prefix: "0x", sep: ", "},
	// Adjacent bytes literals concatenate in Python; the parentheses make the lines one expression.
	Python: {open: "b'", close: "'", openLines: "(\n", closeLines: ")",
		line: "    b'", lineEnd: "'\n", prefix: `\x`},
	JavaScript: {open: "new Uint8Array([", close: "])", openLines: "new Uint8Array([\n", closeLines: "])",
		line: "  ", lineEnd: ",\n", prefix: "0x", sep: ", "},
}

// AppendBytes appends b written in format f. Hex and base64 are one line; the literals are one
// line up to 16 bytes, else one line per 16 bytes, indented as gofmt, Black or Prettier would.
func AppendBytes(dst []byte, f BytesFormat, b []byte) []byte {
	if f == Base64 {
		return AppendBase64(dst, b, false)
	}
	if f >= numBytesFormats {
		return dst
	}
	l := &literals[f]
	lines := f != Hex && len(b) > bytesPerLine
	open, close := l.open, l.close
	if lines {
		open, close = l.openLines, l.closeLines
	}
	dst = append(dst, open...)
	for i, c := range b {
		switch {
		case lines && i%bytesPerLine == 0:
			dst = append(dst, l.line...)
		case i > 0:
			dst = append(dst, l.sep...)
		}
		dst = append(dst, l.prefix...)
		dst = append(dst, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
		if lines && (i%bytesPerLine == bytesPerLine-1 || i == len(b)-1) {
			dst = append(dst, l.lineEnd...)
		}
	}
	return append(dst, close...)
}

// Base64 alphabets of RFC 4648: standard (§4) and URL-safe (§5).
const (
	base64Std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)

// AppendBase64 appends b in base64: the standard alphabet with padding, or (url) the URL-safe
// alphabet without. (Not encoding/base64: its encoder and decoder cost main.wasm 15 KB,
// docs/performance.md; input.DecodeBase64 reads it back.)
func AppendBase64(dst, b []byte, url bool) []byte {
	abc := base64Std
	if url {
		abc = base64URL
	}
	for len(b) >= 3 {
		v := uint(b[0])<<16 | uint(b[1])<<8 | uint(b[2])
		dst = append(dst, abc[v>>18], abc[v>>12&63], abc[v>>6&63], abc[v&63])
		b = b[3:]
	}
	switch len(b) {
	case 1:
		v := uint(b[0]) << 16
		dst = append(dst, abc[v>>18], abc[v>>12&63])
		if !url {
			dst = append(dst, '=', '=')
		}
	case 2:
		v := uint(b[0])<<16 | uint(b[1])<<8
		dst = append(dst, abc[v>>18], abc[v>>12&63], abc[v>>6&63])
		if !url {
			dst = append(dst, '=')
		}
	}
	return dst
}
