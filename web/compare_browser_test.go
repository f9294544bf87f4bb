//go:build !js

package web_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// decodedWhole returns the page's Doc of text, decoded whole.
func decodedWhole(t testing.TB, text string) *web.Doc {
	t.Helper()
	s, _ := web.Apply(web.NewState(-1), web.SetText{Text: text})
	if s.Doc == nil {
		t.Fatalf("the text does not read: %v", s.InputErr)
	}
	for !s.Doc.Complete() {
		s, _ = web.Apply(s, web.DecodeMore{})
	}
	return s.Doc
}

// pasteAt1400 sizes the window 1400×900 and pastes text, and waits until it is decoded.
func pasteAt1400(t *testing.T, br browsertest.Tab, text string) {
	t.Helper()
	br.SetViewport(1400, 900)
	waitFor(t, br, "the window's size", `innerWidth === 1400 && innerHeight === 900`, `innerWidth + "x" + innerHeight`)
	paste(br, text)
	waitFor(t, br, "the capture decoded", `document.querySelector(".input-status").textContent.startsWith(`+jsQuote(pastedStatus(t, text))+`)`,
		`document.querySelector(".input-status").textContent`)
}

// chooseMessage scrolls the message list to message m's row and clicks it.
func chooseMessage(t *testing.T, br browsertest.Tab, d *web.Doc, m int) {
	t.Helper()
	br.Eval(`document.querySelector(".msg-list").scrollTop = `+strconv.Itoa(d.RowOf[m]*hexview.RowHeight), nil)
	waitFor(t, br, "message "+strconv.Itoa(m+1)+" drawn", `!!document.querySelector("#m-`+strconv.Itoa(m)+`")`, `document.querySelector(".msg-list").scrollTop`)
	br.Click("#m-" + strconv.Itoa(m) + " .m-type")
	waitFor(t, br, "message "+strconv.Itoa(m+1)+" chosen", `document.querySelector("#hex-title").textContent.startsWith("Bytes of message `+strconv.Itoa(m+1)+`:")`,
		`document.querySelector("#hex-title").textContent`)
}

