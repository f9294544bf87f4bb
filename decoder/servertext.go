package decoder

import "pgoutput-inspector/decoder/pgvalue"

// AppendServerText appends column value i as the server's text output writes it, escaped as
// pgvalue.AppendText escapes it: a text-format value's bytes, a binary-format value decoded as
// AppendValue decodes it, so that the same value sent in either format appends the same text.
// ok is false, and dst is returned unchanged, for a binary value of a type with no codec here or
// whose bytes do not fit its type, and for nodes that are not column values.
func (t *Tree) AppendServerText(dst []byte, i int) (out []byte, ok bool) {
	v := t.ValueOf(i)
	if v.Kind != ValueColumn {
		return dst, false
	}
	b := t.ValueBytes(i)
	switch v.ColumnKind {
	case columnText:
		return pgvalue.AppendText(dst, b), true
	case columnBinary:
		out, _, err := pgvalue.AppendBinaryLimit(dst, t.codecType(i, v), b, -1)
		return out, err == nil
	}
	return dst, false
}
