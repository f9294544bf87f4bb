package web

import (
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
	"pgoutput-inspector/internal/dumpjob"
)

// TestExportDump: the Export menu's entries after the byte formats ask the export worker for
// the whole input's dump, each kind copied and then downloaded, then for the chosen message as
// a Go test, with the page's text and the settings it was read with; the status says it is
// being written, then what the glue says was done (Dumped), or that there is nothing to
// export.
func TestExportDump(t *testing.T) {
	s := NewState(0)
	first := len(ExportLabels) - 2*int(dumpjob.NumKinds) + 1
	if ExportLabels[first] != "Copy dump as text" || ExportLabels[first+3] != "Download dump (.md)" ||
		ExportLabels[len(ExportLabels)-1] != "Copy message as Go test" {
		t.Fatalf("the Export menu's dump entries: %q", ExportLabels[first:])
	}
	for e := first; e < len(ExportLabels); e++ {
		s2, fx := Apply(s, Export{Entry: e})
		if len(fx) != 1 {
			t.Fatalf("%s: effects %v", ExportLabels[e], fx)
		}
		f, ok := fx[0].(EffectDump)
		kind, download := dumpjob.Kind((e-first)/2), (e-first)%2 == 1
		if !ok || f.Job.Kind != kind || f.Download != download {
			t.Fatalf("%s: effect %+v, want kind %d, download %v", ExportLabels[e], fx[0], kind, download)
		}
		if j := f.Job; j.Text != s.Text || j.Format != input.Auto || j.Proto != 0 || j.InStream != decoder.Auto ||
			j.Name != "the example "+Examples[0].Name || j.Message != s.Msg+1 || j.Message < 2 {
			t.Errorf("%s: job %+v", ExportLabels[e], j)
		}
		if s2.Export != (ExportState{Status: "Writing…", Busy: true}) {
			t.Errorf("%s: status %+v", ExportLabels[e], s2.Export)
		}
	}

	// The settings the page read and decoded the input with.
	s = apply(t, NewState(-1), SetText{Text: "4200000000000000010000000000000002000004d2aa\n"})
	s = apply(t, s, SetForce{Format: input.Base64})
	s = apply(t, s, SetProto{Proto: 2})
	s = apply(t, s, SetInStream{Choice: decoder.No})
	_, fx := Apply(s, Export{Entry: first})
	j := fx[0].(EffectDump).Job
	if j.Format != input.Base64 || j.Proto != 2 || j.InStream != decoder.No || j.Name != "the page's input" {
		t.Errorf("job %+v", j)
	}
	// A link's bytes are read as hex, not detected.
	s = apply(t, NewState(-1), OpenFragment{Fragment: "#hex=4300"})
	if _, fx = Apply(s, Export{Entry: first}); fx[0].(EffectDump).Job.Format != input.Hex {
		t.Errorf("a hex= link's job %+v", fx[0])
	}

	s2, fx := Apply(NewState(-1), Export{Entry: first + 1})
	if len(fx) != 0 || s2.Export != (ExportState{Status: "Nothing to export: the input has no messages.", Err: true}) {
		t.Errorf("no input: %+v, %v", s2.Export, fx)
	}
	s2 = apply(t, s2, Dumped{Status: "Could not copy the dump as text: NotAllowedError", Err: true})
	if s2.Export != (ExportState{Status: "Could not copy the dump as text: NotAllowedError", Err: true}) {
		t.Errorf("after Dumped: %+v", s2.Export)
	}
}
