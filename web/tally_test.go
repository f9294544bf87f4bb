package web

import (
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// TestTallyParts: the tallies of a big file's parts, decoded going on from the parts before
// (NewPartDoc, as the export worker reads them), add up to the tally of the file read whole,
// on real captures and a pg_recvlogical file cut into small parts.
func TestTallyParts(t *testing.T) {
	for _, path := range partFiles() {
		b, parts := partsOf(t, path)
		d, _ := NewDoc(string(b), input.Auto, decoder.Options{}, -1)
		want := TallyPart(d)
		// A pg_recvlogical file holds the messages without their XLogData headers or times.
		if capture := filepath.Ext(path) == ".pcapng"; len(want.Changes) == 0 || capture != want.HasLSN || capture != want.HasTime {
			t.Errorf("%s: the whole file's tally names no relation's changes, or its LSNs or times are not as its format: %+v", path, want)
		}
		var got PartTally
		for _, pt := range parts {
			got.Add(TallyPart(pt.whole))
		}
		if !maps.Equal(got.Names, want.Names) || !maps.Equal(got.Changes, want.Changes) {
			t.Errorf("%s: %d parts tally\n%v\n%v\nthe whole file\n%v\n%v", path, len(parts), got.Names, got.Changes, want.Names, want.Changes)
		}
		got.Names, got.Changes, want.Names, want.Changes = nil, nil, nil, nil
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %d parts tally %+v, the whole file %+v", path, len(parts), got, want)
		}
	}
}
