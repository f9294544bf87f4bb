package decoder

import (
	"strconv"

	"pgoutput-inspector/decoder/pgvalue"
)

// Explain mode: a sentence per node saying what its bytes mean in this message, from the field
// table's template (FieldInfo.Explain) filled with the decoded values and what the session knew
// when the message was decoded. The page's explain mode and `decode --explain` print the same
// sentences. They say only what the bytes and that context establish: where the cause of a
// value cannot be known (why an Update carries its old key), the sentence says what the value
// means and what usually causes it.
//
// Template placeholders:
//
//	{N}       "This byte is" / "These 4 bytes are" / "These 0 bytes are" (the node's bytes)
//	{v}       the value as displayed (cut at 120 bytes)
//	{char}    a marker or type byte as a quoted character: 'K'
//	{code}    the meaning of the value in the field's codes (a marker's, a flags value's)
//	{msg}     the name of the message the node belongs to
//	{rel}     the relation of a relation OID: "relation public.accounts (OID 16394)"
//	{relfrom} where that relation's columns came from, or that no Relation message came
//	{col}     a TupleData column: "column 3 (balance, numeric)"
//	{typ}     the name of the type OID in the node, and where the name comes from

// explainValueLimit caps a value quoted in a sentence.
const explainValueLimit = 120

// Explain returns the sentence that explains node i.
func (t *Tree) Explain(i int) string { return string(t.AppendExplain(nil, i)) }

// AppendExplain appends the sentence that explains node i.
func (t *Tree) AppendExplain(dst []byte, i int) []byte {
	if i < 0 || i >= len(t.Nodes) {
		return dst
	}
	n := &t.Nodes[i]
	info := n.Field.Info()
	tmpl := info.Explain
	if tmpl == "" {
		if n.Format == FormatGroup {
			tmpl = "{N} the {name}. {meaning}"
		} else {
			tmpl = "{N} the {name} of this {msg}: {v}. {meaning}"
		}
	}
	dst = t.fillExplain(dst, i, tmpl)
	return t.appendVersionNote(dst, i)
}

// fillExplain appends tmpl with its placeholders filled for node i.
func (t *Tree) fillExplain(dst []byte, i int, tmpl string) []byte {
	n := &t.Nodes[i]
	info := n.Field.Info()
	for len(tmpl) > 0 {
		open := indexByte(tmpl, '{')
		if open < 0 {
			return append(dst, tmpl...)
		}
		dst = append(dst, tmpl[:open]...)
		end := indexByte(tmpl[open:], '}')
		if end < 0 {
			return append(dst, tmpl[open:]...)
		}
		name := tmpl[open+1 : open+end]
		tmpl = tmpl[open+end+1:]
		switch name {
		case "N":
			if n.Length == 1 {
				dst = append(dst, "This byte is"...)
			} else {
				dst = append(dst, "These "...)
				dst = appendInt(dst, n.Length)
				dst = append(dst, " bytes are"...)
			}
		case "v":
			var cut bool
			dst, cut, _ = t.AppendValueLimit(dst, i, explainValueLimit)
			if cut {
				dst = append(dst, "…"...)
			}
		case "char":
			c := byte(t.ValueOf(i).Num)
			if c >= 0x20 && c < 0x7f {
				dst = append(dst, '\'', c, '\'')
			} else {
				dst = append(dst, "0x"...)
				dst = append(dst, pgvalue.HexDigits[c>>4], pgvalue.HexDigits[c&15])
			}
		case "code":
			dst = appendCodeMeaning(dst, info, t.ValueOf(i))
		case "name":
			dst = append(dst, info.Name...)
		case "meaning":
			dst = append(dst, info.Meaning...)
		case "msg":
			dst = t.appendMessageName(dst)
		case "rel":
			dst = t.appendRelation(dst, i)
		case "relfrom":
			dst = t.appendRelationSource(dst, i)
		case "col":
			dst = t.appendColumn(dst, i)
		case "typ":
			dst = t.appendTypeSource(dst, i)
		case "relname":
			dst = t.appendRelationName(dst)
		case "relcol":
			dst = t.appendNodeLabel(dst, i)
		case "format":
			if t.ValueOf(i).ColumnKind == columnBinary {
				dst = append(dst, "binary"...)
			} else {
				dst = append(dst, "text"...)
			}
		case "nfollow":
			v := int(t.ValueOf(i).Num)
			dst = appendInt(dst, v)
			dst = append(dst, pgvalue.Plural(v, " byte follows", " bytes follow")...)
		case "paylen":
			dst = appendInt(dst, max(int(t.ValueOf(i).Num)-4, 0))
		default:
			dst = t.appendCondition(dst, i, name)
		}
	}
	return dst
}

// appendCondition appends the clauses whose wording depends on the value.
func (t *Tree) appendCondition(dst []byte, i int, name string) []byte {
	v := t.ValueOf(i).Num
	switch name {
	case "lsnzero":
		if v == 0 {
			return append(dst, "0 means the message was written ahead of another (a Type, a Relation, or a Begin followed by an Origin), so the walsender gave it no position of its own."...)
		}
		return append(dst, "the position of the WAL record this message was decoded from."...)
	case "xminzero", "originzero":
		if v == 0 && name == "xminzero" {
			return append(dst, " (0 with a catalog xmin of 0 says feedback stops)"...)
		}
		if v == 0 {
			return append(dst, " (0: not known yet, as in an Origin sent after a Stream Start)"...)
		}
	case "typmodnone":
		if int32(v) == -1 {
			return append(dst, ": the column's type has no modifier"...)
		}
	case "subxid":
		if j := t.Find(t.Message, FieldStreamAbortXid); j >= 0 && t.ValueOf(j).Num == v {
			return append(dst, ": the same as the Xid, so the whole transaction aborted"...)
		}
		return append(dst, ": a subtransaction of it (ROLLBACK TO SAVEPOINT), so only the changes of that subtransaction are to be discarded"...)
	case "colcount":
		if t.Relation != nil {
			if int(v) == len(t.Relation.Columns) {
				return append(dst, ", as many as its Relation message lists"...)
			}
			dst = append(dst, ", but its Relation message lists "...)
			return appendInt(dst, len(t.Relation.Columns))
		}
	default:
		dst = append(append(append(dst, '{'), name...), '}')
	}
	return dst
}