// TestBrowsersCompare pins the first Insert of the table of many types in a real capture
// (PostgreSQL 18, text) with "Compare…" and chooses the second in the list: the comparison
// takes the tree's place, moving no panel; the id's value is marked as differing, "1" beside
// "2"; the panel passes axe; the keyboard scrolls it to its last row; a click on the chosen
// message's value selects its bytes in the hex view; the DOM is the same for a comparison of
// twice the rows; Enter on the button closes it.
func TestBrowsersCompare(t *testing.T) {
	text := corpus(t, "pg18-text")
	d := decodedWhole(t, text)
	a, b := web.NthChange(t, d, 'I', "public.types", 1), web.NthChange(t, d, 'I', "public.types", 2)
	c := web.Compare(d.Trees[a], d.Trees[b], a, b)
	idRow := web.ValueRow(t, c, 1)
	if c.Rows[idRow].Diff != web.DiffValue {
		t.Fatalf("the model: id's row %d", idRow)
	}
	// Twice the rows: the Relation message of the table beside its Insert.
	rel := -1
	for i, tr := range d.Trees {
		if tr.Type == 'R' && i < a {
			rel = i
		}
	}
	wide := web.Compare(d.Trees[rel], d.Trees[b], rel, b)
	if len(wide.Rows) < 2*len(c.Rows) {
		t.Fatalf("%d rows beside %d", len(wide.Rows), len(c.Rows))
	}
	const rects = `[...document.querySelectorAll(".panel")].map((e) => { const r = e.getBoundingClientRect();
		return e.classList[1] + "@" + [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","); }).join(" ")`
	const why = `(document.querySelector(".change-why") || {}).textContent`
	const title = `document.querySelector("#tree-title").textContent`
	h := strconv.Itoa(hexview.RowHeight)
	rowAt := func(r int) string {
		return `[...document.querySelectorAll(".change-list .crow")].find((e) => Math.round(parseFloat(e.style.top) / ` + h + `) === ` + strconv.Itoa(r) + `)`
	}
	ma, mb := strconv.Itoa(a+1), strconv.Itoa(b+1)
	eachBrowser(t, "", func(t *testing.T, br browsertest.Tab, _ string) {
		pasteAt1400(t, br, text)
		choose := func(m int) { chooseMessage(t, br, d, m) }
		choose(a)
		var before, after string
		br.Eval(rects, &before)
		br.Click(".compare-toggle")
		waitFor(t, br, "message "+ma+" pinned", why+` === "Message `+ma+` is pinned: choose another message in the list to compare it with." &&
			document.querySelector(".compare-toggle").getAttribute("aria-pressed") === "true" && `+title+` === "Compare"`, why)
		choose(b)
		want := "Message " + ma + ", pinned, beside message " + mb + ", chosen in the list. Fields: " + strconv.Itoa(c.Count[web.DiffValue]) + " differ (≠). The hex view marks their bytes in message " + mb + "."
		waitFor(t, br, "the comparison", why+` === `+jsQuote(want), why)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		br.Eval(rects, &after)
		if after != before {
			t.Errorf("the comparison moved the panels:\n before %s\n after  %s", before, after)
		}
		var head string
		br.Eval(`[...document.querySelector(".change-head").children].map((e) => e.textContent).join(" | ")`, &head)
		if head != "field | message "+ma+" | message "+mb {
			t.Errorf("the heads: %s", head)
		}
		axeSerious(t, br, br.Name()+", the comparison")

		// The id's value, marked.
		br.Eval(`document.querySelector(".change-list").scrollTop = `+strconv.Itoa((idRow-5)*hexview.RowHeight), nil)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		var cells string
		br.Eval(`(() => { const r = `+rowAt(idRow)+`; return r.classList.contains("changed") + " | " +
			[...r.children].map((e) => e.textContent.trim()).join(" | "); })()`, &cells)
		if want := "true | Value ≠ | \"1\" | \"2\""; cells != want {
			t.Errorf("the id's row: %s, want %s", cells, want)
		}
		// A click on the chosen message's value selects its bytes.
		br.Eval(`(`+rowAt(idRow)+`).querySelector(".c-new").click()`, nil)
		off := strconv.Itoa(c.B.Nodes[c.Rows[idRow].B].Offset)
		waitFor(t, br, "its bytes selected", `(() => { const s = [...document.querySelectorAll(".hv-hex .hv-seg.sel")];
			return s.length > 0 && +s[0].dataset.o === `+off+`; })()`,
			`[...document.querySelectorAll(".hv-hex .hv-seg.sel")].map((e) => e.dataset.o).join(",")`)

		// The keyboard: End scrolls to the last row.
		br.Eval(`document.querySelector(".change-list").focus()`, nil)
		br.Press("End")
		last := len(c.Rows) - 1
		waitFor(t, br, "the last row", `!!(`+rowAt(last)+`)`, `document.querySelector(".change-list").scrollTop`)
		listSettled(t, br, "the comparison", ".change-list", ".crow")

		// The DOM does not grow with the rows: a row per row in view (and the overscan), four
		// elements each, however many rows there are. (The sentence above the rows takes the
		// lines it needs, so the box's height, and the rows in view, vary with it.)
		dom := `(() => { const box = document.querySelector(".change-list"), rows = box.querySelectorAll(".crow").length;
			const bound = Math.ceil(box.clientHeight / ` + h + `) + 1 + 2 * ` + strconv.Itoa(hexview.Overscan) + `;
			return (box.querySelectorAll("*").length === 1 + 4 * rows && rows <= bound) + " " + rows + " rows drawn, at most " + bound; })()`
		var small, large string
		br.Eval(`document.querySelector(".change-list").scrollTop = 0`, nil)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		br.Eval(dom, &small)
		// Enter on the button closes the comparison.
		br.Eval(`document.querySelector(".compare-toggle").focus()`, nil)
		br.Press("Enter")
		waitFor(t, br, "the tree back", title+` === "Fields" && !document.querySelector(".change-list") &&
			document.querySelector(".compare-toggle").getAttribute("aria-pressed") === "false"`, title)
		choose(rel)
		br.Click(".compare-toggle")
		choose(b)
		waitFor(t, br, "the wide comparison", why+`.startsWith("Message `+strconv.Itoa(rel+1)+`, pinned, beside message `+mb+`")`, why)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		br.Eval(dom, &large)
		if !strings.HasPrefix(small, "true ") || !strings.HasPrefix(large, "true ") {
			t.Errorf("the comparison of %d rows: %s; of %d rows: %s", len(c.Rows), small, len(wide.Rows), large)
		}
	})
}

