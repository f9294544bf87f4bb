package web

import (
	"pgoutput-inspector/internal/dumpjob"
	"pgoutput-inspector/internal/export"
)

// ExportLabels are the Export menu's entries: one per byte format of package export, in the
// order of export.BytesFormats; then, for each dumpjob.Kind in order, copy the whole input's
// dump, and download it (dumps.go); last, copy the chosen message as a Go test (the last
// kind, copied only).
var ExportLabels = [...]string{
	"Bytes as hex", "Bytes as base64", "Bytes as Go []byte", "Bytes as Python bytes", "Bytes as JavaScript Uint8Array",
	"Copy dump as text", "Download dump (.txt)",
	"Copy dump as Markdown", "Download dump (.md)",
	"Copy as JSON", "Download JSON (.json)",
	"Copy message as Go test",
}

// ExportState is what the last export did.
type ExportState struct {
	// Status says what was copied, or why not (Err), or what is being written (Busy).
	Status    string
	Err, Busy bool
}

// Export: entry Entry of the Export menu was chosen, counted from 0 after "Export…" in
// ExportLabels' order: copy the chosen bytes in a format, or a dump of the whole input.
type Export struct{ Entry int }

func (Export) isAction() {}

// export does what the Export menu's entry says: copies the chosen field's bytes in a format,
// or asks for a dump (dumps.go); or says why it cannot.
func (s State) export(entry int) (State, []Effect) {
	if n := len(export.FormatNames); entry >= n {
		return s.exportDump(dumpjob.Kind((entry-n)/2), (entry-n)%2 == 1)
	}
	t := s.Tree()
	f := export.BytesFormat(entry)
	if t == nil || entry < 0 {
		s.Export = ExportState{Status: "Nothing to export: choose a message.", Err: true}
		return s, nil
	}
	// The chosen field's bytes, else the message's: what the hex view shows selected.
	b := t.Bytes
	if n := int(s.Node); n >= 0 && n < len(t.Nodes) {
		b = b[t.Nodes[n].Offset : t.Nodes[n].Offset+t.Nodes[n].Length]
	}
	what := Commas(len(b)) + " bytes as " + export.FormatNames[f]
	if len(b) == 1 {
		what = "1 byte as " + export.FormatNames[f]
	}
	s.Export = ExportState{}
	return s, []Effect{EffectCopy{Text: string(export.AppendBytes(nil, f, b)), What: what}}
}

// exported is the status of an export that reached the clipboard, or not.
func exported(a Copied) ExportState {
	if a.Err != "" {
		return ExportState{Status: "Could not copy " + a.What + ": " + a.Err, Err: true}
	}
	return ExportState{Status: "Copied " + a.What}
}
