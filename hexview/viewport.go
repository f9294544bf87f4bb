package hexview

// Viewport is the scroll geometry of the hex view, in CSS pixels.
type Viewport struct {
	RowHeight int // height of one row; at least 1
	Height    int // visible height of the scroll box
	Top       int // how far the box is scrolled (its scrollTop)
}

// Window returns the rows to draw for rowCount rows: those in view plus overscan rows on
// either side. n depends only on the height, not on Top, so that while scrolling every row
// keeps its slot (see Slot) and only the rows that enter the window are drawn anew.
func (v Viewport) Window(rowCount, overscan int) (first, n int) {
	rh := max(v.RowHeight, 1)
	visible := (max(v.Height, 0)+rh-1)/rh + 1 // a row can be cut at both edges
	n = min(max(rowCount, 0), visible+2*max(overscan, 0))
	first = min(max(v.Top/rh-max(overscan, 0), 0), max(rowCount, 0)-n)
	return first, n
}

// Reveal returns the Top that shows rows first to last, scrolling as little as it can: Top
// itself when they are in view already; when they cannot all fit, first goes to the top edge.
func (v Viewport) Reveal(first, last int) int {
	rh := max(v.RowHeight, 1)
	top, bottom := first*rh, (last+1)*rh
	switch {
	case bottom-top > v.Height || top < v.Top:
		return top
	case bottom > v.Top+v.Height:
		return bottom - v.Height
	}
	return v.Top
}

// Slot returns which of the n slots of a window draws row: rows keep their slot while the
// window moves, so a slot is redrawn only when a new row enters it.
func Slot(row, n int) int {
	if n <= 0 {
		return 0
	}
	return row % n
}