// TestBrowsersCompareMarksBytes pins the first Insert of the table of many types in a real
// capture (PostgreSQL 18, text) and chooses a later Insert of it, inside a streamed
// transaction: the hex view marks (k-diff) exactly the bytes of the chosen message's fields
// whose values differ and of its Xid, which only it has, as web.Compare's rows and the tree's
// byte ranges say; closing the comparison takes the marks off.
func TestBrowsersCompareMarksBytes(t *testing.T) {
	text := corpus(t, "pg18-text")
	d := decodedWhole(t, text)
	a, b := web.TypesInsertPair(t, d)
	c := web.Compare(d.Trees[a], d.Trees[b], a, b)
	var want []int
	for _, row := range c.Rows {
		if row.B >= 0 && row.Diff != web.DiffSame && c.B.IsLeaf(int(row.B)) {
			n := &c.B.Nodes[row.B]
			for off := n.Offset; off < n.Offset+n.Length; off++ {
				want = append(want, off)
			}
		}
	}
	slices.Sort(want)
	if c.Count[web.DiffValue] == 0 || c.Count[web.DiffOnlyB] == 0 || len(want) == 0 || len(want) >= len(c.B.Bytes) {
		t.Fatalf("the pair: %v, %d of %d bytes differ", c.Count, len(want), len(c.B.Bytes))
	}
	// The bytes drawn and those marked, as offsets: each segment's first offset and its pairs.
	const drawn = `(() => { const all = [], marked = [];
		for (const e of document.querySelectorAll(".hv-hex .hv-seg")) {
			const n = e.textContent.trim().split(" ").filter((x) => x).length;
			for (let k = 0; k < n; k++) { all.push(+e.dataset.o + k); if (e.classList.contains("k-diff")) marked.push(+e.dataset.o + k); }
		}
		return {All: all.length, Marked: marked.sort((x, y) => x - y)}; })()`
	type marks struct {
		All    int
		Marked []int
	}
	mb := strconv.Itoa(b + 1)
	eachBrowser(t, "", func(t *testing.T, br browsertest.Tab, _ string) {
		pasteAt1400(t, br, text)
		choose := func(m int) { chooseMessage(t, br, d, m) }
		choose(a)
		br.Click(".compare-toggle")
		waitFor(t, br, "the message pinned", `document.querySelector(".compare-toggle").getAttribute("aria-pressed") === "true"`,
			`document.querySelector(".compare-toggle").getAttribute("aria-pressed")`)
		choose(b)
		// Every byte of the message drawn (it fits the box), some marked.
		waitFor(t, br, "the bytes marked", `(() => { const m = `+drawn+`; return m.All === `+strconv.Itoa(len(c.B.Bytes))+` && m.Marked.length > 0; })()`,
			`JSON.stringify(`+drawn+`)`)
		var got marks
		br.Eval(drawn, &got)
		if !slices.Equal(got.Marked, want) {
			t.Errorf("message %s: bytes marked %v, want %v", mb, got.Marked, want)
		}
		// Closed, the comparison leaves no mark.
		br.Click(".compare-toggle")
		waitFor(t, br, "the marks gone", `document.querySelector(".compare-toggle").getAttribute("aria-pressed") === "false" &&
			document.querySelectorAll(".hv-seg.k-diff").length === 0 && `+drawn+`.All === `+strconv.Itoa(len(c.B.Bytes)),
			`JSON.stringify(`+drawn+`)`)
	})
}

