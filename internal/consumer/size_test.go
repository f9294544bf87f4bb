package consumer

import (
	"strings"
	"testing"
)

// TestStepsBounded: a series of 200,000 points (a gigabyte's commits) draws a line of at most
// about 4×chartWidth steps, which keeps its first and last LSN and a spike within one column;
// points each in a column of its own are drawn one step each, as before.
func TestStepsBounded(t *testing.T) {
	const n = 200000
	var s []point
	for i := range n {
		s = append(s, point{t: int64(i) * 1e6, lsn: uint64(i) * 100})
	}
	s[n/2].lsn = n * 200 // a spike: back down at the next point, in the same column
	x := func(t int64) float64 {
		return marginLeft + float64(t)/float64(n*1e6)*(chartWidth-marginLeft-marginRight)
	}
	y := func(l uint64) float64 { return 200 - float64(l)/float64(n*200)*150 }
	var d strings.Builder
	steps(&d, s, x, y)
	if steps := strings.Count(d.String(), "H"); steps > 4*chartWidth+1 {
		t.Errorf("%d steps for %d points, more than %d", steps, n, 4*chartWidth+1)
	}
	for _, want := range []string{"M" + f(x(0)) + " " + f(y(0)), "V" + f(y(n*200)), "V" + f(y((n-1)*100))} {
		if !strings.Contains(d.String(), want) {
			t.Errorf("the line has no %q", want)
		}
	}
	if !strings.HasSuffix(d.String(), "V"+f(y((n-1)*100))) {
		t.Errorf("the line does not end at the last point's LSN")
	}
	var few strings.Builder
	steps(&few, []point{{0, 0, 0}, {n * 5e5, 1000, 1}, {n * 1e6, 2000, 2}}, x, y)
	if want := "M" + f(x(0)) + " " + f(y(0)) + "H" + f(x(n*5e5)) + "V" + f(y(1000)) + "H" + f(x(n*1e6)) + "V" + f(y(2000)); few.String() != want {
		t.Errorf("three points: %q, want %q", few.String(), want)
	}
}

// TestUnacknowledgedListed: the report lists the first maxListed transactions never
// acknowledged as buttons and counts the rest.
func TestUnacknowledgedListed(t *testing.T) {
	c := &Conn{Number: 1}
	for i := range maxListed + 5 {
		e := End{Msg: i, Kind: "Commit", LSN: uint64(i)}
		for p := range e.Acks {
			e.Acks[p].Update = -1
		}
		c.Ends = append(c.Ends, e)
	}
	h := string(HTML(&Report{Conns: []*Conn{c}}))
	if n := strings.Count(h, `class="consumer-go"`); n != maxListed {
		t.Errorf("%d buttons, want %d", n, maxListed)
	}
	if !strings.Contains(h, "<li>and 5 more (pgoutput-inspect consumer lists them all)</li>") {
		t.Errorf("the rest are not counted:\n%s", h)
	}
}
