package decoder

import (
	"errors"
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

// checkFits decodes msgs in order with one session and asks Check of another: they must agree
// on every message, also after the messages that change the session's state.
func checkFits(t *testing.T, name string, opts Options, msgs [][]byte) {
	t.Helper()
	dec, fit := NewSession(opts), NewSession(opts)
	var tr Tree
	for i, m := range msgs {
		dec.DecodeInto(&tr, m)
		if !sameCheck(fit.Check(m), &tr) {
			t.Fatalf("%s, options %+v, message %d (% x): Check says %+v, DecodeInto's error is %+v", name, opts, i, m, fit.alt.Err, tr.Err)
		}
		if dec.stream != fit.stream || dec.parallel != fit.parallel || dec.proto != fit.proto || dec.count != fit.count {
			t.Fatalf("%s, options %+v, message %d: the sessions part: stream %d/%d, parallel %d/%d, proto %d/%d, count %d/%d",
				name, opts, i, dec.stream, fit.stream, dec.parallel, fit.parallel, dec.proto, fit.proto, dec.count, fit.count)
		}
	}
}

// sameCheck reports whether Check's error c is DecodeInto's tree t's as far as Check says: the
// kind, and for a message too short, where and by how much; a message read two ways only
// fails.
func sameCheck(c *Error, t *Tree) bool {
	d := t.Err
	switch {
	case c == nil || d == nil:
		return c == nil && d == nil
	case t.Reading.Guessed:
		return true
	case c.Kind != d.Kind:
		return false
	case errors.Is(d, ErrTruncated) || errors.Is(d, ErrUnterminated):
		return c.Offset == d.Offset && c.Field == d.Field && c.Need == d.Need && c.Left == d.Left
	}
	return true
}

// TestFitsAgreesWithDecode: Check answers what DecodeInto's error says, on every real capture
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
		s.Check(m)                 // the session's first probe sizes its one node
		if got := allocated(func() {
			if s.Check(m) != nil {
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
