package input

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgoutput-inspector/decoder"
)

// TestSplitRecvLogicalNoQuadratic gives the splitter a file that no newline ends a message of:
// a string without its zero byte across thousands of newlines, a truncated Relation, and an
// Insert whose value needs a mebibyte (read two ways: a session that has not seen a stream's
// start does not know whether it has a streamed transaction's xid). It must give up after a
// few decodes, not try every newline.
func TestSplitRecvLogicalNoQuadratic(t *testing.T) {
	for _, b := range [][]byte{
		append([]byte("R\x00\x00\x40\x00"), bytes.Repeat([]byte("x\n"), 200000)...),
		append([]byte("M\x01\x00\x00\x00\x00\x01\x52\x86\x60"), bytes.Repeat([]byte("\n"), 400000)...),
		append([]byte("I\x00\x00\x40\x00N\x00\x01t\x00\x10\x00\x00"), bytes.Repeat([]byte("\n"), 400000)...),
	} {
		for _, next := range []func(*recvSplitter, []byte, bool) (cut, int){(*recvSplitter).next, (*recvSplitter).nextQuick} {
			r := newRecvSplitter()
			for {
				if _, st := next(r, b, true); st != splitFound {
					break
				}
			}
			// A decode's tree is numbered with the decodes the session made before it.
			if tries := r.sess.Decode(nil).Index; tries > 100 {
				t.Errorf("%.20q: %d decodes: the splitter tries newline after newline", b, tries)
			}
		}
	}
}

// splitByTries is what the splitter does, done the slow way: each message is the first piece
// up to a newline that decodes, trying the newlines in order. A piece that fails in a way no
// longer one mends (neither too short nor in a string not yet ended), read one way, ends the
// splitting; one read two ways does not (the other reading may fit a longer piece).
func splitByTries(b []byte) (cuts []cut, bad int) {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, 0
	}
	s := decoder.NewSession(decoder.Options{Envelope: decoder.EnvelopeNone})
	var t decoder.Tree
	start := 0
next:
	for start < len(b) {
		for p := start + 1; p < len(b); p++ {
			if b[p] != '\n' {
				continue
			}
			s.DecodeInto(&t, b[start:p])
			if t.Err == nil {
				cuts = append(cuts, cut{start, p})
				start = p + 1
				continue next
			}
			if !t.Reading.Guessed && !errors.Is(t.Err, decoder.ErrTruncated) && !errors.Is(t.Err, decoder.ErrUnterminated) {
				break
			}
		}
		return cuts, start
	}
	return cuts, -1
}

// splitQuick is splitRecvLogical with nextQuick.
func splitQuick(b []byte) (cuts []cut, bad int) {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, 0
	}
	r := newRecvSplitter()
	for {
		c, st := r.nextQuick(b, true)
		switch st {
		case splitFound:
			cuts = append(cuts, c)
		case splitBad:
			return cuts, r.start
		default:
			return cuts, -1
		}
	}
}

// checkSplit fails unless next and nextQuick cut b as splitByTries does.
func checkSplit(t *testing.T, what string, b []byte) {
	t.Helper()
	want, wantBad := splitByTries(b)
	for _, split := range []struct {
		name string
		f    func([]byte) ([]cut, int)
	}{{"next", splitRecvLogical}, {"nextQuick", splitQuick}} {
		if cuts, bad := split.f(b); bad != wantBad || !slices.Equal(cuts, want) {
			t.Fatalf("%s, %s: %d messages, bad at %d; trying every newline: %d, bad at %d", what, split.name, len(cuts), bad, len(want), wantBad)
		}
	}
}

// recvStreams are pg_recvlogical -f files: the real ones in testdata, and the pgoutput
// messages of every corpus capture (the XLogData's contents, each with its newline, as
// pg_recvlogical writes them): streamed and parallel transactions, binary and text.
func recvStreams(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	files, _ := filepath.Glob("../testdata/input/*recvlogical/*.bin")
	more, _ := filepath.Glob("../testdata/input/holdout/recvlogical/*.bin")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	captures, _ := filepath.Glob("../testdata/corpus/*.capture.gz")
	for _, f := range captures {
		r, err := Parse(readGzip(t, f), Auto)
		if err != nil {
			t.Fatal(err)
		}
		var b []byte
		for _, m := range r.Messages {
			if len(m.Bytes) > 25 && m.Bytes[0] == 'w' {
				b = append(append(b, m.Bytes[25:]...), '\n')
			}
		}
		out[f] = b
	}
	if len(out) < 15 {
		t.Fatalf("%d pg_recvlogical streams", len(out))
	}
	return out
}

// TestRecvSplitterTriesNewlines: the splitter cuts as splitByTries does every real stream,
// whole, cut short anywhere, and with bytes changed.
func TestRecvSplitterTriesNewlines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, b := range recvStreams(t) {
		checkSplit(t, name, b)
		for range 20 {
			n := rng.IntN(len(b))
			checkSplit(t, name+" cut short", append(b[:n:n], '\n'))
			c := slices.Clone(b)
			for range 1 + rng.IntN(3) {
				c[rng.IntN(len(c))] = byte(rng.IntN(256))
			}
			checkSplit(t, name+" with bytes changed", c)
		}
	}
}

// FuzzRecvSplitter: any bytes are cut as splitByTries cuts them.
func FuzzRecvSplitter(f *testing.F) {
	for _, b := range recvStreams(f) {
		f.Add(b[:min(len(b), 2000)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return // splitByTries is quadratic
		}
		checkSplit(t, "fuzz", b)
	})
}
