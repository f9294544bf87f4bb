//go:build !js

package web_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pgoutput-inspector/internal/axecore"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

var axeSource struct {
	once sync.Once
	src  string
	err  error
}

// axeSerious runs axe-core on the page and fails the test for each serious or critical
// violation, saying in what state (where) the page was.
func axeSerious(t *testing.T, b browsertest.Tab, where string) {
	t.Helper()
	axeSource.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		axeSource.src, axeSource.err = axecore.Source(ctx)
	})
	if axeSource.err != nil {
		t.Fatal(axeSource.err)
	}
	var vs []axecore.Violation
	b.Eval(axecore.Script(axeSource.src, nil), &vs)
	for _, v := range vs {
		if v.Serious() {
			t.Errorf("%s: %s", where, v)
		} else {
			t.Logf("%s: %s", where, v)
		}
	}
}

// TestBrowserAccessibility runs axe-core on the page in the states a reader meets: the first
// example, a field chosen and another pointed at, a message with an error, the text unreadable
// while typing, the dark theme, a phone's width. No violation may be serious or critical.
func TestBrowserAccessibility(t *testing.T) {
	b, _ := open(t, "")
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400 && document.querySelector(".tnode")`)
	axeSerious(t, b, "the first example")

	b.Click(`.tnode[data-node="3"]`)
	waitJS(b, `document.querySelector(".tnode.selected[data-node='3']")`)
	hover(t, b, `.hv-hex .hv-seg[data-o="25"]`)
	waitJS(b, `document.querySelector(".desc-name") && document.querySelector(".desc-name").textContent === "Type"`)
	axeSerious(t, b, "a field chosen, another pointed at")

	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(exampleIndex(t, "Truncated Insert"))+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	waitJS(b, `document.querySelector(".decode-error")`)
	axeSerious(t, b, "a message with an error")

	var text string
	b.Eval(`document.querySelector("#input-text").value`, &text)
	typeKeys(b, len(strings.TrimRight(text, "\n")), "a")
	waitJS(b, `document.querySelector(".page.stale") && document.querySelector(".input-error")`)
	axeSerious(t, b, "the text unreadable while typing")

	// Each click's button says what the next theme is once drawn: wait for that between them.
	b.Click(".theme")
	waitJS(b, `document.documentElement.dataset.theme === "light" && document.querySelector(".theme").textContent.includes("light")`)
	b.Click(".theme")
	waitJS(b, `document.documentElement.dataset.theme === "dark"`)
	axeSerious(t, b, "the dark theme")

	b.SetViewport(390, 844)
	waitJS(b, `innerWidth === 390`)
	axeSerious(t, b, "390 px wide")
}

// waitActive waits until the list's active row (aria-activedescendant) is the row with id
// want, drawn and chosen; with want "" any row but notWant will do. The page draws the row
// (and scrolls to it) a frame or more after the key that chose it.
func waitActive(t testing.TB, b *browsertest.Browser, list, want, notWant string) {
	t.Helper()
	poll(t, b, list+"'s active row is "+want, `((l, want, notWant) => { const id = l.getAttribute("aria-activedescendant") || "";
		const e = id && document.getElementById(id);
		const chosen = !!e && l.contains(e) && e.getAttribute("aria-selected") === "true";
		return chosen && (want ? id === want : id !== notWant) ? "" : "active row " + JSON.stringify(id) + (chosen ? ", chosen" : ", not drawn or not chosen"); })(
		document.querySelector(`+jsQuote(list)+`), `+jsQuote(want)+`, `+jsQuote(notWant)+`)`)
}

// focused returns a description of the element with the focus.
func focused(b *browsertest.Browser) string {
	var s string
	b.Eval(`(() => { const e = document.activeElement; return e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "") + (e.id ? "#" + e.id : ""); })()`, &s)
	return s
}

// key presses a key and waits until the page has drawn what it led to.
func key(b *browsertest.Browser, k string, opts ...chromedp.KeyOption) {
	b.Eval(`window.__key = new Promise((r) => addEventListener("keyup", () => requestAnimationFrame(() => requestAnimationFrame(() => r(true))), {once: true})), true`, nil)
	b.Run(chromedp.KeyEvent(k, opts...))
	b.Eval(`window.__key`, nil)
}

// TestBrowserKeyboard goes through the page with the keyboard: the message list and the tree
// are one Tab stop each, the arrows, Home, End move inside them, the active row is the chosen
// one for assistive technology, the focus is visible, and Tab leaves.
func TestBrowserKeyboard(t *testing.T) {
	b, _ := open(t, "")
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400 && document.querySelector(".tnode")`)

	// From the text box, Tab goes through the controls to the message list.
	b.Run(chromedp.Focus("#input-text", chromedp.ByQuery))
	var stops []string
	for range 12 {
		key(b, kb.Tab)
		stops = append(stops, focused(b))
		if strings.Contains(stops[len(stops)-1], "msg-list") {
			break
		}
	}
	if !strings.Contains(focused(b), "msg-list") {
		t.Fatalf("Tab from the text box never reaches the message list: %v", stops)
	}
	var ring string
	b.Eval(`getComputedStyle(document.activeElement).outlineStyle`, &ring)
	if ring == "none" {
		t.Error("the message list shows no focus")
	}
	first := web.NewState(0)
	shown, last := "m-"+strconv.Itoa(first.Msg), "m-"+strconv.Itoa(len(first.Doc.Messages)-1)
	waitActive(t, b, ".msg-list", shown, "")
	key(b, kb.ArrowDown)
	waitActive(t, b, ".msg-list", "m-"+strconv.Itoa(first.Msg+1), "")
	key(b, kb.Home)
	waitActive(t, b, ".msg-list", "m-0", "")
	poll(t, b, "Home shows message 1", `((s) => s.includes("message 1:") ? "" : s)(document.querySelector(".hex-panel h2").textContent)`)
	key(b, kb.End)
	waitActive(t, b, ".msg-list", last, "")
	key(b, kb.ArrowUp)
	// One Tab leaves the list for the hex view, one more reaches the tree panel's "Compare…"
	// ("Before / after" is disabled for this message, a Commit), one more the tree.
	key(b, kb.Tab)
	if f := focused(b); !strings.Contains(f, "hv") {
		t.Errorf("Tab from the message list goes to %s, want the hex view", f)
	}
	key(b, kb.Tab)
	if f := focused(b); !strings.Contains(f, "compare-toggle") {
		t.Fatalf("Tab from the hex view goes to %s, want the tree panel's Compare button", f)
	}
	key(b, kb.Tab)
	if f := focused(b); !strings.Contains(f, "tree") {
		t.Fatalf("Tab from the Compare button goes to %s, want the tree", f)
	}
	// The keyboard brought the focus with nothing chosen: the first row is.
	waitActive(t, b, ".tree", "t-0", "")
	var mark struct{ Outline, Shadow string }
	b.Eval(`(() => { const s = getComputedStyle(document.querySelector(".tnode.selected")); return {Outline: s.outlineStyle, Shadow: s.boxShadow}; })()`, &mark)
	if mark.Outline == "none" && mark.Shadow == "none" {
		t.Error("the tree's active row is not marked while the tree has the focus")
	}
	key(b, kb.ArrowDown)
	key(b, kb.ArrowDown)
	waitActive(t, b, ".tree", "t-2", "")
	waitText(t, b, ".desc-name", "Start LSN")
	key(b, kb.End)
	waitActive(t, b, ".tree", "", "t-2")
	key(b, kb.Home)
	key(b, kb.ArrowLeft) // collapses the first node
	poll(t, b, "ArrowLeft on the first node collapses it", `((e) => e && e.getAttribute("aria-expanded") === "false" ? "" : e ? "aria-expanded " + e.getAttribute("aria-expanded") : "t-0 not drawn")(document.getElementById("t-0"))`)
	key(b, kb.ArrowRight)
	poll(t, b, "ArrowRight expands the first node", `((e) => e && e.getAttribute("aria-expanded") === "true" ? "" : e ? "aria-expanded " + e.getAttribute("aria-expanded") : "t-0 not drawn")(document.getElementById("t-0"))`)
	// Tab leaves the tree at once, Shift+Tab comes back.
	key(b, kb.Tab)
	if f := focused(b); strings.Contains(f, "tree") {
		t.Errorf("Tab keeps the focus in the tree")
	}
	key(b, kb.Tab, chromedp.KeyModifiers(input.ModifierShift))
	if f := focused(b); !strings.Contains(f, "tree") {
		t.Errorf("Shift+Tab back goes to %s, want the tree", f)
	}
	waitActive(t, b, ".tree", "t-0", "")
}
