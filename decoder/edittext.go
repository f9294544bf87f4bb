package decoder

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"pgoutput-inspector/decoder/pgvalue"
)

// EditHow says how a node's value is written as text to be edited: what Tree.AppendEditText
// writes and Draft.SetText reads back.
type EditHow uint8

// Ways of editing a value.
const (
	// EditNone: not a value to edit: a group, a type byte, or a length or count that the
	// encoder computes (in a message that decoded without error).
	EditNone EditHow = iota
	// EditNumber: a decimal integer; signed for a type modifier.
	EditNumber
	// EditLSN: an LSN as PostgreSQL prints it, "16/B374D848".
	EditLSN
	// EditTime: RFC 3339, "2024-05-06T07:08:09.123456Z" (any offset is read; microseconds at
	// most), "infinity", "-infinity", or a whole number of microseconds since 2000-01-01 UTC.
	EditTime
	// EditMarker: one character, "K", or 0x and two hex digits for a byte that is no
	// printable character. The field's Codes list the values the protocol knows.
	EditMarker
	// EditText: the text itself; bytes that are not UTF-8 text (or that read as the hex form)
	// as \x and an even number of hex digits, as bytea's hex output.
	EditText
	// EditHex: \x and hex digits (the \x and blanks between digits are optional): a binary
	// column value in its type's send format, undecoded or trailing bytes.
	EditHex
)

// EditHow says how node i of the draft's tree is edited as text, or EditNone.
func (d *Draft) EditHow(i int) EditHow { return editHow(&d.tree, i) }

// AppendEditText appends node i's value as text to be edited (see EditHow): SetText reads it
// back to the same bytes. It appends nothing for EditNone.
func (d *Draft) AppendEditText(dst []byte, i int) []byte { return appendEditText(dst, &d.tree, i) }

// EditText returns node i's value as AppendEditText writes it.
func (d *Draft) EditText(i int) string { return string(appendEditText(nil, &d.tree, i)) }

func editHow(t *Tree, i int) EditHow {
	n := &t.Nodes[i]
	info := n.Field.Info()
	if n.Format == FormatGroup || info.Kind == KindType || info.Kind == KindLength && t.Err == nil {
		return EditNone
	}
	switch valueKind(n.Field) {
	case ValueLSN:
		return EditLSN
	case ValueTime:
		return EditTime
	case ValueChar:
		return EditMarker
	case ValueUint, ValueInt, ValueFlags:
		return EditNumber
	case ValueString:
		return EditText
	case ValueBytes:
		if n.Field == FieldMessageContent {
			return EditText
		}
		return EditHex
	case ValueColumn:
		if t.ValueOf(i).ColumnKind == columnBinary {
			return EditHex
		}
		return EditText
	}
	return EditNone
}

func appendEditText(dst []byte, t *Tree, i int) []byte {
	v := t.ValueOf(i)
	switch editHow(t, i) {
	case EditNumber:
		if v.Kind == ValueInt {
			return strconv.AppendInt(dst, int64(v.Num), 10)
		}
		return strconv.AppendUint(dst, v.Num, 10)
	case EditLSN:
		return pgvalue.AppendLSN(dst, v.Num)
	case EditTime:
		return pgvalue.AppendRFC3339(dst, int64(v.Num))
	case EditMarker:
		if c := byte(v.Num); c > ' ' && c < 0x7f {
			return append(dst, c)
		}
		return append(dst, '0', 'x', pgvalue.HexDigits[v.Num>>4&15], pgvalue.HexDigits[v.Num&15])
	case EditText:
		if b := t.ValueBytes(i); utf8.Valid(b) && !hexForm(string(b)) {
			return append(dst, b...)
		}
		fallthrough
	case EditHex:
		return pgvalue.AppendHex(dst, t.ValueBytes(i))
	}
	return dst
}

// hexForm reports whether s is \x and an even number of hex digits: bytes written in hex.
func hexForm(s string) bool {
	_, ok := parseHex(s, false)
	return ok
}

