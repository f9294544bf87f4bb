package web

import (
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/export"
)

// TestExportCopiesChosenBytes: with no field chosen the Export menu copies the message's bytes,
// with one chosen that field's, in the format chosen; the status says what reached the
// clipboard, or why nothing did.
func TestExportCopiesChosenBytes(t *testing.T) {
	s := NewState(0)
	tr := s.Tree()
	oid := tr.Find(tr.Message, decoder.FieldInsertRelationOID)
	if oid < 0 {
		t.Fatal("the first example has no Relation OID")
	}
	n := tr.Nodes[oid]
	for _, c := range []struct {
		node  int32
		f     export.BytesFormat
		bytes []byte
		what  string
	}{
		{-1, export.Hex, tr.Bytes, Commas(len(tr.Bytes)) + " bytes as hex"},
		{int32(oid), export.Go, tr.Bytes[n.Offset : n.Offset+n.Length], "4 bytes as Go"},
		{int32(tr.Message), export.Python, tr.Bytes[tr.Nodes[tr.Message].Offset:], Commas(len(tr.Bytes)-tr.Nodes[tr.Message].Offset) + " bytes as Python"},
		{int32(tr.Message + 1), export.JavaScript, tr.Bytes[tr.Nodes[tr.Message].Offset : tr.Nodes[tr.Message].Offset+1], "1 byte as JavaScript"},
	} {
		s := s
		if c.node >= 0 {
			s = apply(t, s, SelectNode{Node: c.node})
		}
		s2, fx := Apply(s, Export{Entry: int(c.f)})
		if len(fx) != 1 {
			t.Fatalf("%s: effects %v", c.what, fx)
		}
		want := EffectCopy{Text: string(export.AppendBytes(nil, c.f, c.bytes)), What: c.what}
		if fx[0] != want {
			t.Errorf("node %d: effect %+v, want %+v", c.node, fx[0], want)
		}
		if s2.Export.Status != "" {
			t.Errorf("status %q before the copy", s2.Export.Status)
		}
		done := apply(t, s2, Copied{What: c.what})
		if want := (ExportState{Status: "Copied " + c.what}); done.Export != want {
			t.Errorf("after the copy %+v, want %+v", done.Export, want)
		}
		refused := apply(t, s2, Copied{What: c.what, Err: "NotAllowedError: denied"})
		if want := (ExportState{Status: "Could not copy " + c.what + ": NotAllowedError: denied", Err: true}); refused.Export != want {
			t.Errorf("after a refused copy %+v, want %+v", refused.Export, want)
		}
		if done.Share != s2.Share || refused.Share != s2.Share {
			t.Errorf("an export changed the Share button's state")
		}
	}
}

// TestExportNothingChosen: without a message there is nothing to copy, and the status says so.
func TestExportNothingChosen(t *testing.T) {
	s, fx := Apply(NewState(-1), Export{Entry: int(export.Go)})
	if len(fx) != 0 || !s.Export.Err || s.Export.Status == "" {
		t.Errorf("effects %v, status %+v", fx, s.Export)
	}
}

// TestShareCopiedLeavesExport: the Share button's link reaching the clipboard is the share's
// status, and a new share clears the last export's.
func TestShareCopiedLeavesExport(t *testing.T) {
	s := NewState(0)
	s, _ = Apply(s, Export{Entry: int(export.Hex)})
	s = apply(t, s, Copied{What: "x"})
	s = apply(t, s, Share{})
	if s.Export != (ExportState{}) || !s.Share.Busy {
		t.Fatalf("after Share: export %+v, share %+v", s.Export, s.Share)
	}
	s = apply(t, s, ShareMade{Compressed: []byte{1, 2, 3}}, Copied{})
	if !s.Share.Copied || s.Export != (ExportState{}) {
		t.Errorf("after the link's copy: export %+v, share %+v", s.Export, s.Share)
	}
	s = apply(t, s, Copied{Err: "denied"})
	if s.Share.Copied {
		t.Errorf("a refused copy of the link says it was copied")
	}
}
