package web

import "pgoutput-inspector/internal/export"

// ExportLabels are the Export menu's entries, one per byte format of package export, in the
// order of export.BytesFormats.
var ExportLabels = [...]string{
	"Bytes as hex", "Bytes as base64", "Bytes as Go []byte", "Bytes as Python bytes", "Bytes as JavaScript Uint8Array",
}

// ExportState is what the last export did.
type ExportState struct {
	// Status says what was copied, or why not (Err).
	Status string
	Err    bool
}

// Export: an entry of the Export menu was chosen: copy the chosen bytes in Format.
type Export struct{ Format export.BytesFormat }

func (Export) isAction() {}

// export copies the chosen field's bytes in format f, or says why it cannot.
func (s State) export(f export.BytesFormat) (State, []Effect) {
	t := s.Tree()
	if t == nil || f >= export.BytesFormat(len(export.FormatNames)) {
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