// parseHex reads \x and an even number of hex digits; loose: the \x is optional, and blanks
// between the digits are skipped.
func parseHex(s string, loose bool) ([]byte, bool) {
	rest, ok := strings.CutPrefix(s, `\x`)
	if !ok && !loose {
		return nil, false
	}
	if loose {
		rest = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, rest)
	}
	return decodeHex(rest)
}

// decodeHex reads pairs of hex digits, either case. It is strconv's, not encoding/hex's: that
// package imports fmt, which alone would add 440 KB to the page's WASM (docs/performance.md).
func decodeHex(s string) ([]byte, bool) {
	if len(s)%2 != 0 {
		return nil, false
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		// Base 16 admits no sign, prefix or underscore: two hex digits only.
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, false
		}
		b[i] = byte(v)
	}
	return b, true
}

// SetText sets node i's value from text written as EditHow says (what AppendEditText writes),
// with SetNum, SetMarker or SetBytes.
func (d *Draft) SetText(i int, s string) error {
	if err := d.leaf(i); err != nil {
		return err
	}
	t := &d.tree
	f := t.Nodes[i].Field
	info := f.Info()
	switch editHow(t, i) {
	case EditNone:
		if err := d.settable(i); err != nil {
			return err
		}
		return d.refuse(i, "cannot be edited")
	case EditNumber:
		word := strings.TrimSpace(s)
		if valueKind(f) == ValueInt {
			v, err := strconv.ParseInt(word, 10, 32)
			if err != nil {
				return d.refuse(i, "expected a whole number from -2147483648 to 2147483647, found "+quote(s))
			}
			return d.SetNum(i, uint64(v))
		}
		bits := 8 * info.Format.Size()
		v, err := strconv.ParseUint(word, 10, bits)
		if err != nil {
			return d.refuse(i, "expected a whole number from 0 to "+strconv.FormatUint(1<<bits-1, 10)+", found "+quote(s))
		}
		return d.SetNum(i, v)
	case EditLSN:
		v, ok := pgvalue.ParseLSN(strings.TrimSpace(s))
		if !ok {
			return d.refuse(i, "expected an LSN such as 16/B374D848, found "+quote(s))
		}
		return d.SetNum(i, v)
	case EditTime:
		word := strings.TrimSpace(s)
		us, ok := pgvalue.ParseRFC3339(word)
		if !ok {
			v, err := strconv.ParseInt(word, 10, 64)
			if err != nil {
				return d.refuse(i, "expected a timestamp such as 2024-05-06T07:08:09.123456Z, infinity, or microseconds since 2000-01-01, found "+quote(s))
			}
			us = v
		}
		return d.SetNum(i, uint64(us))
	case EditMarker:
		switch {
		case len(s) == 1:
			return d.SetMarker(i, s[0])
		case len(s) == 4 && (s[:2] == "0x" || s[:2] == "0X"):
			if b, ok := decodeHex(s[2:]); ok {
				return d.SetMarker(i, b[0])
			}
		}
		want := "one character"
		for k, c := range info.Codes {
			if k == 0 {
				want += ": "
			} else {
				want += ", "
			}
			want += string(rune(c.Code)) + " (" + c.Name + ")"
		}
		return d.refuse(i, "expected "+want+", found "+quote(s))
	case EditText:
		if b, ok := parseHex(s, false); ok {
			return d.SetBytes(i, b)
		}
		return d.SetBytes(i, []byte(s))
	case EditHex:
		b, ok := parseHex(s, true)
		if !ok {
			return d.refuse(i, `expected bytes in hex, \x0a1b, found `+quote(s))
		}
		return d.SetBytes(i, b)
	}
	return d.refuse(i, "cannot be edited")
}

// quote returns s quoted and escaped for an error message, cut after 40 bytes. (Not inlined:
// a copy in each of SetText's messages would add to the page's WASM.)
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func quote(s string) string {
	b, cut := pgvalue.AppendQuotedLimit(nil, []byte(s), 40)
	if cut {
		b = append(b, "…"...)
	}
	return string(b)
}
