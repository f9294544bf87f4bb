package decoder

import "testing"

// TestProtoReleases holds the release each protocol version arrived in to the field table: no
// field needs a protocol version before its release, and each version's first release has a
// field that arrived with it.
func TestProtoReleases(t *testing.T) {
	first := map[int]bool{}
	for id := FieldID(0); int(id) < NumFields; id++ {
		info := id.Info()
		if info.Proto == 0 {
			continue
		}
		if int(info.Since) < ProtoRelease(int(info.Proto)) {
			t.Errorf("%s (%s): since %d, but protocol %d arrived in %d", info.Name, info.Of, info.Since, info.Proto, ProtoRelease(int(info.Proto)))
		}
		if int(info.Since) == ProtoRelease(int(info.Proto)) {
			first[int(info.Proto)] = true
		}
	}
	for p := MinProto; p <= MaxProto; p++ {
		if !first[p] {
			t.Errorf("no field arrived with protocol %d in %d", p, ProtoRelease(p))
		}
	}
	for _, c := range []struct{ release, proto int }{{9, 0}, {10, 1}, {13, 1}, {14, 2}, {15, 3}, {16, 4}, {18, 4}} {
		if got := MaxProtoAt(c.release); got != c.proto {
			t.Errorf("MaxProtoAt(%d) = %d, want %d", c.release, got, c.proto)
		}
	}
}

// TestLens: what exists at a release and a protocol version.
func TestLens(t *testing.T) {
	for _, c := range []struct {
		name         string
		got          Presence
		exists       bool
		since, proto int
	}{
		{"Truncate in 10", MessageAt('T', 10, 1), false, 11, 1},
		{"Truncate in 11", MessageAt('T', 11, 1), true, 11, 1},
		{"Stream Start at protocol 1", MessageAt('S', 16, 1), false, 14, 2},
		{"Stream Start in 14 at 2", MessageAt('S', 14, 2), true, 14, 2},
		{"Begin Prepare in 14", MessageAt('b', 14, 0), false, 15, 3},
		{"unknown type", MessageAt('Z', 0, 0), false, 0, 0},
		{"abort LSN at 3", FieldAt(FieldStreamAbortLSN, 16, 3), false, 16, 4},
		{"abort LSN in 16 at 4", FieldAt(FieldStreamAbortLSN, 16, 4), true, 16, 4},
		{"binary kind in 13", CodeAt(FieldColumnKind, 'b', 13, 1), false, 14, 1},
		{"binary kind in 14 at 1", CodeAt(FieldColumnKind, 'b', 14, 1), true, 14, 1},
		{"text kind in 10", CodeAt(FieldColumnKind, 't', 10, 1), true, 10, 1},
		{"XLogData in any", FieldAt(FieldXLogDataStart, 10, 1), true, 0, 0},
	} {
		if c.got.Exists != c.exists || c.got.Since != c.since || c.got.Proto != c.proto {
			t.Errorf("%s: %+v, want exists %v since %d proto %d", c.name, c.got, c.exists, c.since, c.proto)
		}
	}
}
