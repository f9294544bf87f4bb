package web

import (
	"strconv"
	"unicode/utf8"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/decoder/pgvalue"
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

// ValueText returns node i's value as decoder.Tree.AppendValue writes it, cut to at most limit
// bytes ending in "…" when longer; the decoder formats only what is shown
// (Tree.AppendValueLimit).
func ValueText(t *decoder.Tree, i int, limit int) string {
	out, cut, _ := t.AppendValueLimit(make([]byte, 0, limit), i, max(limit-len("…"), 0))
	if cut {
		return string(out) + "…"
	}
	return string(out)
}

// NodeText is the text after a node's label in the tree, cut to at most limit bytes: the value
// of a field, the size of a group (and the relation's name for a change, a column's type).
func NodeText(t *decoder.Tree, i int, limit int) string {
	n := &t.Nodes[i]
	if t.IsLeaf(i) {
		return ValueText(t, i, limit)
	}
	s := strconv.Itoa(n.Length) + " bytes"
	if n.Length == 1 {
		s = "1 byte"
	}
	switch {
	case i == t.Message && t.Relation != nil:
		s = pgvalue.SafeText(Cut(t.Relation.QualifiedName(), limit)) + ", " + s
	case n.Field == decoder.FieldTupleColumn:
		// The column's type, from the Relation message that named it.
		if c := t.Column(i); c != nil && c.TypeName != "" {
			s = pgvalue.SafeText(Cut(c.TypeName, limit)) + ", " + s
		}
	}
	return Cut(s, limit)
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
	out, _ = pgvalue.AppendTextLimit(out, name, max(limit-len(out)-len("…"), 0))
	return string(out) + "…"
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
