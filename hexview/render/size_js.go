//go:build js

package render

import "syscall/js"

// sizeWatch reports the box's height to the View through a ResizeObserver.
type sizeWatch struct {
	observer js.Value
	callback js.Func
}

func (w *sizeWatch) start(v *View) {
	ro := js.Global().Get("ResizeObserver")
	if ro.IsUndefined() {
		return
	}
	node := v.box.Node()
	w.callback = js.FuncOf(func(js.Value, []js.Value) any {
		v.resized(node.Get("clientHeight").Int())
		return nil
	})
	w.observer = ro.New(w.callback)
	w.observer.Call("observe", node)
	v.resized(node.Get("clientHeight").Int())
}

func (w *sizeWatch) stop() {
	if w.observer.IsUndefined() || w.observer.IsNull() {
		return
	}
	w.observer.Call("disconnect")
	w.callback.Release()
	*w = sizeWatch{}
}