// TestBrowsersCompareSteps pins the first Insert of the table of many types in a real capture
// (PostgreSQL 18, text) and chooses a later Insert of it, inside a streamed transaction: n and
// "Next difference" step through the differing fields (web.Compare's rows) from the top and
// wrap around past the last, p and "Previous difference" go back and wrap from the top to the
// last, the list scrolling to the row and the hex view selecting the chosen message's field;
// the buttons take Enter; n typed in the filter box or the edit box is typing, not a step.
func TestBrowsersCompareSteps(t *testing.T) {
	text := corpus(t, "pg18-text")
	d := decodedWhole(t, text)
	a, b := web.TypesInsertPair(t, d)
	c := web.Compare(d.Trees[a], d.Trees[b], a, b)
	var diffs []int
	for r, row := range c.Rows {
		if tr, i := c.Node(r); row.Diff != web.DiffSame && tr.IsLeaf(i) {
			diffs = append(diffs, r)
		}
	}
	idRow := web.ValueRow(t, c, 1)
	last := diffs[len(diffs)-1]
	if len(diffs) < 3 || c.Rows[idRow].B < 0 {
		t.Fatalf("%d differing rows; the id's row %d", len(diffs), idRow)
	}
	h := strconv.Itoa(hexview.RowHeight)
	// The row marked current, if drawn and in the box's view, else -1; and the first selected byte.
	state := `(() => { const box = document.querySelector(".change-list"), r = box && box.querySelector(".crow.current");
		const s = document.querySelector(".hv-hex .hv-seg.sel");
		let row = -2;
		if (r) { const a = r.getBoundingClientRect(), b = box.getBoundingClientRect();
			row = a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5 ? Math.round(parseFloat(r.style.top) / ` + h + `) : -3; }
		return row + ":" + (s ? s.dataset.o : "-"); })()`
	// want is what state says at row r: the row, and the offset of the chosen message's field.
	want := func(r int) string {
		if r < 0 {
			return "-2:-"
		}
		if bn := c.Rows[r].B; bn >= 0 {
			return strconv.Itoa(r) + ":" + strconv.Itoa(c.B.Nodes[bn].Offset)
		}
		return strconv.Itoa(r) + ":-"
	}
	eachBrowser(t, "", func(t *testing.T, br browsertest.Tab, _ string) {
		pasteAt1400(t, br, text)
		chooseMessage(t, br, d, a)
		br.Click(".compare-toggle")
		waitFor(t, br, "the message pinned", `document.querySelector(".compare-toggle").getAttribute("aria-pressed") === "true"`,
			`document.querySelector(".compare-toggle").getAttribute("aria-pressed")`)
		chooseMessage(t, br, d, b)
		waitFor(t, br, "the comparison", `(document.querySelector(".change-why") || {}).textContent.startsWith("Message `+strconv.Itoa(a+1)+`, pinned, beside message `+strconv.Itoa(b+1)+`")`,
			`(document.querySelector(".change-why") || {}).textContent`)
		step := func(what string, r int) {
			t.Helper()
			waitFor(t, br, what+": row "+strconv.Itoa(r), state+` === `+jsQuote(want(r)), state)
		}

		// Typing n in the edit box (the id's value selected by a click) or the filter box is
		// typing: the key is not taken (a step would be drawn in the keydown itself).
		br.Eval(`document.querySelector(".change-list").scrollTop = `+strconv.Itoa(max(idRow-5, 0)*hexview.RowHeight), nil)
		listSettled(t, br, "the comparison", ".change-list", ".crow")
		br.Eval(`[...document.querySelectorAll(".change-list .crow")].find((e) => Math.round(parseFloat(e.style.top) / `+h+`) === `+strconv.Itoa(idRow)+`).querySelector(".c-new").click()`, nil)
		waitFor(t, br, "the edit box", `!!document.querySelector("#edit-value")`, `document.querySelector(".desc-panel").textContent`)
		for _, box := range []string{"#edit-value", "#filter"} {
			var before string
			br.Eval(`(() => { const e = document.querySelector("`+box+`"); e.focus(); e.setSelectionRange(e.value.length, e.value.length); return e.value; })()`, &before)
			br.Press("n")
			waitFor(t, br, "n typed in "+box, `document.querySelector("`+box+`").value === `+jsQuote(before+"n"), `document.querySelector("`+box+`").value`)
			var got string
			br.Eval(`document.querySelector(".change-list .crow.current") ? "a row is current" : ""`, &got)
			if got != "" {
				t.Errorf("n in %s: %s", box, got)
			}
			br.Eval(`document.querySelector("`+box+`").value = `+jsQuote(before), nil)
		}

		// n from the list: the first difference; p: back past the top to the last.
		br.Eval(`document.querySelector(".change-list").focus()`, nil)
		br.Press("n")
		step("n", diffs[0])
		br.Press("p")
		step("p past the top", last)
		br.Press("p")
		step("p", diffs[len(diffs)-2])
		br.Press("n")
		step("n", last)
		// The buttons: Next past the last wraps to the first; Enter on Previous goes back.
		br.Click(`button[aria-label="Next difference"]`)
		step("Next difference past the last", diffs[0])
		br.Click(`button[aria-label="Next difference"]`)
		step("Next difference", diffs[1])
		br.Eval(`document.querySelector('button[aria-label="Previous difference"]').focus()`, nil)
		br.Press("Enter")
		step("Enter on Previous difference", diffs[0])
		// n with the focus on a button still steps.
		br.Press("n")
		step("n on the button", diffs[1])
	})
}
