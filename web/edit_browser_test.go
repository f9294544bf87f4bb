//go:build !js

package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// afterInput returns a script that resolves once the text box has had an input event and the
// page has drawn the state it led to (vecty draws in the frame after the event).
const afterInput = `window.__input = new Promise((r) => document.querySelector("#input-text").addEventListener("input",
	() => requestAnimationFrame(() => requestAnimationFrame(() => r(true))), {once: true})), true`

// typeKeys types keys in the text box with the caret at offset (a UTF-16 index), as a person
// does, and waits until the page has drawn what the last key led to.
func typeKeys(b *browsertest.Browser, offset int, keys string) {
	b.Run(chromedp.Focus("#input-text", chromedp.ByQuery))
	b.Eval(`(() => { const ta = document.querySelector("#input-text"); ta.setSelectionRange(`+strconv.Itoa(offset)+`, `+strconv.Itoa(offset)+`); })()`, nil)
	for _, k := range keys {
		b.Eval(afterInput, nil)
		b.Run(chromedp.KeyEvent(string(k)))
		b.Eval(`window.__input`, nil)
	}
}

// view is what the page shows of the reader's place.
type view struct {
	Title, Selected, Status, Error string
	Stale                          bool
}

func readView(b *browsertest.Browser) view {
	var v view
	b.Eval(`(() => { const t = (s) => { const e = document.querySelector(s); return e ? e.textContent : ""; };
		return {Title: t(".hex-panel h2"), Selected: t(".tnode.selected .t-label") + " @" + ((document.querySelector(".tnode.selected") || {dataset: {}}).dataset.node || ""),
			Status: t(".input-status"), Error: t(".input-error"), Stale: !!document.querySelector(".page.stale")}; })()`, &v)
	return v
}

// waitView waits until what the page shows of the reader's place is as ok wants it, and returns
// it; it fails the test with what it showed last after 30 s. The tree draws its rows (the
// selected one among them) a frame or more after the state that asks for them.
func waitView(t testing.TB, b *browsertest.Browser, what string, ok func(view) bool) view {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v := readView(b)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s; the page shows\n%+v", what, v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBrowserEditsKeepPlace edits the text around a chosen field: the message and the field
// stay chosen; a digit deleted (the text unreadable for a moment) keeps the decode on screen,
// marked stale, with the error on the line being typed; a long paste with one bad character
// shows every message that reads and selects the character in the text box.
func TestBrowserEditsKeepPlace(t *testing.T) {
	b, _ := open(t, "")
	ex := exampleIndex(t, "Update, key changed")
	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(ex)+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	st := web.StateOfExample(ex)
	msgLine := st.Doc.Messages[st.Msg].Line // the Update's line in the text
	waitJS(b, `document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message `+strconv.Itoa(st.Msg+1)+`: Update") &&
		[...document.querySelectorAll(".tnode .t-label")].some((e) => e.textContent === "Value")`)
	var node string
	b.Eval(`(() => { for (const e of document.querySelectorAll(".tnode")) if (e.querySelector(".t-label").textContent === "Value") return e.dataset.node; return ""; })()`, &node)
	b.Click(`.tnode[data-node="` + node + `"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='`+node+`']")`)
	before := waitView(t, b, "the Value chosen", func(v view) bool { return v.Selected == "Value @"+node })

	// A blank line typed at the end.
	var text string
	b.Eval(`document.querySelector("#input-text").value`, &text)
	typeKeys(b, len(text), "\r")
	// Nothing is to change: once the tree has drawn the rows of its view, the place is the same.
	treeSettled(t, b)
	if got := readView(b); got != before {
		t.Errorf("after a line typed at the end the page shows\n%+v\nwant\n%+v", got, before)
	}

	// The Update's line loses its last digit: an odd number of digits.
	b.Eval(`document.querySelector("#input-text").value`, &text)
	lines := strings.Split(text, "\n")
	end := len(strings.Join(lines[:msgLine], "\n"))
	last := lines[msgLine-1][len(lines[msgLine-1])-1:]
	typeKeys(b, end, "\b")
	want := "line " + strconv.Itoa(msgLine) + ","
	waitView(t, b, "with a digit deleted, the same place, stale, and an error at "+want, func(v view) bool {
		return v.Stale && v.Title == before.Title && v.Selected == before.Selected && strings.Contains(v.Error, want)
	})
	// Typed back: read again, the same place.
	typeKeys(b, end-1, last)
	waitView(t, b, fmt.Sprintf("with the digit typed back, the same place: %+v", before), func(v view) bool { return v == before })
	treeSettled(t, b)

	// A long paste with one bad character.
	long := corpus(t, "pg17-text")
	ls := strings.Split(long, "\n")
	bad := len(ls) / 2
	for !strings.HasPrefix(ls[bad], "0/") {
		bad++
	}
	col := len(ls[bad]) - 3
	ls[bad] = ls[bad][:col] + "g" + ls[bad][col+1:]
	pasteText := strings.Join(ls, "\n")
	at := len(strings.Join(ls[:bad], "\n")) + 1 + col // ASCII: bytes are UTF-16 units
	paste(b, pasteText)
	waitJS(b, `/^[0-9]{4} messages/.test(document.querySelector(".input-status").textContent)`)
	var sel struct {
		Start, End, Top int
		Focused         bool
	}
	b.Eval(`(async () => { const ta = document.querySelector("#input-text");
		while (ta.selectionStart !== `+strconv.Itoa(at)+`) await new Promise((r) => requestAnimationFrame(r));
		return {Start: ta.selectionStart, End: ta.selectionEnd, Top: ta.scrollTop, Focused: document.activeElement === ta}; })()`, &sel)
	if sel.End != at+1 || !sel.Focused || sel.Top == 0 {
		t.Errorf("the bad character at %d: selected %d-%d, focused %v, text box scrolled to %d", at, sel.Start, sel.End, sel.Focused, sel.Top)
	}
	want = "line " + strconv.Itoa(bad+1) + ", column " + strconv.Itoa(col+1)
	waitView(t, b, "after a paste with a bad character, the error at "+want, func(v view) bool { return strings.Contains(v.Error, want) && !v.Stale })
	if b.Count(".mrow[data-msg]") == 0 {
		t.Errorf("after a paste with a bad character the list shows no message")
	}
}
