package web_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
)

// Waits of the browser tests for the exact state they assert, in Chromium and Firefox.

// poll waits until the JavaScript expression state is "", which it evaluates to when the page
// shows what the test waits for; otherwise it says what the page shows instead. An expression
// that throws (an element not drawn yet) counts as not there yet and says what it threw. It
// fails the test with the last of these after 30 s, saying what it waited for.
func poll(t testing.TB, b browsertest.Tab, what, state string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	guarded := `(() => { try { return String(` + state + `); } catch (e) { return "threw " + e; } })()`
	for {
		var seen string
		b.Eval(guarded, &seen)
		if seen == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s; last seen: %s", what, seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitFor waits until the JavaScript condition cond holds, and fails the test after 30 s with
// what the JavaScript expression seen gave last.
func waitFor(t testing.TB, b browsertest.Tab, what, cond, seen string) {
	t.Helper()
	poll(t, b, what, `(`+cond+`) ? "" : "last seen: " + String(`+seen+`)`)
}

// treeSettled waits until the tree draws exactly the rows of its view: every row its box
// shows, and hexview.Overscan rows beyond each edge where there are such rows, as
// hexview.Viewport.Window chooses them for the box's scrollTop and clientHeight. vecty draws
// the rows a frame after the state that asks for them, and the tree learns its box's height
// from the layout after it is first drawn (until then it draws a screenful): a test that
// reads or compares the tree reads it once it has settled.
func treeSettled(t testing.TB, b browsertest.Tab) {
	t.Helper()
	listSettled(t, b, "the tree", ".tree", ".tnode")
}

// listSettled waits until the virtual list in the box matching boxSel draws exactly the rows
// (matching rowSel) of its view, as treeSettled does for the tree.
func listSettled(t testing.TB, b browsertest.Tab, what, boxSel, rowSel string) {
	t.Helper()
	poll(t, b, what+" draws the rows of its view", `(() => {
		const h = `+strconv.Itoa(hexview.RowHeight)+`, over = `+strconv.Itoa(hexview.Overscan)+`, box = document.querySelector(`+jsQuote(boxSel)+`);
		if (!box) return "no `+boxSel+`";
		const total = Math.round(parseFloat(box.querySelector(".vspace").style.height) / h);
		const n = Math.min(total, Math.ceil(box.clientHeight / h) + 1 + 2 * over);
		const first = Math.min(Math.max(Math.floor(box.scrollTop / h) - over, 0), total - n);
		const want = [];
		for (let i = first; i < first + n; i++) want.push(i);
		const drawn = [...box.querySelectorAll(`+jsQuote(rowSel)+`)].map((e) => Math.round(parseFloat(e.style.top) / h)).sort((x, y) => x - y);
		return drawn.join(",") === want.join(",") ? "" : "a box " + box.clientHeight + " px tall scrolled to " + box.scrollTop + ", " +
			total + " rows: rows " + drawn.join(",") + " drawn, want " + want.join(",");
	})()`)
}

// rowsJS evaluates to the tree rows drawn, "label = value" a line, in the order of the rows.
const rowsJS = `[...document.querySelectorAll(".tnode")].sort((x, y) => parseFloat(x.style.top) - parseFloat(y.style.top)).map((e) => e.querySelector(".t-label").textContent + " = " + e.querySelector(".t-value").textContent).join("\n")`

// waitRows waits until the tree has settled (treeSettled) and its rows hold each of want, and
// returns them.
func waitRows(t testing.TB, b browsertest.Tab, want ...string) string {
	t.Helper()
	treeSettled(t, b)
	poll(t, b, "the tree shows "+strings.Join(want, ", "), `((rows, want) => want.every((w) => rows.includes(w)) ? "" : rows)(`+rowsJS+`, `+jsList(want)+`)`)
	return rows(b)
}

// waitSameRows waits until the tree has settled and its rows are exactly want.
func waitSameRows(t testing.TB, b browsertest.Tab, want string) {
	t.Helper()
	treeSettled(t, b)
	poll(t, b, "the tree shows the rows it showed before:\n"+want, `((rows) => rows === `+jsQuote(want)+` ? "" : rows)(`+rowsJS+`)`)
}

// waitText waits until the first element matching selector holds exactly want.
func waitText(t testing.TB, b browsertest.Tab, selector, want string) {
	t.Helper()
	poll(t, b, selector+" says "+want, `((e) => !e ? "no `+strings.ReplaceAll(selector, `"`, `'`)+`" : e.textContent === `+jsQuote(want)+` ? "" : e.textContent)(document.querySelector(`+jsQuote(selector)+`))`)
}

// jsList writes strings as a JavaScript array.
func jsList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = jsQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// rows returns the tree rows drawn, "label = value" a line, in the order of the rows.
func rows(b browsertest.Tab) string {
	var s string
	b.Eval(rowsJS, &s)
	return s
}
