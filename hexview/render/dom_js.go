//go:build js

package render

import "syscall/js"

// domWatch holds what the View listens to outside its own elements: a ResizeObserver on the
// box, which reports its height and how many characters fit across it, and the document's copy event, which the browser sends to
// the body rather than to a focused box when no text is selected.
type domWatch struct {
	observer js.Value
	resized  js.Func
	copied   js.Func
}

func (w *domWatch) start(v *View) {
	node := v.box.Node()
	doc := js.Global().Get("document")
	w.copied = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if doc.Get("activeElement").Equal(node) {
			v.copySelection(args[0])
		}
		return nil
	})
	doc.Call("addEventListener", "copy", w.copied)
	measure := func() {
		chars := 0
		if ch := v.probe.Node().Call("getBoundingClientRect").Get("width").Float() / 10; ch > 0 {
			chars = int(node.Get("clientWidth").Float() / ch)
		}
		v.resized(node.Get("clientHeight").Int(), chars)
	}
	if ro := js.Global().Get("ResizeObserver"); !ro.IsUndefined() {
		w.resized = js.FuncOf(func(js.Value, []js.Value) any {
			measure()
			return nil
		})
		w.observer = ro.New(w.resized)
		w.observer.Call("observe", node)
	}
	measure()
}

func (w *domWatch) stop() {
	js.Global().Get("document").Call("removeEventListener", "copy", w.copied)
	w.copied.Release()
	if !w.observer.IsUndefined() {
		w.observer.Call("disconnect")
		w.resized.Release()
	}
	*w = domWatch{}
}

// copySelection puts the selected bytes on the clipboard as hex, which the input reads back.
func (v *View) copySelection(event js.Value) {
	sel := v.Marks.Selection
	if sel.Empty() {
		return
	}
	event.Get("clipboardData").Call("setData", "text/plain", v.model().Hex(sel))
	event.Call("preventDefault")
}
