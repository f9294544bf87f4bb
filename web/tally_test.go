package web

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// TestTallyParts: the tallies of a big file's parts, decoded going on from the parts before
// (NewPartDoc, as the export worker reads them), add up to the tally of the file read whole,
// on real captures and a pg_recvlogical file cut into small parts.
func TestTallyParts(t *testing.T) {
	files, _ := filepath.Glob("../testdata/conversation/recvlogical-*.pcapng")
	files = append(files, "../testdata/conversation/subscriber-pg17-pg18.pcapng", "../testdata/input/recvlogical/stream.bin")
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := NewDoc(string(b), input.Auto, decoder.Options{}, -1)
		want := TallyPart(d)
		// A pg_recvlogical file holds the messages without their XLogData headers or times.
		if capture := filepath.Ext(path) == ".pcapng"; len(want.Changes) == 0 || capture != want.HasLSN || capture != want.HasTime {
			t.Errorf("%s: the whole file's tally names no relation's changes, or its LSNs or times are not as its format: %+v", path, want)
		}
		c := &input.Cutter{MaxBytes: 64 << 10, MaxItems: 100}
		c.Write(b)
		ps, err := c.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := PartTally{Names: map[string]int{}, Changes: map[string]int{}}
		var carry Carry
		for _, p := range ps.Parts {
			pt := TallyPart(NewPartDoc(string(b[:ps.Head])+string(b[p.Start:p.End]), ps.Format, &carry))
			got.Messages += pt.Messages
			got.Unnamed += pt.Unnamed
			for k, n := range pt.Names {
				got.Names[k] += n
			}
			for k, n := range pt.Changes {
				got.Changes[k] += n
			}
			if pt.HasLSN {
				if !got.HasLSN || pt.MinLSN < got.MinLSN {
					got.MinLSN = pt.MinLSN
				}
				got.MaxLSN, got.HasLSN = max(got.MaxLSN, pt.MaxLSN), true
			}
			if pt.HasTime {
				if !got.HasTime || pt.MinTime < got.MinTime {
					got.MinTime = pt.MinTime
				}
				got.MaxTime, got.HasTime = max(got.MaxTime, pt.MaxTime), true
			}
		}
		if !maps.Equal(got.Names, want.Names) || !maps.Equal(got.Changes, want.Changes) {
			t.Errorf("%s: %d parts tally\n%v\n%v\nthe whole file\n%v\n%v", path, len(ps.Parts), got.Names, got.Changes, want.Names, want.Changes)
		}
		got.Names, got.Changes, want.Names, want.Changes = nil, nil, nil, nil
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %d parts tally %+v, the whole file %+v", path, len(ps.Parts), got, want)
		}
	}
}
