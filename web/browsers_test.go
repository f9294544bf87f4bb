//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
)

// The page's main uses, in every browser the page supports (Chromium and Firefox): decode
// an example, select a field, hover a byte (and check the page with axe-core there), share a
// link and open it, paste a capture.

// eachBrowser runs test once per browser, as a subtest named after it, with the page served
// and opened at fragment in a new tab.
func eachBrowser(t *testing.T, fragment string, test func(t *testing.T, b browsertest.Tab, base string)) {
	if testing.Short() {
		t.Skip("browser test")
	}
	for _, name := range browsertest.Browsers {
		t.Run(name, func(t *testing.T) {
			base := browsertest.Serve(t)
			b := browsertest.StartTab(t, name)
			b.Navigate(base + fragment)
			b.WaitStarted()
			b.WaitReady("html[data-ready]")
			test(t, b, base)
		})
	}
}

// openTab opens url in a new tab of the browser named name, as another person would open a
// link, and waits until the page has started and drawn its first state.
func openTab(t *testing.T, name, url string) browsertest.Tab {
	t.Helper()
	o := browsertest.StartTab(t, name)
	o.Navigate(url)
	o.WaitStarted()
	o.WaitReady("html[data-ready]")
	return o
}

// until waits until the JavaScript expression cond is true, polling from outside the page
// (the page's CSP forbids the browsers' own waiting for a function).
func until(b browsertest.Tab, cond string) {
	b.Eval(`new Promise((r) => { const tick = () => (`+cond+`) ? r(true) : setTimeout(tick, 5); tick(); })`, nil)
}

// selection returns the hex text of the selected bytes and the offset of the first.
func selection(b browsertest.Tab) (string, int) {
	var r struct {
		Hex   string
		First int
	}
	b.Eval(`(() => { const s = [...document.querySelectorAll(".hv-hex .hv-seg.sel")];
		return {Hex: s.map((e) => e.textContent.trim()).join(" "), First: s.length ? +s[0].dataset.o : -1}; })()`, &r)
	return r.Hex, r.First
}

func TestBrowsersDecodeExample(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		until(b, `document.querySelector(".tnode")`)
		if got := b.Text(".hex-panel h2"); !strings.Contains(got, "Insert") {
			t.Errorf("hex panel title %q, want the Insert example", got)
		}
		waitRows(t, b, "Insert = public.types", "column 2 (c_bool)", "Relation OID")
		if n := b.Count(".mrow[data-msg]"); n < 5 {
			t.Errorf("the message list shows %d messages", n)
		}
	})
}

func TestBrowsersSelectFieldAndHover(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		until(b, `document.querySelector(".tnode")`)
		var node int
		b.Eval(`(() => { for (const e of document.querySelectorAll(".tnode")) if (e.querySelector(".t-label").textContent === "Relation OID") return +e.dataset.node; return -1; })()`, &node)
		if node < 0 {
			t.Fatal("no Relation OID row")
		}
		b.Click(`.tnode[data-node="` + strconv.Itoa(node) + `"]`)
		until(b, `document.querySelector('.tnode.selected[data-node="`+strconv.Itoa(node)+`"]') && document.querySelector(".hv-seg.sel")`)
		// The Insert follows the 25-byte XLogData header and its type byte: the OID is at 26.
		if hexText, first := selection(b); first != 26 || len(strings.Fields(hexText)) != 4 {
			t.Errorf("selected bytes %q from offset %d, want 4 bytes from 26", hexText, first)
		}
		waitText(t, b, ".desc-name", "Relation OID")
		// The keyboard moves on: ArrowDown selects the next node.
		b.Press("ArrowDown")
		waitText(t, b, ".tnode.selected .t-label", "New tuple marker")
		// Pointing at byte 25, the Insert's type byte, describes it.
		var box struct{ X, Y float64 }
		b.Eval(`(() => { const r = document.querySelector('.hv-hex .hv-seg[data-o="25"]').getBoundingClientRect();
			return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, &box)
		b.MoveMouse(box.X, box.Y)
		waitText(t, b, ".desc-name", "Type")
		waitText(t, b, ".tnode.hovered .t-label", "Type")
		axeSerious(t, b, b.Name()+", a field chosen, another pointed at")
	})
}

func TestBrowsersShareLinkOpensSameView(t *testing.T) {
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		until(b, `document.querySelector(".tnode")`)
		b.Click(`.mrow[data-msg="2"]`)
		until(b, `document.querySelector('.mrow.selected[data-msg="2"]')`)
		b.Click(`.tnode[data-node="4"]`)
		until(b, `document.querySelector('.tnode.selected[data-node="4"]')`)
		treeSettled(t, b)
		wantTree, wantTitle, wantDesc := rows(b), b.Text(".hex-panel h2"), b.Text(".desc-name")
		wantHex, wantFirst := selection(b)
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)
		if !strings.HasPrefix(hash, "#z1=") {
			t.Fatalf("share link %q", hash)
		}
		// Another browser of the same kind, as another person would open the link.
		o := openTab(t, b.Name(), base+hash)
		until(o, `document.querySelector('.tnode.selected[data-node="4"]')`)
		waitSameRows(t, o, wantTree)
		if got := o.Text(".hex-panel h2"); got != wantTitle {
			t.Errorf("title %q, want %q", got, wantTitle)
		}
		if got := o.Text(".desc-name"); got != wantDesc {
			t.Errorf("selected %q, want %q", got, wantDesc)
		}
		if h, f := selection(o); h != wantHex || f != wantFirst {
			t.Errorf("selected bytes %q at %d, want %q at %d", h, f, wantHex, wantFirst)
		}
	})
}

func TestBrowsersPasteCapture(t *testing.T) {
	text := corpus(t, "pg17-text")
	status := pastedStatus(t, text)
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		b.Eval(`((text) => {
			const ta = document.querySelector("#input-text");
			ta.value = text;
			ta.dispatchEvent(new Event("input", {bubbles: true}));
		})(`+jsQuote(text)+`)`, nil)
		until(b, `document.querySelector(".input-status").textContent === `+jsQuote(status))
		if got := b.Text("#format option:checked"); !strings.Contains(got, "capture") {
			t.Errorf("detected format shown as %q", got)
		}
		// The list's rows come a frame after the status.
		waitFor(t, b, "an Insert among the rows drawn", `[...document.querySelectorAll(".mrow")].some((e) => e.textContent.includes("Insert"))`,
			`[...document.querySelectorAll(".mrow")].map((e) => e.textContent).join("; ")`)
		var msg int
		b.Eval(`(() => { for (const e of document.querySelectorAll(".mrow")) if (e.textContent.includes("Insert")) return +e.dataset.msg; return -1; })()`, &msg)
		b.Click(`.mrow[data-msg="` + strconv.Itoa(msg) + `"]`)
		until(b, `document.querySelector('.mrow.selected[data-msg="`+strconv.Itoa(msg)+`"]')`)
		waitRows(t, b, "XLogData", "Start LSN", "Insert = public.types", "column 1 (id)", "Kind = 't' text")
	})
}
