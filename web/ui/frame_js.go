//go:build js

package ui

import "syscall/js"

// keepFocus gives the tree the focus if, once the page has drawn what was dispatched before, no
// element has it (the one that had it went): vecty draws on the next animation frame, asked for
// when the dispatch rerendered the page, and a frame's callbacks run in the order asked for.
func keepFocus() {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		doc := js.Global().Get("document")
		if a := doc.Get("activeElement"); !a.Truthy() || a.Equal(doc.Get("body")) {
			if t := doc.Call("querySelector", ".vlist.tree"); t.Truthy() {
				t.Call("focus")
			}
		}
		return nil
	})
	js.Global().Call("requestAnimationFrame", cb)
}

// boxValue is the text the page's element with the id holds now, or "" with no such element.
func boxValue(id string) string {
	if e := js.Global().Get("document").Call("getElementById", id); e.Truthy() {
		return e.Get("value").String()
	}
	return ""
}
