package input

import (
	"testing"

	"pgoutput-inspector/decoder"
)

func TestReadCaptureOptions(t *testing.T) {
	header := []string{
		"pgoutput-inspect capture v1",
		"server: PostgreSQL 16.4",
		`options: proto_version=4 publication_names="a","b" binary=true messages=on streaming=parallel two_phase=true origin=none`,
	}
	o := ReadCaptureOptions(header)
	if !o.Given || o.Proto != 4 || o.Streaming != "parallel" || !o.Binary || !o.Messages || !o.TwoPhase || o.Origin != "none" {
		t.Errorf("read %+v", o)
	}
	if len(o.Options) != 7 || o.Options[1] != (CaptureOption{"publication_names", `"a","b"`}) {
		t.Errorf("options %+v", o.Options)
	}

	cases := []struct {
		header []string
		given  decoder.Options
		want   decoder.Options
	}{
		// No options line: nothing is decided.
		{[]string{"pgoutput-inspect capture v1"}, decoder.Options{}, decoder.Options{}},
		{[]string{"options: proto_version=4 streaming=parallel"}, decoder.Options{},
			decoder.Options{Proto: 4, ParallelAbort: decoder.Yes}},
		// pgoutput writes the abort LSN and timestamp only with streaming=parallel.
		{[]string{"options: proto_version=4 streaming=on"}, decoder.Options{},
			decoder.Options{Proto: 4, ParallelAbort: decoder.No}},
		{[]string{"options: proto_version=2"}, decoder.Options{},
			decoder.Options{Proto: 2, ParallelAbort: decoder.No}},
		// What the user chose wins.
		{[]string{"options: proto_version=4 streaming=on"}, decoder.Options{Proto: 3, ParallelAbort: decoder.Yes},
			decoder.Options{Proto: 3, ParallelAbort: decoder.Yes}},
		{[]string{"options: proto_version=4 streaming=parallel"}, decoder.Options{Proto: 3},
			decoder.Options{Proto: 3, ParallelAbort: decoder.No}},
		{[]string{"options: proto_version=9 streaming='parallel'"}, decoder.Options{},
			decoder.Options{ParallelAbort: decoder.Yes}},
	}
	for _, c := range cases {
		o := ReadCaptureOptions(c.header)
		if got := o.DecoderOptions(c.given); got != c.want {
			t.Errorf("%q with %+v: got %+v, want %+v", c.header, c.given, got, c.want)
		}
	}
}
