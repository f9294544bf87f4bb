//go:build !js

package web_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// windowSizes are the windows the layout tests use: desktops, a tall one, a small laptop and a
// phone.
var windowSizes = [][2]int{{1400, 900}, {1920, 1080}, {1400, 1300}, {1000, 800}, {390, 844}}

// layoutJS gives the page helpers the layout tests call: window.__lt.
const layoutJS = `window.__lt = (() => {
	const RH = ` + "%d" + `;
	const frames = (n) => new Promise((r) => { const f = (k) => k ? requestAnimationFrame(() => f(k - 1)) : r(true); f(n); });
	// covered: every box of rows draws all the rows in its view (a render that follows a
	// scroll or a resize has happened).
	const covered = () => [...document.querySelectorAll(".vlist, .hv")].every((box) => {
		const spacer = box.firstElementChild;
		const rows = Math.round(parseFloat(spacer.style.height || "0") / RH);
		const drawn = new Set([...spacer.children].map((e) => Math.round(parseFloat(e.style.top) / RH)));
		const first = Math.floor(box.scrollTop / RH);
		const last = Math.min(Math.ceil((box.scrollTop + box.clientHeight) / RH), rows) - 1;
		for (let r = first; r <= last; r++) if (!drawn.has(r)) return false;
		return true;
	});
	// fitted: the hex view's rows fit its box (it lays out as many bytes a row as fit, once
	// it has measured the box after a resize).
	const fitted = () => { const box = document.querySelector(".hv"), b = box.getBoundingClientRect();
		return [...box.querySelectorAll(".hv-row")].every((e) => e.getBoundingClientRect().right <= b.right + 0.5); };
	const settle = async () => { while (!covered() || !fitted()) await frames(1); };
	// rects: where every panel and scroll box is, to compare before and after.
	const rects = () => [...document.querySelectorAll(".panel, .vlist, .hv, textarea")].map((e) => {
		const r = e.getBoundingClientRect();
		return (e.className || e.tagName) + "@" + [r.left, r.top, r.width, r.height].map((v) => Math.round(v)).join(",");
	}).join(" ");
	const under = (x, y) => document.elementFromPoint(x, y);
	return {frames, covered, fitted, settle, rects, under};
})();`

// layoutSetup installs the helpers and resizes the window, waiting until the page has drawn
// its rows for the new size.
func layoutSetup(t *testing.T, b *browsertest.Browser, w, h int) {
	t.Helper()
	b.SetViewport(w, h)
	b.Eval(fmt.Sprintf(layoutJS, hexview.RowHeight), nil)
	b.Eval(fmt.Sprintf(`(async () => { while (innerWidth !== %d || innerHeight !== %d) await __lt.frames(1); await __lt.settle(); })()`, w, h), nil)
}

// exampleIndex returns the index of the example named name.
func exampleIndex(t *testing.T, name string) int {
	t.Helper()
	for i, ex := range web.Examples {
		if ex.Name == name {
			return i
		}
	}
	t.Fatalf("no example %q", name)
	return -1
}

