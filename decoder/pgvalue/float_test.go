package pgvalue

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestInsideRoundingInterval holds the integer comparison to its definition: a decimal lies
// strictly inside f's rounding interval when strconv.ParseFloat reads it back as f and it is not
// a rounding boundary. The decimals are f rounded to every length, one unit in the last place
// either side of those, and the rounding boundaries of PostgreSQL's Ryu tests.
func TestInsideRoundingInterval(t *testing.T) {
	type float struct {
		f       float64
		bitSize int
	}
	var fs []float
	add := func(f float64, bitSize int) {
		if bitSize == 32 {
			f32 := float32(f)
			fs = append(fs, float{float64(f32), 32},
				float{float64(math.Nextafter32(f32, 0)), 32}, float{float64(math.Nextafter32(f32, math.MaxFloat32)), 32})
			return
		}
		fs = append(fs, float{f, 64}, float{math.Nextafter(f, 0), 64}, float{math.Nextafter(f, math.MaxFloat64), 64})
	}
	for e := -1074; e <= 1023; e++ {
		add(math.Ldexp(1, e), 64)
	}
	for e := -149; e <= 127; e++ {
		add(math.Ldexp(1, e), 32)
	}
	for _, m := range []float64{5960464477539062, 8344650268554687} {
		for e := 75; e <= 90; e++ {
			add(math.Ldexp(m, e), 64)
		}
	}
	for _, m := range []float64{14648437, 14648436, 14648438} {
		for e := 30; e <= 40; e++ {
			add(math.Ldexp(m, e), 32)
		}
	}
	add(1e23, 64)
	add(math.MaxFloat64, 64)
	add(math.MaxFloat32, 32)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		add(math.Float64frombits(r.Uint64()&^(1<<63)), 64)
		add(float64(math.Float32frombits(r.Uint32()&^(1<<31))), 32)
	}

	checked, inside := 0, 0
	for _, c := range fs {
		if c.f == 0 || math.IsInf(c.f, 0) || math.IsNaN(c.f) {
			continue
		}
		for n := 1; n <= 17; n++ {
			var buf [32]byte
			digits, exp := shortestDigits(buf[:0], c.f, n, c.bitSize)
			d, p := decimalParts(digits, exp)
			for _, dd := range []uint64{d - 1, d, d + 1} {
				if dd == 0 {
					continue
				}
				s := strconv.FormatUint(dd, 10)
				exp := p + len(s) - 1
				g, err := strconv.ParseFloat(s+"e"+strconv.Itoa(p), c.bitSize)
				want := err == nil && g == c.f && !onRoundingBoundary(c.f, c.bitSize, []byte(s), exp)
				if got := insideRoundingInterval(c.f, c.bitSize, []byte(s), exp); got != want {
					t.Errorf("insideRoundingInterval(%v (float%d), %se%d) = %v, want %v", c.f, c.bitSize, s, p, got, want)
				}
				checked++
				if want {
					inside++
				}
			}
		}
	}
	if inside == 0 || inside == checked {
		t.Errorf("%d of %d decimals inside: the cases do not test both answers", inside, checked)
	}
}
