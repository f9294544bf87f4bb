package pgvalue

import (
	"strconv"
	"testing"
)

// numericBytes builds numeric_send's format: ndigits, weight, sign, dscale and the digits.
func numericBytes(weight int16, sign, dscale uint16, digits ...uint16) []byte {
	b := []byte{byte(len(digits) >> 8), byte(len(digits)), byte(uint16(weight) >> 8), byte(weight),
		byte(sign >> 8), byte(sign), byte(dscale >> 8), byte(dscale)}
	for _, d := range digits {
		b = append(b, byte(d>>8), byte(d))
	}
	return b
}

// numericOfLength is a numeric of n base-10000 digits 1234, of weight n-1 (an integer of 4n
// decimal digits).
func numericOfLength(n int) []byte {
	digits := make([]uint16, n)
	for i := range digits {
		digits[i] = 1234
	}
	return numericBytes(int16(n-1), numericPos, 0, digits...)
}

// formatSteps formats a value with a cap and counts the formatter's units of work.
func formatSteps(oid uint32, b []byte, limit int) (steps, shown int) {
	if err := check(oid, b); err != nil {
		panic(err)
	}
	o := newOut(nil, limit)
	formatText(&o, oid, b)
	return o.steps, len(o.b)
}

// TestNumericWorkIsLinear counts work, not time: a capped numeric costs what is shown whatever
// its weight, and a whole numeric costs its digits, in proportion to its byte length.
func TestNumericWorkIsLinear(t *testing.T) {
	const limit = 200
	small := numericBytes(10, numericPos, 0, 1)
	huge := numericBytes(32767, numericPos, 16383, 1)     // 131,072 digits, a point, 16,383 more
	hugeNeg := numericBytes(-32768, numericNeg, 16383, 1) // 0.000…, no digit shown is non-zero
	for _, b := range [][]byte{small, huge, hugeNeg} {
		steps, shown := formatSteps(oidNumeric, b, limit)
		// The digits go out a scratch buffer at a time, so the work may pass the cap by one buffer.
		if steps > (limit+len(out{}.scratch))/4+2 || shown > limit {
			t.Errorf("numeric of %d bytes capped at %d: %d steps, %d bytes", len(b), limit, steps, shown)
		}
	}
	if steps, shown := formatSteps(oidNumeric, huge, -1); shown != 1+4*32767+1+16383 || steps > shown/4+2 {
		t.Errorf("whole numeric of weight 32767: %d steps for %d bytes of text", steps, shown)
	}
	// Twice the bytes, twice the work.
	s1, _ := formatSteps(oidNumeric, numericOfLength(4096), -1)
	s2, _ := formatSteps(oidNumeric, numericOfLength(8192), -1)
	if s2 < 2*s1-2 || s2 > 2*s1+2 {
		t.Errorf("numerics of 4096 and 8192 digits: %d and %d steps", s1, s2)
	}
	c1, _ := formatSteps(oidNumeric, numericOfLength(4096), limit)
	c2, _ := formatSteps(oidNumeric, numericOfLength(8192), limit)
	if c1 != c2 {
		t.Errorf("the same cap costs %d and %d steps", c1, c2)
	}
}

// BenchmarkNumericCapped formats numerics of two byte lengths capped at 160 bytes, as a tree row
// or the text dump shows them: the time grows with the byte length (the check reads every
// digit), not with the weight, and the weight-32767 numeric of 10 bytes costs what a small one
// does.
func BenchmarkNumericCapped(b *testing.B) {
	for _, c := range []struct {
		name string
		v    []byte
	}{
		{"bytes=10/weight=10", numericBytes(10, numericPos, 0, 1)},
		{"bytes=10/weight=32767", numericBytes(32767, numericPos, 16383, 1)},
		{"bytes=2008/weight=999", numericOfLength(1000)},
		{"bytes=32008/weight=15999", numericOfLength(16000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			dst := make([]byte, 0, 256)
			b.SetBytes(int64(len(c.v)))
			b.ReportAllocs()
			for b.Loop() {
				AppendBinaryLimit(dst[:0], oidNumeric, c.v, 160)
			}
		})
	}
}

