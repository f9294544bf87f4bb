package web

import "pgoutput-inspector/internal/dumpjob"

// Dumped: a dump was copied or downloaded, or not (Err); Status says which, and what (written
// by static/boot.js, which has the dump from the export worker: main.wasm never holds it).
type Dumped struct {
	Status string
	Err    bool
	// Kind is the job's: the Consumer panel's report (dumpjob.Consumer) or a dump.
	Kind dumpjob.Kind

	_ [0]func() // never compared: no equality function for it in main.wasm
}

func (Dumped) isAction() {}

// EffectDump asks for Job written by the export worker, then copied, or saved as a file
// (Download), then a Dumped action.
type EffectDump struct {
	Job      dumpjob.Job
	Download bool
}

func (EffectDump) isEffect() {}

// DumpJob returns the job that makes the export worker write the whole input as
// pgoutput-inspect decode prints it (kind), or the chosen message as a Go test: the text of the page's Doc, with the format it was
// read as when the page did not detect it, and the decoder options it was decoded with
// (docs/page.md, "Exports"); Max is left for static/boot.js. The Doc must not be nil.
func (s *State) DumpJob(kind dumpjob.Kind) dumpjob.Job {
	d := s.Doc
	j := dumpjob.Job{Kind: kind, Text: d.Text, Proto: d.Options.Proto, InStream: d.Options.InStream, Name: "the page's input",
		Message: s.Msg + 1}
	if d.Forced {
		j.Format = d.Format
	}
	j.SenderTimeout, j.StatusInterval = s.Consumer.SenderTimeout, s.Consumer.StatusInterval
	if s.Example >= 0 && s.Example < len(Examples) {
		j.Name = "the example " + Examples[s.Example].Name
	}
	return j
}

// exportDump asks for the whole input's dump of kind (or the chosen message as a Go test),
// copied or downloaded, or says why it cannot be had.
func (s State) exportDump(kind dumpjob.Kind, download bool) (State, []Effect) {
	if s.Doc == nil || len(s.Doc.Messages) == 0 || kind >= dumpjob.NumKinds {
		s.Export = ExportState{Status: "Nothing to export: the input has no messages.", Err: true}
		return s, nil
	}
	s.Export = ExportState{Status: "Writing…", Busy: true}
	return s, []Effect{EffectDump{Job: s.DumpJob(kind), Download: download}}
}
