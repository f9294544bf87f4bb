package decoder

import (
	"sort"
	"testing"
)

// fitsOptions are the option sets the agreement tests run with: no context at all, the
// benchmarks' bare messages, and every choice fixed.
var fitsOptions = []Options{
	{},
	{Envelope: EnvelopeNone},
	{Proto: 4, InStream: No, ParallelAbort: Yes},
	{Proto: 2, InStream: Yes, ParallelAbort: No},
}

// checkFits decodes msgs in order with one session and asks Fits of another: they must agree
// on every message, also after the messages that change the session's state.
func checkFits(t *testing.T, name string, opts Options, msgs [][]byte) {
	t.Helper()
	dec, fit := NewSession(opts), NewSession(opts)
	var tr Tree
	for i, m := range msgs {
		dec.DecodeInto(&tr, m)
		if got := fit.Fits(m); got != (tr.Err == nil) {
			t.Fatalf("%s, options %+v, message %d (% x): Fits says %v, DecodeInto's error is %v", name, opts, i, m, got, tr.Err)
		}
		if dec.stream != fit.stream || dec.parallel != fit.parallel || dec.proto != fit.proto || dec.count != fit.count {
			t.Fatalf("%s, options %+v, message %d: the sessions part: stream %d/%d, parallel %d/%d, proto %d/%d, count %d/%d",
				name, opts, i, dec.stream, fit.stream, dec.parallel, fit.parallel, dec.proto, fit.proto, dec.count, fit.count)
		}
	}
}

// TestFitsAgreesWithDecode: Fits answers what DecodeInto's error says, on every real capture
// (whole, bare and cut short, so that messages fail in every field) and every fuzz seed.
func TestFitsAgreesWithDecode(t *testing.T) {
	corpus := corpusPayloads(t)
	var files []string
	for f := range corpus {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		msgs := corpus[f]
		var bare, cut [][]byte
		for i, m := range msgs {
			if p := xlogPayload(m); p != nil {
				bare = append(bare, p)
			}
			// Every message whole, and every seventh cut at a varying point as well.
			cut = append(cut, m)
			if i%7 == 0 {
				cut = append(cut, m[:len(m)*(i%5+1)/6])
			}
		}
		for _, o := range fitsOptions {
			checkFits(t, f, o, msgs)
			checkFits(t, f+" (bare)", o, bare)
			checkFits(t, f+" (cut)", o, cut)
		}
	}
	for _, o := range fitsOptions {
		checkFits(t, "fuzz seeds", o, fuzzSeeds())
	}
}

// TestFitsMemory: asking whether a huge message fits records no node; its memory does not grow
// with the message.
func TestFitsMemory(t *testing.T) {
	const n = 1_000_000
	trunc := wire{}.b1('T').i32(n).i8(0)
	for i := range n {
		trunc = trunc.i32(uint32(16384 + i))
	}
	ins := wire{}.b1('I').i32(16384).b1('N').i16(65535)
	for range 65535 {
		ins = ins.text("12345678")
	}
	for _, m := range [][]byte{trunc, ins} {
		s := NewSession(Options{}) // no context: both readings are probed
		s.Fits(m)                  // the session's first probe sizes its one node
		if got := allocated(func() {
			if !s.Fits(m) {
				t.Errorf("%c of %d bytes does not fit", m[0], len(m))
			}
		}); got > 0 {
			t.Errorf("Fits of a %c of %d bytes allocated %d bytes, want none", m[0], len(m), got)
		}
		if c := cap(s.alt.Nodes); c > 1 {
			t.Errorf("the session keeps %d nodes", c)
		}
	}
}