func TestNumericBytes(t *testing.T) {
	got, _, _ := AppendBinary(nil, oidNumeric, numericOfLength(3))
	if want := strconv.Itoa(123412341234); string(got) != want {
		t.Fatalf("%s, want %s", got, want)
	}
}

// numericReference is numeric_out written the plain way, a base-10000 digit at a time, to check
// the formatter's runs against.
func numericReference(b []byte) string {
	n, err := readNumeric(b)
	if err != nil {
		panic(err)
	}
	switch n.sign {
	case numericNaN:
		return "NaN"
	case numericPInf:
		return "Infinity"
	case numericNInf:
		return "-Infinity"
	}
	var s []byte
	if n.sign == numericNeg && n.nonZeroShown() {
		s = append(s, '-')
	}
	d := 0
	if n.weight < 0 || len(n.digits) == 0 {
		s = append(s, '0')
		if len(n.digits) > 0 {
			d = n.weight + 1
		}
	} else {
		s = strconv.AppendInt(s, int64(n.digit(0)), 10)
		for d = 1; d <= n.weight; d++ {
			s = appendPad(s, int64(n.digit(d)), 4)
		}
	}
	if n.dscale > 0 {
		s = append(s, '.')
		for i := 0; i < n.dscale; d++ {
			v := n.digit(d)
			for p := 1000; p > 0 && i < n.dscale; p /= 10 {
				s = append(s, byte('0'+v/p%10))
				i++
			}
		}
	}
	return string(s)
}

// TestNumericRuns: digits written four at a time and zeros in runs give numeric_out's text, for
// every weight and scale around the digits sent, whole, capped and as JSON.
func TestNumericRuns(t *testing.T) {
	digitSets := [][]uint16{nil, {1}, {9999}, {12, 3400}, {1, 0, 0, 5}, {5000, 1, 9999}}
	for _, digits := range digitSets {
		for weight := -6; weight <= 6; weight++ {
			for _, dscale := range []uint16{0, 1, 3, 4, 5, 8, 9, 17, 30} {
				for _, sign := range []uint16{numericPos, numericNeg} {
					b := numericBytes(int16(weight), sign, dscale, digits...)
					want := numericReference(b)
					got, _, _ := AppendBinary(nil, oidNumeric, b)
					if string(got) != want {
						t.Fatalf("digits %v weight %d dscale %d sign %x: %s, want %s", digits, weight, dscale, sign, got, want)
					}
					for limit := range len(want) + 1 {
						cut, _, _ := AppendBinaryLimit(nil, oidNumeric, b, limit)
						if string(cut) != want[:limit] {
							t.Fatalf("digits %v weight %d dscale %d capped at %d: %s, want %s", digits, weight, dscale, limit, cut, want[:limit])
						}
					}
					js, _, _ := AppendJSON(nil, oidNumeric, b, "", "")
					if string(js) != strconv.Quote(want) {
						t.Fatalf("digits %v weight %d dscale %d: JSON %s, want %q", digits, weight, dscale, js, want)
					}
				}
			}
		}
	}
}

// TestNumericJSONInRuns: the JSON of a numeric of weight 32767 (131,072 digits, a point and
// 16,383 more) is written in runs, not a digit or a byte at a time.
func TestNumericJSONInRuns(t *testing.T) {
	b := numericBytes(32767, numericPos, 16383, 1)
	if err := check(oidNumeric, b); err != nil {
		t.Fatal(err)
	}
	o := newOut(nil, -1)
	formatJSON(&o, oidNumeric, b, "", "")
	if want := 2 + 4*32767 + 1 + 1 + 16383; len(o.b) != want || o.steps > len(o.b)/64 {
		t.Errorf("%d bytes (want %d) in %d steps", len(o.b), want, o.steps)
	}
}