// loadExample chooses example i in the menu and waits until the page shows it as it opens: its
// description in the header, its chosen message's full title over the bytes, the error box
// under them exactly when that message has an error, nothing selected, and every box of rows
// drawn and fitted. Two examples can show the same message number with the same name (the
// truncated Insert is the binary one cut short), and choosing the example shown already
// only clears the selection: a looser wait passes on the page before the change and measures
// the old example's layout.
func loadExample(t *testing.T, b *browsertest.Browser, i int) {
	t.Helper()
	st := web.StateOfExample(i)
	if st.Doc == nil || st.Msg < 0 {
		t.Fatalf("example %d opens no message", i)
	}
	sm := st.Doc.Summaries[st.Msg]
	title := fmt.Sprintf("Bytes of message %d: %s, %d bytes", st.Msg+1, sm.Name, sm.Size)
	hasErr := st.Tree().Err != nil
	if st.Node >= 0 || !st.Sel.Empty() {
		t.Fatalf("example %d opens with a selection; loadExample waits for none", i)
	}
	b.Eval(`(() => { const s = document.querySelector("select.examples"); s.value = "`+strconv.Itoa(i)+`";
		s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	waitJS(b, `document.querySelector(".example-desc").textContent === `+jsQuote(web.Examples[i].Description)+` &&
		document.querySelector(".hex-panel h2").textContent.startsWith(`+jsQuote(title)+`) &&
		!!document.querySelector(".decode-error") === `+strconv.FormatBool(hasErr)+` &&
		!document.querySelector(".tnode.selected, .hv-seg.sel") && __lt.covered() && __lt.fitted()`)
}

// pointAt is a point on an element, what was there before the pointer came, and the layout.
type pointAt struct {
	X, Y  float64
	Key   string // what identifies the element: "node 12", "hex 25"
	Label string // the field's name, as the description names it
	Rects string
	Err   string
}

func mouse(b *browsertest.Browser, typ input.MouseType, x, y float64) {
	if typ == input.MouseMoved {
		b.Run(chromedp.MouseEvent(typ, x, y))
		return
	}
	b.Run(chromedp.MouseEvent(typ, x, y, chromedp.ButtonType(input.Left), chromedp.ClickCount(1)))
}

// hoverAndClick moves the pointer onto p and waits until the page shows it hovered
// (hoveredJS(element) is true for the element under the pointer and the description names the
// field), checks that the element under the pointer and every panel stayed where they were,
// then clicks and waits until selectedJS() gives p.Key.
func hoverAndClick(t *testing.T, b *browsertest.Browser, where string, p pointAt, keyJS, hoveredJS, selectedJS string) {
	t.Helper()
	mouse(b, input.MouseMoved, p.X, p.Y)
	var after struct {
		Key, Rects, Desc string
	}
	b.Eval(fmt.Sprintf(`(async () => {
		const hovered = () => { const d = document.querySelector(".desc-name");
			return (%s)(__lt.under(%v, %v)) && d && d.textContent === %q; };
		while (!hovered()) await __lt.frames(1);
		const e = __lt.under(%v, %v), d = document.querySelector(".desc-name");
		return {Key: (%s)(e), Rects: __lt.rects(), Desc: d ? d.textContent : ""};
	})()`, hoveredJS, p.X, p.Y, p.Label, p.X, p.Y, keyJS), &after)
	switch {
	case after.Key != p.Key:
		t.Errorf("%s: pointing at %s (%s) at (%.0f, %.0f): after the hover %q is under the pointer", where, p.Key, p.Label, p.X, p.Y, after.Key)
	case after.Rects != p.Rects:
		t.Errorf("%s: pointing at %s (%s): the panels moved:\n before %s\n after  %s", where, p.Key, p.Label, p.Rects, after.Rects)
	}
	mouse(b, input.MousePressed, p.X, p.Y)
	mouse(b, input.MouseReleased, p.X, p.Y)
	var sel string
	b.Eval(`(async () => { while ((`+selectedJS+`)() !== `+jsQuote(p.Key)+`) await __lt.frames(1); return (`+selectedJS+`)(); })()`, &sel)
	if sel != p.Key {
		t.Errorf("%s: clicking %s (%s): %q is selected", where, p.Key, p.Label, sel)
	}
}

// TestBrowserNothingMovesUnderPointer points at every row of the tree and at a sample of the
// bytes, in several examples and window sizes, and checks that the element under the pointer
// stays where it was (no panel moves when the description fills) and that a click selects it.
func TestBrowserNothingMovesUnderPointer(t *testing.T) {
	b, _ := open(t, "")
	type run struct {
		example string
		sizes   [][2]int
	}
	runs := []run{
		{"Update, key changed", windowSizes},
		{"Truncated Insert", [][2]int{{1400, 900}, {390, 844}}}, // an error box under the bytes
		// A message of 3 KB: a hex view that scrolls, fields over several rows.
		{"Insert, binary values", [][2]int{{1000, 800}}},
	}
	for _, r := range runs {
		ex := exampleIndex(t, r.example)
		for _, size := range r.sizes {
			layoutSetup(t, b, size[0], size[1])
			loadExample(t, b, ex)
			where := fmt.Sprintf("%s at %dx%d", r.example, size[0], size[1])
			pointerTree(t, b, where)
			if !t.Failed() {
				pointerBytes(t, b, where)
			}
			if t.Failed() {
				b.Screenshot(t.TempDir() + "/failed.png")
				return
			}
		}
	}
}

// pointerTree points at and clicks every row of the tree, in order.
func pointerTree(t *testing.T, b *browsertest.Browser, where string) {
	var rows int
	b.Eval(`Math.round(parseFloat(document.querySelector(".tree").firstElementChild.style.height) / `+strconv.Itoa(hexview.RowHeight)+`)`, &rows)
	if rows == 0 {
		t.Fatalf("%s: no tree rows", where)
	}
	for row := range rows {
		var p pointAt
		b.Eval(fmt.Sprintf(`(async () => {
			const RH = %d, row = %d, tree = document.querySelector(".tree");
			if (row * RH < tree.scrollTop || (row + 1) * RH > tree.scrollTop + tree.clientHeight)
				tree.scrollTop = Math.max(0, row * RH - tree.clientHeight / 2);
			await __lt.settle();
			const find = () => [...tree.querySelectorAll(".tnode")].find((e) => Math.round(parseFloat(e.style.top)) === row * RH);
			find().scrollIntoView({block: "nearest", inline: "nearest"});
			await __lt.settle();
			const el = find(), lab = el.querySelector(".t-label").getBoundingClientRect();
			const x = lab.left + Math.min(lab.width / 2, 40), y = lab.top + lab.height / 2;
			const u = __lt.under(x, y), at = u && u.closest(".tnode");
			return {X: x, Y: y, Key: "node " + el.dataset.node, Label: el.querySelector(".t-label").textContent,
				Rects: __lt.rects(), Err: at === el ? "" : "row " + row + " is covered by " + (u ? u.outerHTML.slice(0, 80) : "nothing")};
		})()`, hexview.RowHeight, row), &p)
		if p.Err != "" {
			t.Fatalf("%s: %s", where, p.Err)
		}
		hoverAndClick(t, b, where, p,
			`(e) => { const n = e && e.closest(".tnode"); return n ? "node " + n.dataset.node : (e ? e.className : "nothing"); }`,
			`(e) => !!(e && e.closest(".tnode.hovered"))`,
			`() => { const n = document.querySelector(".tnode.selected"); return n ? "node " + n.dataset.node : "none"; }`)
		if t.Failed() {
			return
		}
	}
}

// pointerBytes points at and clicks a sample of the fields drawn in the hex view, in both
// columns.
func pointerBytes(t *testing.T, b *browsertest.Browser, where string) {
	var offsets []string
	b.Eval(`(async () => { document.querySelector(".hv").scrollIntoView({block: "nearest"}); await __lt.settle();
		const box = document.querySelector(".hv").getBoundingClientRect();
		const inside = (e) => { const r = e.getBoundingClientRect();
			return r.top >= Math.max(box.top, 0) && r.bottom <= Math.min(box.bottom, innerHeight) && r.left >= box.left && r.right <= box.right; };
		const segs = [...document.querySelectorAll(".hv-hex .hv-seg")].filter(inside).map((e) => "hex " + e.dataset.o)
			.concat([...document.querySelectorAll(".hv-ascii .hv-seg")].filter(inside).map((e) => "ascii " + e.dataset.o));
		const step = Math.max(1, Math.floor(segs.length / 12));
		return segs.filter((_, i) => i % step === 0);
	})()`, &offsets)
	if len(offsets) < 4 {
		t.Fatalf("%s: only %d fields fully in view in the hex view", where, len(offsets))
	}
	for _, key := range offsets {
		col, off, _ := strings.Cut(key, " ")
		var p pointAt
		b.Eval(fmt.Sprintf(`(async () => {
			await __lt.settle();
			const el = document.querySelector(".hv-%s .hv-seg[data-o=\"%s\"]"), r = el.getBoundingClientRect();
			const x = r.left + r.width / 2, y = r.top + r.height / 2, u = __lt.under(x, y);
			return {X: x, Y: y, Key: %q, Rects: __lt.rects(), Err: u === el ? "" : %q + " is covered by " + (u ? u.outerHTML.slice(0, 80) : "nothing")};
		})()`, col, off, key, key), &p)
		if p.Err != "" {
			t.Fatalf("%s: %s", where, p.Err)
		}
		// The description names the field hovered: the label of the tree node its bytes belong to.
		p.Label = hexFieldLabel(t, b, off)
		keyJS := `(e) => { const s = e && e.closest(".hv-seg"); return s ? (s.closest(".hv-hex") ? "hex " : "ascii ") + s.dataset.o : (e ? e.className : "nothing"); }`
		hoverAndClick(t, b, where, p, keyJS,
			`(e) => !!(e && e.closest(".hv-seg.hov"))`,
			fmt.Sprintf(`() => { const e = document.querySelector(".hv-%s .hv-seg[data-o=\"%s\"]"); return e && e.classList.contains("sel") ? %q : "not selected"; }`, col, off, key))
		if t.Failed() {
			return
		}
	}
}

// hexFieldLabel returns the name the description gives the field holding byte offset off of
// the message shown: the label of the deepest tree node whose bytes hold it.
func hexFieldLabel(t *testing.T, b *browsertest.Browser, off string) string {
	t.Helper()
	var title string
	b.Eval(`document.querySelector("select.examples").value`, &title)
	ex, err := strconv.Atoi(title)
	if err != nil || ex < 0 {
		t.Fatalf("no example shown (%q)", title)
	}
	s := web.StateOfExample(ex)
	o, _ := strconv.Atoi(off)
	s, _ = web.Apply(s, web.HoverByte{Offset: o})
	if s.Hover < 0 {
		t.Fatalf("byte %d of example %d is in no field", o, ex)
	}
	return s.Tree().Label(int(s.Hover))
}

// TestBrowserNarrowWindows checks the phone and small-laptop layouts. At 390 px the hex view
// shows whole rows, fewer bytes a row, with the text column in view, and the description sits
// between the bytes and the fields, next to both, each pair fitting the window together. At
// 1000 px nothing is cut off: whole hex rows, message list cells, panel titles, tree labels,
// controls and header.
func TestBrowserNarrowWindows(t *testing.T) {
	b, _ := open(t, "")
	layoutSetup(t, b, 390, 844)
	var phone struct {
		RowsFit, TextShown bool
		RowBytes           int
		DescBelowHex       float64 // px between the hex panel's bottom and the description's top
		TreeBelowDesc      float64
		HexAndDesc         float64 // their height together, with the gap
		DescAndTree        float64
	}
	b.Eval(`(() => {
		const r = (s) => document.querySelector(s).getBoundingClientRect();
		const box = r(".hv");
		const rows = [...document.querySelectorAll(".hv-row")];
		const offs = rows.map((e) => parseInt(e.querySelector(".hv-off").textContent, 16)).sort((a, b) => a - b);
		const hex = r(".hex-panel"), desc = r(".desc-panel"), tree = r(".tree-panel");
		return {
			RowsFit: rows.length > 0 && rows.every((e) => e.getBoundingClientRect().right <= box.right + 0.5),
			TextShown: rows.every((e) => { const a = e.querySelector(".hv-ascii"), ar = a.getBoundingClientRect();
				return getComputedStyle(a).display !== "none" && ar.width > 0 && ar.right <= box.right + 0.5; }),
			RowBytes: offs[1] - offs[0],
			DescBelowHex: desc.top - hex.bottom, TreeBelowDesc: tree.top - desc.bottom,
			HexAndDesc: desc.bottom - hex.top, DescAndTree: tree.bottom - desc.top,
		};
	})()`, &phone)
	if !phone.RowsFit || !phone.TextShown || phone.RowBytes >= 16 || phone.RowBytes < 4 {
		t.Errorf("at 390 px: whole rows %v, text column shown %v, %d bytes a row", phone.RowsFit, phone.TextShown, phone.RowBytes)
	}
	if phone.DescBelowHex < 0 || phone.DescBelowHex > 16 || phone.TreeBelowDesc < 0 || phone.TreeBelowDesc > 16 {
		t.Errorf("at 390 px the description is %.0f px under the bytes and %.0f px above the fields, want next to both",
			phone.DescBelowHex, phone.TreeBelowDesc)
	}
	if phone.HexAndDesc > 844 || phone.DescAndTree > 844 {
		t.Errorf("at 390x844 the bytes and the description take %.0f px, the description and the fields %.0f px: not both in the window",
			phone.HexAndDesc, phone.DescAndTree)
	}

	layoutSetup(t, b, 1000, 800)
	var clipped []string
	b.Eval(`(() => {
		const out = [];
		const cut = (e) => e.scrollWidth > e.clientWidth + 1;
		const inside = (e, box) => { const r = e.getBoundingClientRect(), o = box.getBoundingClientRect();
			return r.left >= o.left - 0.5 && r.right <= o.right + 0.5; };
		const box = document.querySelector(".hv");
		for (const e of document.querySelectorAll(".hv-row")) if (!inside(e, box)) out.push("hex row " + e.querySelector(".hv-off").textContent);
		for (const e of document.querySelectorAll(".mrow > span, .group-row > span, .list-head > span, .page h2, .t-label, .t-toggle"))
			if (cut(e)) out.push(e.className + " " + JSON.stringify(e.textContent));
		const input = document.querySelector(".input-panel");
		for (const e of document.querySelectorAll(".controls > *")) if (!inside(e, input)) out.push("control " + JSON.stringify(e.textContent));
		const header = document.querySelector(".app-header");
		for (const e of header.querySelectorAll("h1, select, button")) if (cut(e) || !inside(e, header)) out.push("header " + JSON.stringify(e.textContent.slice(0, 20)));
		if (document.documentElement.scrollWidth > document.documentElement.clientWidth) out.push("the page scrolls sideways");
		return out;
	})()`, &clipped)
	if len(clipped) > 0 {
		t.Errorf("at 1000x800, cut off:\n\t%s", strings.Join(clipped, "\n\t"))
	}
}

// TestBrowserInputPanelWhole: with an input that gives the longest control row (xxd output of a
// pg_recvlogical file: the format menu names both, the status counts the messages) and two
// notes under the controls, every control shows whole inside the input panel, and the notes'
// region shows both notes' lines whole, at every window size that lays the panel out wide.
func TestBrowserInputPanelWhole(t *testing.T) {
	text, err := os.ReadFile("../testdata/input/xxd/many.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := open(t, "")
	b.WaitVisible(".tnode")
	b.Eval(`document.querySelector("#input-text").select()`, nil)
	pasteEvent(b, jsQuote(string(text)))
	waitJS(b, `document.querySelector(".input-status").textContent === "28 messages" && document.querySelectorAll(".input-msgs .reading-note p").length === 2`)
	for _, size := range [][2]int{{1400, 900}, {1400, 1000}, {1500, 900}, {1920, 1080}, {1000, 800}} {
		layoutSetup(t, b, size[0], size[1])
		var cut []string
		b.Eval(`(() => {
			const out = [], box = (e) => e.getBoundingClientRect();
			const panel = document.querySelector(".input-panel"), p = box(panel), pad = parseFloat(getComputedStyle(panel).paddingRight);
			for (const e of document.querySelectorAll(".controls > *")) {
				const r = box(e);
				if (r.left < p.left - 0.5 || r.right > p.right - pad + 0.5 || e.scrollWidth > e.clientWidth + 1) out.push("control " + JSON.stringify(e.textContent.slice(0, 30)));
			}
			const msgs = document.querySelector(".input-msgs"), m = box(msgs);
			if (msgs.scrollHeight <= msgs.clientHeight + 1 || innerWidth >= 1400)
				for (const e of msgs.querySelectorAll("p")) { const r = box(e);
					if (r.top < m.top - 0.5 || r.bottom > m.bottom + 0.5) out.push("note " + JSON.stringify(e.textContent.slice(0, 30)) + " " + r.top.toFixed(1) + ".." + r.bottom.toFixed(1) + " in " + m.top.toFixed(1) + ".." + m.bottom.toFixed(1)); }
			return out;
		})()`, &cut)
		if len(cut) > 0 {
			t.Errorf("at %dx%d, cut off:\n\t%s", size[0], size[1], strings.Join(cut, "\n\t"))
		}
	}
}