// appendRelationName names the relation of a change (from its Relation message) or of a
// Relation message itself.
func (t *Tree) appendRelationName(dst []byte) []byte {
	if t.Relation != nil {
		return appendQualifiedName(dst, t.Relation)
	}
	if t.MissingRelation != 0 {
		return appendInt(append(dst, "relation OID "...), int(t.MissingRelation))
	}
	ns, name := t.Find(t.Message, FieldRelationNamespace), t.Find(t.Message, FieldRelationName)
	if ns >= 0 && name >= 0 {
		if len(t.ValueBytes(ns)) == 0 {
			dst = append(dst, "pg_catalog"...)
		} else {
			dst = pgvalue.AppendText(dst, t.ValueBytes(ns))
		}
		return pgvalue.AppendText(append(dst, '.'), t.ValueBytes(name))
	}
	return append(dst, "the relation"...)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// appendCodeMeaning appends what value v means in the field's codes: a marker's meaning, or
// the meanings of a flags value's bits.
func appendCodeMeaning(dst []byte, info *FieldInfo, v Value) []byte {
	for _, c := range info.Codes {
		if c.Code == v.Num {
			return append(dst, c.Meaning...)
		}
	}
	if v.Kind == ValueFlags && v.Num != 0 {
		sep := ""
		for _, c := range info.Codes {
			if c.Code != 0 && v.Num&c.Code == c.Code {
				dst = append(append(dst, sep...), c.Meaning...)
				sep = "; "
			}
		}
		if sep != "" {
			return dst
		}
	}
	return append(dst, "a value the protocol does not define"...)
}

// appendMessageName appends the name of the message (or envelope) the tree holds.
func (t *Tree) appendMessageName(dst []byte) []byte {
	if t.msg != nil {
		return append(dst, t.msg.Name()...)
	}
	if len(t.Nodes) > 0 {
		return append(dst, t.Nodes[0].Field.Info().Name...)
	}
	return dst
}

// appendRelation names the relation behind a relation OID node.
func (t *Tree) appendRelation(dst []byte, i int) []byte {
	oid := t.ValueOf(i).Num
	if r := t.RelationOf(i); r != nil {
		dst = appendQualifiedName(append(dst, "relation "...), r)
		dst = append(dst, " ("...)
		return append(strconv.AppendUint(dst, oid, 10), ')')
	}
	return strconv.AppendUint(append(dst, "relation OID "...), oid, 10)
}

// appendRelationSource says where the columns of a change's relation came from.
func (t *Tree) appendRelationSource(dst []byte, i int) []byte {
	r := t.RelationOf(i)
	switch {
	case r == nil:
		return append(dst, "; no Relation message for it came earlier in this input, so its columns are known by position only and their types are not known"...)
	case t.Nodes[i].Field == FieldTruncateRelationOID:
		return append(dst, "; its Relation message came earlier"...)
	case t.RelationIndex >= 0:
		dst = append(dst, "; its columns came in the Relation message at index "...)
		return appendInt(dst, t.RelationIndex)
	}
	return append(dst, "; its columns came in a Relation message before this input"...)
}

// appendColumn names the TupleData column behind node i: its number, and its name and type
// when the Relation is known.
func (t *Tree) appendColumn(dst []byte, i int) []byte {
	for j := i; j >= 0; j = t.Parent(j) {
		n := &t.Nodes[j]
		if n.Field != FieldTupleColumn {
			continue
		}
		dst = appendInt(append(dst, "column "...), int(n.Index))
		if c := t.Column(j); c != nil {
			dst = pgvalue.AppendSafe(append(dst, " ("...), c.Name)
			if c.TypeName != "" {
				dst = pgvalue.AppendSafe(append(dst, ", "...), c.TypeName)
			}
			dst = append(dst, ')')
		}
		return dst
	}
	return append(dst, "this column"...)
}

// appendTypeSource names the type OID of a Relation column and says where the name comes from.
func (t *Tree) appendTypeSource(dst []byte, i int) []byte {
	oid := uint32(t.ValueOf(i).Num)
	name := t.TypeNameOf(i)
	switch {
	case pgvalue.TypeName(oid) != "":
		return append(dst, "a built-in type"...)
	case name != "":
		return append(dst, "not a built-in type; the name comes from the Type message sent before this Relation (for a domain, the server names its base type)"...)
	}
	return append(dst, "not a built-in type, and no Type message for it came earlier in this input"...)
}

// appendVersionNote says when the node's field or message does not exist at the protocol
// version in force.
func (t *Tree) appendVersionNote(dst []byte, i int) []byte {
	if !t.Reading.ProtoSet || t.Reading.Proto == 0 {
		return dst
	}
	info := t.Nodes[i].Field.Info()
	if int(info.Proto) <= t.Reading.Proto {
		return dst
	}
	dst = append(dst, " It exists from protocol version "...)
	dst = appendInt(dst, int(info.Proto))
	dst = append(dst, " (PostgreSQL "...)
	dst = appendInt(dst, int(info.Since))
	dst = append(dst, "); the protocol version is set to "...)
	dst = appendInt(dst, t.Reading.Proto)
	return append(dst, '.')
}
