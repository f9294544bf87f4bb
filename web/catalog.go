package web

import (
	"pgoutput-inspector/decoder"
)

// Catalog is what the stream's Relation and Type messages described, in the order they came:
// an entry per message (a relation described again, the same or changed, has an entry per
// Relation message), with the messages that used each. The panel draws Rows, only those in
// view. A Catalog never changes once built.
type Catalog struct {
	Doc     *Doc
	Entries []CatalogEntry
	Rows    []CatalogRow
}

// CatalogEntry is one Relation or Type message and its users: for a relation, the changes
// and Truncates decoded with it (until the relation was described again); for a type, the
// Relation messages with a column of it.
type CatalogEntry struct {
	Described
	// Used counts the messages that used it; First holds the first of them (at most
	// catalogFirst).
	Used  int
	First []int
	// Again is the message that described the same relation or type OID again (a later
	// entry's), or -1: the users after it are counted there.
	Again int
	last  int // the last user counted, plus one
}

// CatalogRow is one row of the panel: an entry's heading (Column RowHeading), one of a
// relation's columns, or the messages that used the entry (Column RowUsers).
type CatalogRow struct {
	Entry, Column int32
}

// Catalog row kinds other than a column.
const (
	RowHeading = -1
	RowUsers   = -2
)

// catalogFirst is how many of an entry's users the panel names.
const catalogFirst = 8

// CatalogOf returns what d's Relation and Type messages described.
func CatalogOf(d *Doc) *Catalog {
	c := &Catalog{Doc: d}
	if d == nil {
		return c
	}
	use := func(e, m int) {
		en := &c.Entries[e]
		if en.last != m+1 {
			en.Used, en.last = en.Used+1, m+1
			if len(en.First) < catalogFirst {
				en.First = append(en.First, m)
			}
		}
	}
	// The entry of a relation as the session knew it (a Relation message repeated unchanged
	// gives the same *Relation), and the last entry of each relation and type OID, as the
	// stream goes on.
	byRel := map[*decoder.Relation]int{}
	byType := map[uint32]int{}
	relOID := map[uint32]int{} // the last entry of each relation OID
	k := 0
	// m -1: the relations and types the parts before the input defined, first.
	for m := -1; m < len(d.Trees); m++ {
		for ; k < len(d.Described) && d.Described[k].Msg == m; k++ {
			e := len(c.Entries)
			c.Entries = append(c.Entries, CatalogEntry{Described: d.Described[k], Again: -1})
			last, oid := byType, uint32(0)
			if rel := d.Described[k].Relation; rel != nil {
				last, oid = relOID, rel.OID
				byRel[rel] = e
				for _, col := range rel.Columns {
					if te, ok := byType[col.TypeOID]; ok && m >= 0 {
						use(te, m)
					}
				}
			} else {
				oid = d.Described[k].Type.OID
			}
			if old, ok := last[oid]; ok {
				c.Entries[old].Again = m
			}
			last[oid] = e
		}
		if m < 0 {
			continue
		}
		t := d.Trees[m]
		if t.Relation != nil {
			if e, ok := byRel[t.Relation]; ok {
				use(e, m)
			}
		}
		if mt := t.MessageType(); mt != nil && mt.Group == decoder.FieldTruncate {
			for i := range t.Nodes {
				if r := t.RelationOf(i); r != nil && t.Nodes[i].Field == decoder.FieldTruncateRelationOID {
					if e, ok := byRel[r]; ok {
						use(e, m)
					}
				}
			}
		}
	}
	for e := range c.Entries {
		c.Rows = append(c.Rows, CatalogRow{int32(e), RowHeading})
		if rel := c.Entries[e].Relation; rel != nil {
			for col := range rel.Columns {
				c.Rows = append(c.Rows, CatalogRow{int32(e), int32(col)})
			}
		}
		c.Rows = append(c.Rows, CatalogRow{int32(e), RowUsers})
	}
	return c
}

// syncCatalog brings Catalog up to date with Doc while the panel is shown.
func (s *State) syncCatalog() {
	if s.ShowCatalog && (s.Catalog == nil || s.Catalog.Doc != s.Doc) {
		s.Catalog = CatalogOf(s.Doc)
	}
}
