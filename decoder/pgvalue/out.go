package pgvalue

import (
	"io"
	"math"
	"strconv"
)

// out receives formatted text. It appends to b, at most limit bytes after start, or, with w set,
// hands the text on to w in pieces of about flushAt bytes, so that the memory a value takes to
// format is bounded whatever its size. Formatters stop as soon as done reports true: a capped
// value costs what is shown, not what the whole value would expand to.
type out struct {
	b     []byte
	start int
	limit int // the most bytes after start; < 0: no limit
	w     io.Writer
	err   error // w's error
	cut   bool  // the limit cut the text short
	// json: the text goes inside a JSON string, so text from the wire and the formatter's own
	// characters are escaped as JSON; otherwise text from the wire is escaped for display.
	json bool
	// plain: text from the wire is taken as it is, not escaped (for BinaryValue's strings).
	plain bool
	// steps counts the formatters' units of work (a digit, a chunk of bytes, an element), so a
	// test can hold the work to what is shown.
	steps int
	// scratch holds one short formatted piece (a number, a date, an array element) while it is
	// measured or quoted.
	scratch [128]byte
}

// flushAt is the size of the pieces handed to a writer.
const flushAt = 32 << 10

// newOut returns an out that appends to dst, at most limit bytes (limit < 0: no limit).
func newOut(dst []byte, limit int) out {
	return out{b: dst, start: len(dst), limit: limit}
}

// done reports whether nothing more is taken: the limit is reached or the writer failed.
func (o *out) done() bool { return o.cut || o.err != nil }

// max is the length b may reach in the next append: the limit, or the next piece for a writer.
func (o *out) max() int {
	switch {
	case o.w != nil:
		return len(o.b) + flushAt
	case o.limit < 0:
		return math.MaxInt
	}
	return o.start + o.limit
}

// flush hands what is appended to w once it is a piece's worth (all of it when force).
func (o *out) flush(force bool) {
	if o.w == nil || len(o.b)-o.start < flushAt && !force {
		return
	}
	if o.err == nil && len(o.b) > o.start {
		_, o.err = o.w.Write(o.b[o.start:])
	}
	o.b = o.b[:o.start]
}

// str appends text the formatter wrote: ASCII that needs no display escaping (digits, signs,
// punctuation, array quoting). Inside a JSON string its quotes and backslashes are escaped.
func (o *out) str(s string) {
	if o.done() {
		return
	}
	if o.json && needsJSONEscape(s) {
		o.jsonASCII(s)
		return
	}
	if room := o.room(len(s)); len(s) > room {
		o.b = append(o.b, s[:room]...)
		o.cut = true
		return
	}
	o.b = append(o.b, s...)
	o.flush(false)
}

// bytes is str for a []byte (a formatted piece in scratch).
func (o *out) bytes(p []byte) {
	if o.done() {
		return
	}
	if o.json && needsJSONEscape(string(p)) {
		o.jsonASCII(string(p))
		return
	}
	if room := o.room(len(p)); len(p) > room {
		o.b = append(o.b, p[:room]...)
		o.cut = true
		return
	}
	o.b = append(o.b, p...)
	o.flush(false)
}

// byte1 appends one ASCII character as str does.
func (o *out) byte1(c byte) {
	if o.done() {
		return
	}
	if o.json && (c == '"' || c == '\\') {
		o.jsonASCII(string(c))
		return
	}
	if o.room(1) < 1 {
		o.cut = true
		return
	}
	o.b = append(o.b, c)
	o.flush(false)
}

// room returns how many bytes the next append of n bytes may take: all n for a writer (which
// is handed what is there first when they would not fit in the piece), else what the limit
// leaves.
func (o *out) room(n int) int {
	if len(o.b)+n > o.max() && o.w != nil {
		o.flush(true)
	}
	if o.w != nil {
		return n
	}
	return o.max() - len(o.b)
}

// needsJSONEscape reports whether the formatter's ASCII text holds a character that a JSON
// string escapes: digits, signs and points, most of what formatters write, go in as they are.
func needsJSONEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// zeros appends n '0' characters as str does, a run at a time: a numeric of weight 32767 ends
// in up to 131,068 of them.
func (o *out) zeros(n int) {
	for n > 0 && !o.done() {
		o.steps++
		k := min(n, len(zeroRun))
		o.str(zeroRun[:k])
		n -= k
	}
}

const zeroRun = "0000000000000000000000000000000000000000000000000000000000000000" +
	"0000000000000000000000000000000000000000000000000000000000000000"

// jsonASCII appends the formatter's ASCII text inside a JSON string.
func (o *out) jsonASCII(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		n := 1
		if c == '"' || c == '\\' {
			n = 2
		}
		if o.done() || o.room(n) < n {
			o.cut = o.err == nil
			return
		}
		if n == 2 {
			o.b = append(o.b, '\\')
		}
		o.b = append(o.b, c)
	}
	o.flush(false)
}

// stopped is called when the next piece of text from the wire does not fit: a writer is handed
// what is there, which makes room; with a limit, the text is cut.
func (o *out) stopped() {
	if o.w != nil {
		o.flush(true)
		return
	}
	o.cut = true
}

// text appends text from the wire: escaped for display (quoted: '"' and '\\' escaped too, as
// inside quotes), or escaped as JSON inside a JSON string. Only what fits is escaped.
func (o *out) text(p []byte, quoted bool) {
	if o.plain {
		o.b = append(o.b, p...)
		return
	}
	for len(p) > 0 && !o.done() {
		o.steps++
		var n int
		if o.json {
			o.b, n = appendJSONEscaped(o.b, p, o.max())
		} else {
			o.b, n = appendEscaped(o.b, p, quoted, o.max())
		}
		p = p[n:]
		if len(p) > 0 {
			o.stopped()
		}
	}
	o.flush(false)
}

// finish hands a writer the rest, and returns the text appended, whether the limit cut it, and
// the writer's error.
func (o *out) finish() ([]byte, bool, error) {
	o.flush(true)
	return o.b, o.cut, o.err
}

// itoa is strconv.Itoa kept out of line: the error texts call it from many places, and each
// inlined copy of Itoa's small-number fast path would add to the page's WASM.
// size: docs/performance.md, "Size tricks".
//
//go:noinline
func itoa(v int) string { return strconv.Itoa(v) }
