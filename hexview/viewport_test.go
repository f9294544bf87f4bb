package hexview

import "testing"

func TestWindow(t *testing.T) {
	cases := []struct {
		vp              Viewport
		rows, overscan  int
		wantFirst, want int
	}{
		{Viewport{0, 20 * RowHeight}, 1000, 3, 0, 27}, // 20 rows in view, +1 cut row, +2*3
		{Viewport{RowHeight * 100, 20 * RowHeight}, 1000, 3, 97, 27},
		{Viewport{RowHeight*100 + RowHeight/2, 20 * RowHeight}, 1000, 3, 97, 27}, // half a row further: same window
		{Viewport{RowHeight * 990, 20 * RowHeight}, 1000, 3, 973, 27},            // at the end the window stays full
		{Viewport{0, 20 * RowHeight}, 10, 3, 0, 10},
		{Viewport{0, 20 * RowHeight}, 0, 3, 0, 0},
		{Viewport{0, 0}, 100, 0, 0, 1},
		{Viewport{0, 5*RowHeight + 1}, 100, 0, 0, 7}, // a row cut at the bottom
	}
	for _, c := range cases {
		first, n := c.vp.Window(c.rows, c.overscan)
		if first != c.wantFirst || n != c.want {
			t.Errorf("%+v.Window(%d, %d) = %d, %d; want %d, %d", c.vp, c.rows, c.overscan, first, n, c.wantFirst, c.want)
		}
	}
}

// TestWindowKeepsSlots checks the point of slots: scrolling by one row redraws one slot.
func TestWindowKeepsSlots(t *testing.T) {
	const rows = 5000
	vp := Viewport{Height: 30 * RowHeight}
	first, n := vp.Window(rows, 4)
	slots := make([]int, n)
	for r := first; r < first+n; r++ {
		slots[Slot(r, n)] = r
	}
	for step := 1; step < 200; step++ {
		vp.Top += RowHeight
		f, m := vp.Window(rows, 4)
		if m != n {
			t.Fatalf("window size changed from %d to %d while scrolling", n, m)
		}
		changed := 0
		seen := make([]bool, n)
		for r := f; r < f+m; r++ {
			s := Slot(r, m)
			if seen[s] {
				t.Fatalf("top %d: two rows in slot %d", vp.Top, s)
			}
			seen[s] = true
			if slots[s] != r {
				changed++
				slots[s] = r
			}
		}
		if want := min(f-first, 1); changed != want {
			t.Fatalf("top %d: %d slots redrawn, want %d", vp.Top, changed, want)
		}
		first = f
	}
}

func TestReveal(t *testing.T) {
	vp := Viewport{Top: 20 * RowHeight, Height: 10 * RowHeight} // rows 20..29 in view
	for _, c := range []struct{ first, last, want int }{
		{22, 25, 20}, // in view already
		{20, 29, 20}, // exactly in view
		{5, 6, 5},    // above: to the top edge
		{29, 30, 21}, // below: to the bottom edge
		{40, 40, 31}, // far below
		{10, 50, 10}, // taller than the box: first row at the top
		{19, 21, 19}, // cut at the top edge
	} {
		if got := vp.Reveal(c.first, c.last); got != c.want*RowHeight {
			t.Errorf("Reveal(%d, %d) = %d, want %d", c.first, c.last, got, c.want*RowHeight)
		}
	}
}
