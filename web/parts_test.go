package web

import (
	"fmt"
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
		b, ps := cutSmall(t, path)
		var carry Carry
		for k, p := range ps.Parts {
			text := string(b[:ps.Head]) + string(b[p.Start:p.End])
			before, _, _ := carry.AppendBefore(nil)
			want := NewPartDoc(text, ps.Format, &carry)
			st := State{Text: text, Before: ReadBefore(before, text)}
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
		}
	}
	if helped == 0 {
		t.Error("every part decodes alone as it does going on from the parts before")
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
