package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"reflect"
	"testing"
)

// TestCatalog: the Type example's three Type messages and its Relation message, each with the
// messages that used it, and a row per heading, column and list of users.
func TestCatalog(t *testing.T) {
	s := exampleState(t, "Type")
	if s.Catalog != nil {
		t.Fatal("a catalog made while its panel is not shown")
	}
	s = apply(t, s, ShowCatalog{On: true})
	c := s.Catalog
	if c == nil || c.Doc != s.Doc {
		t.Fatal("no catalog of the Doc shown")
	}
	type entry struct {
		Msg, Used int
		First     []int
		Name      string
	}
	var got []entry
	for _, e := range c.Entries {
		name := ""
		if e.Relation != nil {
			name = e.Relation.QualifiedName()
		} else {
			name = e.Type.Namespace + "." + e.Type.Name
		}
		got = append(got, entry{e.Msg, e.Used, e.First, name})
	}
	// The Relation message (4) uses the three types; the Inserts 5-10 use the relation.
	want := []entry{{1, 1, []int{4}, "public.mood"}, {2, 1, []int{4}, "public._mood"}, {3, 1, []int{4}, ".int4"},
		{4, 6, []int{5, 6, 7, 8, 9, 10}, "public.types"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries %+v, want %+v", got, want)
	}
	rel := c.Entries[3].Relation
	if len(c.Rows) != 3*2+1+len(rel.Columns)+1 || c.Rows[6] != (CatalogRow{3, RowHeading}) || c.Rows[7] != (CatalogRow{3, 0}) ||
		c.Rows[len(c.Rows)-1] != (CatalogRow{3, RowUsers}) {
		t.Errorf("%d rows for %d columns: %v", len(c.Rows), len(rel.Columns), c.Rows[:8])
	}
	// Another input: the catalog follows; the before and after takes the panel's place.
	s = apply(t, s, LoadExample{Index: exampleByName("Truncate")})
	if s.Catalog == nil || s.Catalog.Doc != s.Doc || len(s.Catalog.Entries) != 2 || s.Catalog.Entries[0].First[0] != 3 || s.Catalog.Entries[1].First[0] != 3 {
		t.Errorf("after another example: %+v", s.Catalog)
	}
	s = apply(t, s, ShowChange{On: true})
	if s.ShowCatalog || s.Catalog != nil {
		t.Error("the before and after shown with the catalog")
	}
	// The relations shown over the before and after: it comes back when they go.
	s = apply(t, s, ShowCatalog{On: true})
	if !s.ShowCatalog || !s.ShowChange {
		t.Errorf("relations over the before and after: relations %v, before and after kept %v", s.ShowCatalog, s.ShowChange)
	}
	s = apply(t, s, ShowCatalog{On: false})
	if s.ShowCatalog || s.Catalog != nil || !s.ShowChange {
		t.Errorf("relations gone: relations %v, before and after back %v", s.ShowCatalog, s.ShowChange)
	}
	for _, e := range c.Entries {
		if e.Again != -1 {
			t.Errorf("message %d described again by %d in the Type example", e.Msg, e.Again)
		}
	}
}

// TestCatalogRepeated: a relation described again has an entry per Relation message, the
// changes counted under the one they were decoded with, each naming the message that
// described its relation (type) again; a long input decoded a chunk at a
// time gives the same catalog as at once.
func TestCatalogRepeated(t *testing.T) {
	raw, err := os.ReadFile("../testdata/corpus/pg16-text-immediate.capture.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	s := apply(t, NewState(-1), SetText{Text: text}, ShowCatalog{On: true})
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
		if s.Catalog.Doc != s.Doc {
			t.Fatal("the catalog does not follow the decode")
		}
	}
	c := s.Catalog
	if len(c.Entries) < 2 {
		t.Fatalf("%d entries", len(c.Entries))
	}
	used := 0
	for _, e := range c.Entries {
		used += e.Used
	}
	changes := 0
	for _, tr := range s.Doc.Trees {
		if tr.Relation != nil {
			changes++
		}
	}
	if used < changes {
		t.Errorf("%d uses counted, %d changes with a relation", used, changes)
	}
	oids := map[uint32]int{}
	for _, e := range c.Entries {
		if e.Relation != nil {
			oids[e.Relation.OID]++
		}
	}
	// Each entry names the next Relation (Type) message of its OID, if any.
	again := 0
	for i, e := range c.Entries {
		next := -1
		for _, f := range c.Entries[i+1:] {
			if (e.Relation != nil) == (f.Relation != nil) && (e.Relation != nil && f.Relation.OID == e.Relation.OID ||
				e.Type != nil && f.Type.OID == e.Type.OID) {
				next = f.Msg
				break
			}
		}
		if e.Again != next {
			t.Errorf("entry %d (message %d): described again by %d, want %d", i, e.Msg, e.Again, next)
		}
		if next >= 0 {
			again++
		}
	}
	if again == 0 {
		t.Error("no relation or type described again")
	}
	t.Logf("%d messages, %d entries (%d described again), %d relations, %d changes", len(s.Doc.Trees), len(c.Entries), again, len(oids), changes)
}
