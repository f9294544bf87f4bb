//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// listed returns the data-msg of the message rows drawn, in order, comma-separated.
func listed(b browsertest.Tab) string {
	var s string
	b.Eval(`[...document.querySelectorAll(".mrow[data-msg]")].sort((x, y) => parseFloat(x.style.top) - parseFloat(y.style.top)).map((e) => e.dataset.msg).join(",")`, &s)
	return s
}

// typeFilter types query into the filter box key by key and presses Enter.
func typeFilter(b browsertest.Tab, query string) {
	b.Click(".filter")
	for _, k := range query {
		b.Press(string(k))
	}
	b.Press("Enter")
}

// TestBrowsersFilter filters the Origin example's list by typing a query: the list, the hex
// view and the tree follow; the arrows move among the messages shown; a share link keeps the
// filter; an empty box shows every message again.
func TestBrowsersFilter(t *testing.T) {
	ex := -1
	for i := range web.Examples {
		if web.Examples[i].Name == "Origin" {
			ex = i
		}
	}
	if ex < 0 {
		t.Fatal("no Origin example")
	}
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(ex)+`";
			s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
		until(b, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[ex].Description)+` &&
			document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 8: Origin")`)
		// The Origin (message 8) is left out: the next Insert, message 9, is shown.
		typeFilter(b, "type:I")
		until(b, `document.querySelector(".list-panel h2").textContent === "Messages (4 of 10)" &&
			document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 9: Insert") &&
			document.querySelector(".mrow[data-msg]") !== null`)
		if got := listed(b); got != "2,3,4,8" {
			t.Errorf("rows of messages %s, want 2,3,4,8", got)
		}
		// Assistive technology hears "1 of 4" … "4 of 4", not the places among all ten.
		waitFor(t, b, "the filtered rows' places", `[...document.querySelectorAll(".mrow[data-msg]")].sort((x, y) => parseFloat(x.style.top) - parseFloat(y.style.top)).map((e) =>
			e.getAttribute("aria-posinset") + "/" + e.getAttribute("aria-setsize")).join(",") === "1/4,2/4,3/4,4/4"`,
			`[...document.querySelectorAll(".mrow[data-msg]")].map((e) => e.dataset.msg + ":" + e.getAttribute("aria-posinset") + "/" + e.getAttribute("aria-setsize")).join(",")`)
		if got := b.Text(".filter-status"); got != "4 messages match" {
			t.Errorf("filter status %q", got)
		}
		// The tree follows to message 9 and draws every row its box shows; scrolled to its
		// end, it draws the rows that come into view, down to column 2's value.
		until(b, `[...document.querySelectorAll(".tnode .t-value")].some((e) => e.textContent === "16402 public.rid_default")`)
		treeSettled(t, b)
		if tree := rows(b); !strings.Contains(tree, "Relation OID = 16402 public.rid_default") || !strings.Contains(tree, "column 1 (id) = int4") {
			t.Errorf("the tree does not show message 9's values:\n%s", tree)
		}
		b.Eval(`(() => { const e = document.querySelector(".tree"); e.scrollTop = e.scrollHeight; })()`, nil)
		poll(t, b, "the tree scrolled to its end shows column 2's value", `(() => {
			const e = document.querySelector(".tree");
			if (e.scrollTop === 0) return "the tree is not scrolled";
			return [...document.querySelectorAll(".tnode .t-value")].some((v) => v.textContent.includes("from corpus_origin")) ? "" :
				"values drawn: " + [...document.querySelectorAll(".tnode .t-value")].map((v) => v.textContent).join(" | ");
		})()`)
		treeSettled(t, b)
		b.Eval(`document.querySelector(".tree").scrollTop = 0`, nil)
		treeSettled(t, b)
		// The arrows in the list move among the Inserts.
		b.Click(`.mrow[data-msg="3"]`)
		until(b, `document.querySelector('.mrow.selected[data-msg="3"]')`)
		b.Press("ArrowDown")
		until(b, `document.querySelector('.mrow.selected[data-msg="4"]')`)
		b.Press("ArrowDown")
		until(b, `document.querySelector('.mrow.selected[data-msg="8"]') &&
			document.querySelector(".hex-panel h2").textContent.startsWith("Bytes of message 9: Insert")`)
		axeSerious(t, b, b.Name()+", the list filtered")

		// A query that does not read says why, and filters nothing.
		typeFilter(b, " xid:x")
		until(b, `document.querySelector(".filter-status.error") && document.querySelector(".list-panel h2").textContent === "Messages (10)"`)
		if got := b.Text(".filter-status"); got != `Not filtered: xid: expected a transaction id in decimal, found "x"` {
			t.Errorf("error %q", got)
		}
		for range len(" xid:x") {
			b.Press("Backspace")
		}
		b.Press("Enter")
		until(b, `document.querySelector(".list-panel h2").textContent === "Messages (4 of 10)"`)

		// The link keeps the filter.
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)
		o := openTab(t, b.Name(), base+hash)
		until(o, `document.querySelector(".list-panel h2").textContent === "Messages (4 of 10)" &&
			document.querySelector('.mrow.selected[data-msg="8"]')`)
		var value string
		o.Eval(`document.querySelector(".filter").value`, &value)
		if value != "type:I" {
			t.Errorf("the link's filter box holds %q", value)
		}

		// Emptying the box shows every message.
		b.Click(".filter")
		for range len("type:I") {
			b.Press("Backspace")
		}
		until(b, `document.querySelector(".list-panel h2").textContent === "Messages (10)" && document.querySelector(".filter-status").textContent === ""`)
		if got := listed(b); got != "0,1,2,3,4,5,6,7,8,9" {
			t.Errorf("unfiltered rows %s", got)
		}

		// A key typed before the emptied box is drawn again (within a frame) stays in it. (The
		// query differs from the last one entered: the browsers send no change for a query
		// typed again as it was.)
		typeFilter(b, " type:I")
		until(b, `document.querySelector(".list-panel h2").textContent === "Messages (4 of 10)"`)
		b.Eval(`(() => { const f = document.querySelector(".filter");
			f.value = ""; f.dispatchEvent(new Event("input", {bubbles: true}));
			f.value = "t"; f.dispatchEvent(new Event("input", {bubbles: true})); })()`, nil)
		until(b, `document.querySelector(".list-panel h2").textContent === "Messages (10)"`)
		b.Eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, nil)
		var typed string
		b.Eval(`document.querySelector(".filter").value`, &typed)
		if typed != "t" {
			t.Errorf("the box holds %q after t was typed into it emptied, want \"t\"", typed)
		}
		b.Press("Enter")
		poll(t, b, "the query t applied", `((e) => e && e.dataset.query === "t" ? "" : e ? e.dataset.query : "no status")(document.querySelector(".filter-status"))`)
	})
}

