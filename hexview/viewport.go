package hexview

// RowHeight is the height in CSS pixels of one row of the hex view, and of the page's other
// virtual lists (the message list and the tree): every row of the page has this one height.
// Stylesheets do not write it again: the View sets it on its box as the CSS variable --hv-row-h,
// and the page sets --row-h for its lists.
const RowHeight = 20

// Overscan is how many rows beyond each edge of a scroll box are drawn, so that a small scroll
// shows rows already there.
const Overscan = 4

// Viewport is the scroll geometry of a box of rows RowHeight tall, in CSS pixels: the hex view,
// and the page's message list and tree.
type Viewport struct {
	Top    int // how far the box is scrolled (its scrollTop)
	Height int // visible height of the box (its clientHeight)
}

// Window returns the rows to draw for rowCount rows: those in view plus overscan rows on
// either side. n depends only on the height, not on Top, so that while scrolling every row
// keeps its slot (see Slot) and only the rows that enter the window are drawn anew.
func (v Viewport) Window(rowCount, overscan int) (first, n int) {
	visible := (max(v.Height, 0)+RowHeight-1)/RowHeight + 1 // a row can be cut at both edges
	n = min(max(rowCount, 0), visible+2*max(overscan, 0))
	first = min(max(v.Top/RowHeight-max(overscan, 0), 0), max(rowCount, 0)-n)
	return first, n
}

// Reveal returns the Top that shows rows first to last, scrolling as little as it can: Top
// itself when they are in view already; when they cannot all fit, first goes to the top edge.
func (v Viewport) Reveal(first, last int) int {
	top, bottom := first*RowHeight, (last+1)*RowHeight
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
