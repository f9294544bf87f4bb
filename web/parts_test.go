package web

import (
	"fmt"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// TestBeforeInParts: a part of a big file that the page decodes going on from the parts
// before (Carry.AppendBefore, as the export worker hands it; ReadBefore, as the page reads
// it) names every change's relation and columns, and every message's transaction, as the
// decode of the whole file does (NewPartDoc going on from the parts before, which
// TestFilterCountInParts holds to the whole file), on real captures and a pg_recvlogical
// file cut into small parts; decoded alone, some parts do not.
func TestBeforeInParts(t *testing.T) {
	helped := 0 // parts that name a relation only with what came before
	for _, path := range partFiles() {
		_, parts := partsOf(t, path)
		for k, pt := range parts {
			text, want := pt.text, pt.whole
			st := State{Text: text, Before: ReadBefore(pt.before, text)}
			got, _ := st.newDoc(-1)
			alone, _ := NewDoc(text, input.Auto, decoder.Options{}, -1)
			if want == nil || got == nil || alone == nil {
				t.Fatalf("%s part %d does not decode", path, k+1)
			}
			if len(got.Trees) != len(want.Trees) {
				t.Fatalf("%s part %d: %d messages, not %d", path, k+1, len(got.Trees), len(want.Trees))
			}
			differs := false
			for i := range want.Trees {
				w, g := seen(want, i), seen(got, i)
				if g != w {
					t.Errorf("%s part %d message %d: %s, not %s", path, k+1, i, g, w)
				}
				differs = differs || seen(alone, i) != w
			}
			if differs {
				helped++
			}
			checkLearntCatalog(t, fmt.Sprintf("%s part %d", path, k+1), got, pt.relations, pt.types)
		}
	}
	if helped == 0 {
		t.Error("every part decodes alone as it does going on from the parts before")
	}
}

// checkLearntCatalog checks that the Relations panel of d, a part decoded going on from the
// parts before, lists first the relations and types those defined (as many as the before
// held), and counts as users of each the messages of d that name it.
func checkLearntCatalog(t *testing.T, what string, d *Doc, relations, types int) {
	t.Helper()
	c := CatalogOf(d)
	learnt := map[*decoder.Relation]int{} // its entry
	rels, typs := 0, 0
	for e, en := range c.Entries {
		switch {
		case en.Msg >= 0:
		case e != rels+typs:
			t.Errorf("%s: entry %d of the parts before after one of the part's", what, e)
		case en.Relation != nil:
			learnt[en.Relation] = e
			rels++
		default:
			typs++
		}
	}
	if rels != relations || typs != types {
		t.Errorf("%s: the catalog lists %d relations and %d types of the parts before, not %d and %d", what, rels, typs, relations, types)
	}
	uses := map[int]int{}
	for i, tr := range d.Trees {
		if tr.Relation == nil || tr.RelationIndex != -1 {
			continue
		}
		e, ok := learnt[tr.Relation]
		if !ok {
			t.Errorf("%s: message %d's relation %s is not among the catalog's of the parts before", what, i+1, tr.Relation.QualifiedName())
			continue
		}
		uses[e]++
	}
	for e, n := range uses {
		if c.Entries[e].Used < n {
			t.Errorf("%s: the catalog counts %d users of %s, not at least %d", what, c.Entries[e].Used, c.Entries[e].Relation.QualifiedName(), n)
		}
	}
}

// seen is what a message of d says of its relation, its columns and its transaction.
func seen(d *Doc, i int) string {
	tr, sm := d.Trees[i], &d.Summaries[i]
	s := fmt.Sprintf("%c xid %d/%t", sm.Type, sm.Xid, sm.HasXid)
	if tr.MissingRelation != 0 {
		s += fmt.Sprintf(" relation %d unknown", tr.MissingRelation)
	}
	if r := tr.Relation; r != nil {
		s += fmt.Sprintf(" relation %s %v", r.QualifiedName(), r.Columns)
	}
	return s
}

// TestShareBigFilePart: Share on a big file's part names in its link what the part goes on
// from (the parts before's relations and types), so that the link shows the chosen change
// with its relation and columns: the whole part's link, and each smaller part the export
// worker links when that is too long (a connection's, a transaction's or the message's
// messages, the before keyed by the smaller part's own connection), which says so.
func TestShareBigFilePart(t *testing.T) {
	named := func(d *Doc, i int) string {
		tr := d.Trees[i]
		if tr.Relation == nil {
			return fmt.Sprintf("relation %d unknown", tr.MissingRelation)
		}
		return fmt.Sprintf("%s %v", tr.Relation.QualifiedName(), tr.Relation.Columns)
	}
	opened := func(payload []byte) State {
		t.Helper()
		o := apply(t, NewState(-1), OpenShared{Payload: payload})
		for o.Doc != nil && !o.Doc.Complete() {
			o = apply(t, o, DecodeMore{})
		}
		if o.Doc == nil {
			t.Fatalf("the link does not open: %v", o.InputErr)
		}
		return o
	}
	shared := 0
	for _, path := range partFiles() {
		_, parts := partsOf(t, path)
		for k, pt := range parts {
			s := apply(t, NewState(-1), SetText{Text: pt.text, File: true, Name: "part", Before: ReadBefore(pt.before, pt.text)})
			for s.Doc != nil && !s.Doc.Complete() {
				s = apply(t, s, DecodeMore{})
			}
			m := -1 // the last change named only by what the parts before defined
			for i, tr := range s.Doc.Trees {
				if tr.Relation != nil && tr.RelationIndex == -1 {
					m = i
				}
			}
			if m < 0 {
				continue
			}
			what := fmt.Sprintf("%s part %d message %d", path, k+1, m+1)
			want := named(s.Doc, m)
			s = apply(t, s, SelectMessage{Msg: m})
			s, fx := Apply(s, Share{})
			if o := opened(shareAsked(fx)); named(o.Doc, o.Msg) != want {
				t.Errorf("%s: the whole part's link shows %s, not %s", what, named(o.Doc, o.Msg), want)
			}
			for {
				s, fx = Apply(s, ShareMade{Compressed: tooLong})
				if len(fx) == 0 {
					break // no smaller part
				}
				s, fx = worker(t, s, fx)
				payload := shareAsked(fx)
				if payload == nil {
					break
				}
				if o := opened(payload); named(o.Doc, o.Msg) != want {
					t.Errorf("%s: the link of %s shows %s, not %s", what, s.Share.Holds, named(o.Doc, o.Msg), want)
				}
				if !strings.Contains(s.Share.Holds, "knowing the relations and types the parts before defined") {
					t.Errorf("%s: the link holds %q", what, s.Share.Holds)
				}
				shared++
			}
		}
	}
	if shared == 0 {
		t.Error("no smaller part of a part was linked")
	}
}

// TestPartShownAgainKeepsPlace: a big file's part shown alone, then again going on from the
// parts before (the same bytes), keeps the chosen message; another file starts at its first.
func TestPartShownAgainKeepsPlace(t *testing.T) {
	_, parts := partsOf(t, "../testdata/conversation/recvlogical-pg14.pcapng")
	text, before := parts[1].text, parts[1].before
	s := apply(t, NewState(-1), SetText{Text: text, File: true, Name: "part 2"}, SelectMessage{Msg: 5})
	s = apply(t, s, SetText{Text: text, File: true, Name: "part 2", Before: ReadBefore(before, text)})
	if s.Msg != 5 || s.Doc == nil || s.Doc.resume == nil {
		t.Errorf("shown again: message %d, going on from the parts before %v", s.Msg+1, s.Doc != nil && s.Doc.resume != nil)
	}
	other := parts[0].text
	if s = apply(t, s, SetText{Text: other, File: true, Name: "part 1"}); s.Msg != 0 {
		t.Errorf("another file: message %d, not 1", s.Msg+1)
	}
}
