//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// openExample chooses the example called name in the menu and waits until its message is
// shown, titled title.
func openExample(t *testing.T, b browsertest.Tab, name, title string) {
	t.Helper()
	i := -1
	for k := range web.Examples {
		if web.Examples[k].Name == name {
			i = k
		}
	}
	if i < 0 {
		t.Fatalf("no example %q", name)
	}
	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(i)+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	until(b, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[i].Description)+` &&
		document.querySelector(".hex-panel h2").textContent.startsWith(`+jsQuote(title)+`)`)
}

// changeRows returns the before and after's rows drawn: "name|old|new" a line, changed rows
// marked with a leading "*".
func changeRows(b browsertest.Tab) string {
	var s string
	b.Eval(`[...document.querySelectorAll(".change-list .crow")].sort((x, y) => parseFloat(x.style.top) - parseFloat(y.style.top)).map((r) =>
		(r.classList.contains("changed") ? "*" : "") + [...r.children].map((c) => c.textContent).join("|")).join("\n")`, &s)
	return s
}

// TestBrowsersBeforeAfter shows an Update's old key and new row side by side, the changed key
// column marked; a value clicked selects its bytes; other messages show the tree.
func TestBrowsersBeforeAfter(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		openExample(t, b, "Update, key changed", "Bytes of message 7: Update")
		b.Click(".change-toggle")
		until(b, `document.querySelector(".tree-panel h2").textContent === "Before and after" && document.querySelectorAll(".change-list .crow").length === 3`)
		want := `id|"2"|"2"` + "\n" + `*code|"b"|"c"` + "\n" + `v|not in the key|null`
		if got := changeRows(b); got != want {
			t.Errorf("rows:\n%s\nwant:\n%s", got, want)
		}
		if got := b.Text(".change-why"); !strings.Contains(got, "a key column changed (code)") || !strings.Contains(got, "USING INDEX") {
			t.Errorf("why: %q", got)
		}
		if got := b.Text(".change-head .c-old"); got != "old ('K')" {
			t.Errorf("old column headed %q", got)
		}
		axeSerious(t, b, b.Name()+", an Update before and after")
		// The new code's value selects its bytes: "c", one byte.
		b.Click(".crow.changed .c-new")
		until(b, `document.querySelector(".crow.changed .c-new.selected") && document.querySelector(".hv-seg.sel") &&
			document.querySelector(".desc-name").textContent === "Value"`)
		if hex, _ := selection(b); hex != "63" {
			t.Errorf("selected bytes %q, want 63", hex)
		}
		// The Commit has no before and after: the tree is back, the button stays in place.
		b.Click(`.mrow[data-msg="7"]`)
		until(b, `document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 8: Commit") &&
			document.querySelector(".change-toggle").disabled && document.querySelector(".tree-panel h2").textContent === "Fields" &&
			document.querySelector(".tnode")`)
		// An Update whose new row leaves a TOAST value out, and no old part.
		openExample(t, b, "Update, unchanged TOAST", "Bytes of message 6: Update")
		until(b, `document.querySelectorAll(".change-list .crow").length === 3`)
		want = `id|—|"1"` + "\n" + `big|—|not sent (unchanged TOAST value)` + "\n" + `small|—|"1"`
		if got := changeRows(b); got != want {
			t.Errorf("unchanged TOAST rows:\n%s\nwant:\n%s", got, want)
		}
		if got := b.Text(".change-why"); !strings.HasPrefix(got, "No old part ('N' only)") {
			t.Errorf("why: %q", got)
		}
		b.Click(".change-toggle")
		until(b, `document.querySelector(".tree-panel h2").textContent === "Fields" && !document.querySelector(".change") && document.querySelector(".tnode")`)
	})
}

// TestBrowserBeforeAfterScreenshot takes the before and after's picture for the README
// (docs/before-after.png with -update-screenshot): an Update under REPLICA IDENTITY FULL.
func TestBrowserBeforeAfterScreenshot(t *testing.T) {
	b, _ := open(t, "")
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400`)
	openExample(t, b, "Update, replica identity full", "Bytes of message 7: Update")
	b.Click(".change-toggle")
	waitJS(b, `document.querySelectorAll(".change-list .crow.changed").length === 1`)
	b.Click(".crow.changed .c-new")
	waitJS(b, `document.querySelector(".crow.changed .c-new.selected") && document.querySelector(".hv-seg.sel")`)
	frame(b)
	path := t.TempDir() + "/before-after.png"
	if *updateScreenshot {
		path = "../docs/before-after.png"
	}
	b.Screenshot(path)
}

// TestBrowsersBeforeAfterFits: at every window size the layout tests use, the sentence on why
// the old part is what it is shows whole, without scrolling its box, and showing the before and
// after in the tree's place moves no panel.
func TestBrowsersBeforeAfterFits(t *testing.T) {
	// Where each panel is on the page (a narrow window scrolls the page to the button clicked).
	const rects = `[...document.querySelectorAll(".panel")].map((e) => { const r = e.getBoundingClientRect();
		return e.classList[1] + "@" + [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","); }).join(" ")`
	const fits = `(() => { const e = document.querySelector(".change-why"); return !!e && e.clientHeight > 0 && e.scrollHeight <= e.clientHeight + 1; })()`
	const whySeen = `(() => { const e = document.querySelector(".change-why"); return e ? e.scrollHeight + " px of text in a " + e.clientHeight + " px box" : "no sentence"; })()`
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		for _, size := range windowSizes {
			w, h := size[0], size[1]
			where := b.Name() + " at " + strconv.Itoa(w) + "x" + strconv.Itoa(h)
			b.SetViewport(w, h)
			waitFor(t, b, where+": the window's size", `innerWidth === `+strconv.Itoa(w)+` && innerHeight === `+strconv.Itoa(h), `innerWidth + "x" + innerHeight`)
			openExample(t, b, "Update, unchanged TOAST", "Bytes of message 6: Update")
			waitFor(t, b, where+": the tree", `document.querySelector(".tree-panel h2").textContent === "Fields" && document.querySelector(".tnode")`,
				`document.querySelector(".tree-panel h2").textContent`)
			var before, after string
			b.Eval(rects, &before)
			b.Click(".change-toggle")
			waitFor(t, b, where+": the before and after", `document.querySelectorAll(".change-list .crow").length === 3 && `+fits, whySeen)
			b.Eval(rects, &after)
			if after != before {
				t.Errorf("%s: showing the before and after moved the panels:\n before %s\n after  %s", where, before, after)
			}
			// The whole old row's sentence, in the same place.
			openExample(t, b, "Update, replica identity full", "Bytes of message 7: Update")
			waitFor(t, b, where+": the whole old row's sentence", `document.querySelector(".change-why").textContent.startsWith("The old part is the whole old row") && `+fits, whySeen)
			b.Click(".change-toggle")
			waitFor(t, b, where+": the tree back", `document.querySelector(".tree-panel h2").textContent === "Fields" && !document.querySelector(".change")`,
				`document.querySelector(".tree-panel h2").textContent`)
		}
	})
}
