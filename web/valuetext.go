package web

import (
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
)

// How much of a value or a name the page writes: a tree row shows a line of it, the
// description panel a few screens, a tooltip a paragraph. A value may be megabytes long (a
// column, a message's content), and writing it whole for each drawing would stall the page, so
// these functions write at most what is shown.
const (
	MaxRowText         = 200  // a tree row's value
	MaxDescriptionText = 4096 // the description panel's value and heading
	MaxTitleText       = 1024 // a tooltip (the title attribute)
)

// formatWhole is the value length up to which a value is formatted whole and then cut: typed
// binary values (arrays, numerics) read only as a whole, and up to 64 KiB that costs well
// under a millisecond. Longer values are formatted from the bytes the cut text can show.
const formatWhole = 64 << 10

// ValueText returns node i's value as decoder.Tree.AppendValue writes it, cut to at most max
// bytes ending in "…" when longer. Only values up to formatWhole bytes are formatted whole;
// of a longer one it formats the first bytes: text as text, anything else (a binary column
// value included) as hex, since a typed value cannot be read from its first bytes.
func ValueText(t *decoder.Tree, i int, limit int) string {
	n := &t.Nodes[i]
	if !t.IsLeaf(i) || n.Length <= formatWhole {
		return Cut(t.Value(i), limit)
	}
	b := t.ValueBytes(i)
	if b == nil {
		return Cut(t.Value(i), limit)
	}
	head := b[:min(len(b), limit)]
	v := t.ValueOf(i)
	var out []byte
	switch {
	case v.Kind == decoder.ValueString,
		v.Kind == decoder.ValueColumn && v.ColumnKind != 'b',
		n.Field == decoder.FieldMessageContent && utf8.Valid(b):
		out = append(decoder.AppendText(append(make([]byte, 0, limit+8), '"'), head), '"')
	default:
		out = decoder.AppendHex(make([]byte, 0, 2*len(head)+2), head)
	}
	return cutBytes(out, limit)
}

// LabelText returns node i's label as decoder.Tree.Label writes it, cut to at most max bytes
// ending in "…" when longer. A column's label holds its name, which a Relation message may make
// as long as the message; a long name is cut before it is copied.
func LabelText(t *decoder.Tree, i int, limit int) string {
	n := &t.Nodes[i]
	var name []byte
	switch n.Field {
	case decoder.FieldTupleColumn:
		if c := t.Column(i); c != nil && len(c.Name) > limit {
			name = []byte(c.Name[:limit])
		}
	case decoder.FieldRelationColumn:
		for j := i + 1; j < int(n.End); j++ {
			if t.Nodes[j].Field == decoder.FieldRelationColumnName {
				if b := t.ValueBytes(j); len(b) > limit {
					name = b[:limit]
				}
				break
			}
		}
	}
	if name == nil {
		return Cut(t.Label(i), limit)
	}
	out := append([]byte("column "), strconv.Itoa(int(n.Index))...)
	out = append(out, " ("...)
	out = decoder.AppendText(out, name)
	return cutBytes(out, limit)
}

// Cut returns s cut to at most limit bytes at a character boundary, ending in "…" when cut.
func Cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	return cutString(s, limit)
}

// cutString cuts s, longer than limit, to at most limit bytes ending in "…".
func cutString(s string, limit int) string {
	end := max(limit-len("…"), 0)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}

// cutBytes is Cut for text being built from the start of a longer value: it always ends in
// "…".
func cutBytes(b []byte, limit int) string {
	if len(b)+len("…") <= limit {
		return string(b) + "…"
	}
	return cutString(string(b[:min(len(b), limit+1)]), limit)
}
