package decoder

import (
	"errors"
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// Sentinel kinds of decoding errors, for errors.Is.
var (
	// ErrTruncated: a field needs more bytes than remain.
	ErrTruncated = errors.New("truncated")
	// ErrUnterminated: a String has no NUL terminator before the end of the message.
	ErrUnterminated = errors.New("unterminated string")
	// ErrInvalid: a field holds a value the protocol does not allow here (a wrong marker, a negative length).
	ErrInvalid = errors.New("invalid value")
	// ErrUnknownType: the first byte is no known message type.
	ErrUnknownType = errors.New("unknown message type")
	// ErrTrailing: bytes remain after a complete message.
	ErrTrailing = errors.New("trailing bytes")
)

// Error is a decoding error pinned to a byte offset and a field.
type Error struct {
	// Kind is one of the sentinel errors above.
	Kind error
	// Offset is where the failing field starts, relative to the first byte of Tree.Bytes.
	Offset int
	// Path names the enclosing layers, outermost first: "Update: New tuple: column 3 (note)".
	Path string
	// Field is the field being read.
	Field FieldID
	// Need and Left are the bytes the field needs and the bytes that remained: for
	// ErrTruncated, Need is more than Left; for ErrUnterminated it is at least Left+1 (the
	// string's bytes and a zero byte); for the other kinds 0.
	Need, Left int
	// Detail says what was expected and what was there, for the other kinds.
	Detail string
}

// Error returns a sentence such as
// "Update: New tuple: column 3 (note): Length: need 4 bytes at offset 41, 2 remain".
func (e *Error) Error() string {
	var b []byte
	if e.Path != "" {
		b = append(b, e.Path...)
		b = append(b, ": "...)
	}
	b = append(b, e.Field.Info().Name...)
	b = append(b, ": "...)
	switch e.Kind {
	case ErrTruncated:
		b = append(b, "need "...)
		b = strconv.AppendInt(b, int64(e.Need), 10)
		b = append(b, pgvalue.Plural(e.Need, " byte", " bytes")...)
		b = append(b, " at offset "...)
		b = strconv.AppendInt(b, int64(e.Offset), 10)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(e.Left), 10)
		b = append(b, pgvalue.Plural(e.Left, " remains", " remain")...)
	default:
		b = append(b, e.Detail...)
		b = append(b, " (at offset "...)
		b = strconv.AppendInt(b, int64(e.Offset), 10)
		b = append(b, ')')
	}
	return string(b)
}

// Unwrap returns the error's kind, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Kind }

// appendChar appends a byte as a quoted character when printable, with its hex code: 'N' (0x4e).
// It is kept out of line, like appendInt.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func appendChar(b []byte, c byte) []byte {
	if c >= 0x20 && c < 0x7f {
		b = append(b, '\'', c, '\'', ' ', '(')
	} else {
		b = append(b, '(')
	}
	b = append(b, "0x"...)
	b = append(b, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15], ')')
	return b
}

// detail says what was expected and what was there, without formatting it: the text is made
// only for the reading a decode keeps, so trying a reading that fails allocates nothing.
type detail struct {
	text string // a constant sentence start, "expected 'N' (new tuple), found "
	form uint8
	ch   byte // for detailChar
	num  int  // for detailNum, detailBytes, detailTrailing, detailCopyLength
	num2 int  // for detailCopyLength
}

// Detail forms.
const (
	detailNone       = iota
	detailChar       // text + the byte found, 'X' (0x58)
	detailNum        // text + a number found
	detailBytes      // no NUL terminator in the N bytes to the end of the message
	detailTrailing   // N bytes after the end of the message
	detailCopyLength // the length says N bytes of contents follow, M remain
)

func (d *detail) String() string {
	var b []byte
	switch d.form {
	case detailNone:
		return d.text
	case detailChar:
		b = appendChar(append(b, d.text...), d.ch)
	case detailNum:
		b = appendInt(append(b, d.text...), d.num)
	case detailBytes:
		b = append(b, "no NUL terminator in the "...)
		b = appendInt(b, d.num)
		b = append(b, pgvalue.Plural(d.num, " byte", " bytes")...)
		b = append(b, " to the end of the message"...)
	case detailTrailing:
		b = appendInt(b, d.num)
		b = append(b, pgvalue.Plural(d.num, " byte", " bytes")...)
		b = append(b, " after the end of the message"...)
	case detailCopyLength:
		b = append(b, "the length says "...)
		b = appendInt(b, d.num)
		b = append(b, " bytes of contents follow, "...)
		b = appendInt(b, d.num2)
		b = append(b, " remain"...)
	}
	return string(b)
}
