//go:build js

package ui

import "syscall/js"

// sizeWatch reports the height of an element as it changes, with a ResizeObserver: the lists'
// boxes are sized by the page's layout (the window's size), not by their content.
type sizeWatch struct {
	observer js.Value
	resized  js.Func
}

// start calls f with the node's clientHeight now and whenever its size changes.
func (w *sizeWatch) start(node js.Value, f func(height int)) {
	f(node.Get("clientHeight").Int())
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
