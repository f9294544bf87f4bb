//go:build js

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
)

// sizeWatch reports the height of an element as it changes, with a ResizeObserver: the lists'
// boxes are sized by the page's layout (the window's size), not by their content.
type sizeWatch struct {
	observer js.Value
	resized  js.Func
	// measured says start has read the box's height; unmeasured says the list's last render
	// left its rows out because it had not.
	measured, unmeasured bool
}

// rows returns how many of the n rows in a list's window to draw: none until start has read
// the box's height. A list's first render comes before its box is in the page, with the
// store's assumed height (a screenful), and its rows would be drawn again at once for the
// measured height, before the browser shows anything: on the first screen, the tree's rows
// were built twice.
func (w *sizeWatch) rows(n int) int {
	w.unmeasured = !w.measured
	if w.unmeasured {
		return 0
	}
	return n
}

// bare reports that the list's last render left its rows out and the box has been measured
// since: its SkipRender must not skip the render that draws them, though its props are the
// same (a list mounted again, as after the field guide, at the height the store has).
func (w *sizeWatch) bare() bool { return w.unmeasured && w.measured }

// start calls f with the node's clientHeight now and whenever its size changes; f reports
// whether it asked for the page to be drawn again (the height changed). When the list c drew
// no rows for want of the height and f did not (the height was the one assumed, or 0), it
// draws c again. (vecty draws both in the next animation frame: c drawn now would draw rows
// for the height in its props, which the page's render then changes.)
func (w *sizeWatch) start(c vecty.Component, node js.Value, f func(height int) bool) {
	w.measured = true
	if !f(node.Get("clientHeight").Int()) && w.unmeasured {
		vecty.Rerender(c)
	}
	ro := js.Global().Get("ResizeObserver")
	if ro.IsUndefined() {
		return
	}
	w.resized = js.FuncOf(func(js.Value, []js.Value) any {
		f(node.Get("clientHeight").Int())
		return nil
	})
	w.observer = ro.New(w.resized)
	w.observer.Call("observe", node)
}

func (w *sizeWatch) stop() {
	if w.observer.Truthy() {
		w.observer.Call("disconnect")
		w.resized.Release()
	}
	*w = sizeWatch{}
}