// TestBrowserFilterLongPaste filters a 1 MB paste of about 15,000 messages to its Stream Stops: the
// list shows them without drawing more rows (the DOM does not grow), and scrolls to the last one.
func TestBrowserFilterLongPaste(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	text := tenThousand(t)
	status := pastedStatus(t, text)
	s, _ := web.Apply(web.NewState(-1), web.SetText{Text: text})
	for !s.Doc.Complete() {
		s, _ = web.Apply(s, web.DecodeMore{})
	}
	s, _ = web.Apply(s, web.SetFilter{Query: "type:E"})
	if s.List.Matches < 500 {
		t.Fatalf("only %d Stream Stops in the paste", s.List.Matches)
	}
	last := s.List.Rows[len(s.List.Rows)-1].Msg
	title := "Messages (" + strconv.Itoa(s.List.Matches) + " of " + strconv.Itoa(len(s.Doc.Messages)) + ")"

	b, _ := open(t, "")
	paste(b, text)
	waitJS(b, `document.querySelector(".input-status").textContent === `+jsQuote(status))
	before := b.ElementCount()
	typeFilter(b, "type:E")
	waitJS(b, `document.querySelector(".list-panel h2").textContent === `+jsQuote(title))
	frame(b)
	if after := b.ElementCount(); after > before+5 {
		t.Errorf("filtering grew the page from %d to %d elements", before, after)
	}
	b.Eval(`(() => { const l = document.querySelector(".msg-list"); l.scrollTop = l.scrollHeight; })()`, nil)
	waitJS(b, `document.querySelector('.mrow[data-msg="`+strconv.Itoa(last)+`"]')`)
	var names string
	b.Eval(`[...document.querySelectorAll(".mrow[data-msg] .m-type")].map((e) => e.textContent.replace(/^[0-9]+\. /, "")).join(",")`, &names)
	for _, n := range strings.Split(names, ",") {
		if n != "E Stream Stop" {
			t.Errorf("a %q row in the list filtered to Stream Stops", n)
			break
		}
	}
	if after := b.ElementCount(); after > before+5 {
		t.Errorf("scrolling the filtered list grew the page from %d to %d elements", before, after)
	}
}
