//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// timelineOf returns the timeline the page makes of text, decoded whole.
func timelineOf(t *testing.T, text string) *web.Timeline {
	t.Helper()
	return web.TimelineOf(decodedWhole(t, text))
}

// TestBrowsersTimeline opens the timeline on a real capture with streamed and prepared
// transactions (pg17-text) in the tree's place, moving no panel; clicking a stream block
// chooses its first message and marks the block's messages in the list; the arrows move to the
// next block; filtered to inserts, a click chooses the block's first insert, and a click on a
// span with none keeps the choice and says so; the timeline is one Tab stop and passes axe;
// at 1400 px each row shows its ending's name and its ⚠ with the first word; and the timeline of a
// 1 MB paste of 15,000 messages draws as many nodes as the small one's.
func TestBrowsersTimeline(t *testing.T) {
	text := corpus(t, "pg17-text")
	tl := timelineOf(t, text)
	// The first stream block, and the one after it.
	blk := -1
	for i := range tl.Spans {
		if tl.Spans[i].Kind == web.SpanStreamBlock {
			blk = i
			break
		}
	}
	if blk < 0 || blk+1 >= len(tl.Spans) {
		t.Fatal("no stream block in pg17-text")
	}
	sp, next := tl.Spans[blk], tl.Spans[blk+1]
	// The blocks of its transaction, as a JavaScript test of message m, and its second block.
	var inBlocks []string
	nextBlk := sp
	for i := range tl.Spans {
		if o := tl.Spans[i]; o.Kind == web.SpanStreamBlock && o.Xid == sp.Xid {
			inBlocks = append(inBlocks, "(m >= "+strconv.Itoa(o.First)+" && m < "+strconv.Itoa(o.End)+")")
			if o.Block == 2 {
				nextBlk = o
			}
		}
	}
	if len(inBlocks) < 2 || nextBlk.Block != 2 {
		t.Fatalf("the first streamed transaction has %d blocks", len(inBlocks))
	}
	// The inserts, and the block's first one.
	inserts, firstIns := 0, -1
	for m := range tl.SpanOf {
		if tl.Doc.Summaries[m].Name == "Insert" {
			inserts++
			if firstIns < 0 && m >= sp.First && m < sp.End {
				firstIns = m
			}
		}
	}
	for m := tl.Spans[0].First; m < tl.Spans[0].End; m++ {
		if tl.Doc.Summaries[m].Name == "Insert" {
			firstIns = -1
		}
	}
	if firstIns < 0 {
		t.Fatal("the first block holds no insert, or the first span holds one")
	}
	big := tenThousand(t)
	bigTL := timelineOf(t, big)
	if len(bigTL.SpanOf) < 15000 || len(bigTL.Spans) < 5*len(tl.Spans) {
		t.Fatalf("the 1 MB paste: %d messages, %d spans", len(bigTL.SpanOf), len(bigTL.Spans))
	}
	const rects = `[...document.querySelectorAll(".panel")].map((e) => { const r = e.getBoundingClientRect();
		return e.classList[1] + "@" + [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","); }).join(" ")`
	const title = `document.querySelector(".tree-panel h2").textContent`
	const chosen = `(document.querySelector(".mrow.selected") || {}).id + " " + document.querySelector("#hex-title").textContent`
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		b.SetViewport(1400, 900)
		waitFor(t, b, "the window's size", `innerWidth === 1400 && innerHeight === 900`, `innerWidth + "x" + innerHeight`)
		paste(b, text)
		status := pastedStatus(t, text)
		waitFor(t, b, "the capture decoded", `document.querySelector(".input-status").textContent.startsWith(`+jsQuote(status)+`)`,
			`document.querySelector(".input-status").textContent`)
		var before, after string
		b.Eval(rects, &before)
		b.Click(".timeline-toggle")
		want := "Timeline (" + strconv.Itoa(len(tl.Spans)) + " spans)"
		waitFor(t, b, "the timeline", title+` === `+jsQuote(want)+` && document.querySelector(".timeline-toggle").getAttribute("aria-pressed") === "true"`, title)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		b.Eval(rects, &after)
		if after != before {
			t.Errorf("showing the timeline moved the panels:\n before %s\n after  %s", before, after)
		}
		// One Tab stop: the list itself, nothing focusable inside it.
		var stops string
		b.Eval(`document.querySelector(".tl-list").getAttribute("tabindex") + " " + document.querySelectorAll(".tl-list [tabindex], .tl-list button, .tl-list a, .tl-list input").length`, &stops)
		if stops != "0 0" {
			t.Errorf("the timeline's tabindex and focusable elements inside: %s", stops)
		}
		axeSerious(t, b, b.Name()+", the timeline")

		// The first stream block, scrolled into view and clicked.
		h := strconv.Itoa(hexview.RowHeight)
		b.Eval(`document.querySelector(".tl-list").scrollTop = `+strconv.Itoa(blk)+` * `+h, nil)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		row := "#s-" + strconv.Itoa(blk)
		waitFor(t, b, "the block's row", `(document.querySelector(`+jsQuote(row)+`) || {}).textContent === `+jsQuote(tl.Label(blk)), `(document.querySelector(`+jsQuote(row)+`) || {}).textContent`)
		b.Click(row + " .tl-text")
		first := strconv.Itoa(sp.First)
		waitFor(t, b, "the block's first message chosen", `document.querySelector(".mrow.selected") && document.querySelector(".mrow.selected").id === "m-`+first+`" &&
			document.querySelector("#hex-title").textContent.startsWith("Bytes of message `+strconv.Itoa(sp.First+1)+`: Stream Start") &&
			document.querySelector(`+jsQuote(row)+`).getAttribute("aria-selected") === "true"`, chosen)
		// In the right panel, about 330 px wide, each row drawn shows how its transaction ended
		// (the ending's name whole) and the ⚠ of what does not fit with its first word, before
		// the count and LSN the panel may cut off.
		var cut string
		b.Eval(`[...document.querySelectorAll(".tl-row .tl-text")].map((e) => {
			const t = e.textContent, box = e.getBoundingClientRect();
			let end = 0;
			const a = t.indexOf(" → "), w = t.indexOf("⚠ ");
			if (a >= 0) { const z = t.indexOf(" · ", a); end = z < 0 ? t.length : z; }
			if (w >= 0) { const z = t.indexOf(" ", w + 2); end = Math.max(end, z < 0 ? t.length : z); }
			if (end === 0) return "";
			const r = document.createRange();
			r.setStart(e.firstChild, 0);
			r.setEnd(e.firstChild, end);
			const over = r.getBoundingClientRect().right - box.right;
			return over > 0.5 ? t + ": " + Math.round(over) + " px cut off" : "";
		}).filter((x) => x).join(" | ") + " (" + document.querySelectorAll(".tl-row .tl-text").length + " rows, " +
			[...document.querySelectorAll(".tl-row .tl-text")].filter((e) => e.textContent.includes(" → ")).length + " with an ending, the panel " +
			Math.round(document.querySelector(".tl-list").getBoundingClientRect().width) + " px wide)"`, &cut)
		if cutOff, counts, _ := strings.Cut(cut, " ("); cutOff != "" || strings.Contains(counts, " 0 with an ending") {
			t.Errorf("rows whose ending or ⚠ the panel cuts off: %s", cut)
		} else {
			t.Logf("%s: %s", b.Name(), cut)
		}
		// The list marks the messages of the transaction's blocks, and only those: the rows
		// drawn at the block's start, then scrolled to its next block's.
		marks := `(() => { const rows = [...document.querySelectorAll(".msg-list .mrow")];
			const out = rows.filter((r) => { const m = +r.dataset.msg; return r.classList.contains("in-span") !== (` + strings.Join(inBlocks, " || ") + `); });
			return rows.filter((r) => r.classList.contains("in-span")).length + " marked; marked wrongly: " + out.map((r) => r.id).join(","); })()`
		var marked string
		b.Eval(marks, &marked)
		if n, _, _ := strings.Cut(marked, " "); n == "0" || !strings.HasSuffix(marked, "wrongly: ") {
			t.Errorf("the list's marks: %s", marked)
		}
		b.Eval(`document.querySelector(".msg-list").scrollTop = `+strconv.Itoa(tl.Doc.RowOf[nextBlk.First]*hexview.RowHeight), nil)
		listSettled(t, b, "the message list", ".msg-list", ".vrow")
		waitFor(t, b, "the next block's rows", `!!document.querySelector("#m-`+strconv.Itoa(nextBlk.First)+`")`, `document.querySelector(".msg-list").scrollTop`)
		b.Eval(marks, &marked)
		if n, _, _ := strings.Cut(marked, " "); n == "0" || !strings.HasSuffix(marked, "wrongly: ") {
			t.Errorf("the list's marks at block 2: %s", marked)
		}
		// ArrowDown in the timeline: the next span's first message.
		b.Eval(`document.querySelector(".tl-list").focus()`, nil)
		b.Press("ArrowDown")
		waitFor(t, b, "the next span chosen", `document.querySelector(".mrow.selected") && document.querySelector(".mrow.selected").id === "m-`+strconv.Itoa(next.First)+`" &&
			document.querySelector(".tl-list").getAttribute("aria-activedescendant") === "s-`+strconv.Itoa(blk+1)+`"`, chosen)

		// Filtered to inserts: a click on the block chooses its first insert, which the list
		// holds; a click on the first span, which holds none, keeps the choice and says why.
		typeFilter(b, "type:I")
		waitFor(t, b, "the list filtered", `document.querySelector(".list-panel h2").textContent === `+jsQuote("Messages ("+strconv.Itoa(inserts)+" of "+strconv.Itoa(len(tl.SpanOf))+")"),
			`document.querySelector(".list-panel h2").textContent`)
		b.Eval(`document.querySelector(".tl-list").scrollTop = `+strconv.Itoa(blk)+` * `+h, nil)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		waitFor(t, b, "the block's row", `!!document.querySelector(`+jsQuote(row)+`)`, `document.querySelector(".tl-list").scrollTop`)
		b.Click(row + " .tl-text")
		waitFor(t, b, "the block's first insert chosen", `document.querySelector(".mrow.selected") && document.querySelector(".mrow.selected").id === "m-`+strconv.Itoa(firstIns)+`" &&
			document.querySelector("#hex-title").textContent.startsWith("Bytes of message `+strconv.Itoa(firstIns+1)+`: Insert") &&
			document.querySelector(`+jsQuote(row)+`).getAttribute("aria-selected") === "true"`, chosen)
		b.Eval(`document.querySelector(".tl-list").scrollTop = 0`, nil)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		waitFor(t, b, "the first span's row", `!!document.querySelector("#s-0")`, `document.querySelector(".tl-list").scrollTop`)
		b.Click("#s-0 .tl-text")
		waitFor(t, b, "the status saying the filter hides the span", `document.querySelector(".filter-status").textContent === `+jsQuote("The filter hides every message of the span clicked")+` &&
			document.querySelector(".mrow.selected") && document.querySelector(".mrow.selected").id === "m-`+strconv.Itoa(firstIns)+`"`,
			`document.querySelector(".filter-status").textContent + " | " + `+chosen)
		b.Click(".filter")
		b.Press("End")
		for range len("type:I") {
			b.Press("Backspace")
		}
		b.Press("Enter")
		waitFor(t, b, "the filter taken away", `document.querySelector(".list-panel h2").textContent === `+jsQuote("Messages ("+strconv.Itoa(len(tl.SpanOf))+")")+` &&
			document.querySelector(".filter-status").textContent === ""`, `document.querySelector(".list-panel h2").textContent + " | " + document.querySelector(".filter-status").textContent`)

		// The DOM does not grow with the input: as many nodes in the timeline for 15,000 messages.
		const nodes = `document.querySelector(".tl-list").querySelectorAll("*").length`
		b.Eval(`document.querySelector(".tl-list").scrollTop = 0`, nil)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		var small, large int
		b.Eval(nodes, &small)
		paste(b, big)
		bigStatus := pastedStatus(t, big)
		waitFor(t, b, "the 1 MB paste decoded", `document.querySelector(".input-status").textContent.startsWith(`+jsQuote(bigStatus)+`)`,
			`document.querySelector(".input-status").textContent`)
		waitFor(t, b, "its timeline", title+`.startsWith(`+jsQuote("Timeline ("+strconv.Itoa(len(bigTL.Spans))+" spans")+`)`, title)
		listSettled(t, b, "the timeline", ".tl-list", ".tl-row")
		b.Eval(nodes, &large)
		if small == 0 || large != small {
			t.Errorf("%d nodes in the timeline of %d spans, %d for %d spans", small, len(tl.Spans), large, len(bigTL.Spans))
		}
		b.Click(".timeline-toggle")
		waitFor(t, b, "the tree back", title+` === "Fields" && !document.querySelector(".tl-list")`, title)
	})
}

// TestBrowserTimelineScreenshot takes the timeline's picture for the README (docs/timeline.png
// with -update-screenshot): pg17-text's streamed and prepared transactions, a stream block
// chosen and its messages marked in the list.
func TestBrowserTimelineScreenshot(t *testing.T) {
	text := corpus(t, "pg17-text")
	tl := timelineOf(t, text)
	blk := -1
	for i := range tl.Spans {
		if tl.Spans[i].Kind == web.SpanStreamBlock && tl.Spans[i].Block == 2 {
			blk = i
			break
		}
	}
	b, _ := open(t, "")
	b.SetViewport(1400, 900)
	waitJS(b, `innerWidth === 1400`)
	paste(b, text)
	waitJS(b, `document.querySelector(".input-status").textContent.startsWith(`+jsQuote(pastedStatus(t, text))+`)`)
	b.Click(".timeline-toggle")
	waitJS(b, `!!document.querySelector(".tl-row")`)
	b.Eval(`document.querySelector(".tl-list").scrollTop = `+strconv.Itoa((blk-12)*hexview.RowHeight), nil)
	waitJS(b, `!!document.querySelector("#s-`+strconv.Itoa(blk)+`")`)
	b.Click("#s-" + strconv.Itoa(blk) + " .tl-text")
	waitJS(b, `document.querySelector("#s-`+strconv.Itoa(blk)+`").getAttribute("aria-selected") === "true" && !!document.querySelector(".mrow.in-span")`)
	frame(b)
	path := t.TempDir() + "/timeline.png"
	if *updateScreenshot {
		path = "../docs/timeline.png"
	}
	b.Screenshot(path)
}

// BenchmarkTimelineOf1MB measures making the timeline of about 1 MB of capture (15,000 short
// messages), natively: the page's own work is BenchmarkPageTimeline1MB.
func BenchmarkTimelineOf1MB(b *testing.B) {
	d := decodedWhole(b, tenThousand(b))
	b.ReportAllocs()
	for b.Loop() {
		web.TimelineOf(d)
	}
}

// BenchmarkPageTimeline1MB measures, in headless Chromium, opening the timeline of a 1 MB paste
// of 15,048 short messages, decoded: the time from the click on "Timeline" to the frame that
// shows its rows (the page makes the timeline, then draws the rows in view), and the DOM's
// size then.
func BenchmarkPageTimeline1MB(b *testing.B) {
	benchPanelClick(b, tenThousand(b), ".timeline-toggle", ".tl-row", ".tl-list", "ms/click-to-timeline")
}

// benchPanelClick pastes text and, once decoded, measures the time from a click on the toggle
// button to the first animation frame in which a row (rowSel) of the panel is drawn, then the
// page's DOM nodes with the panel shown; between clicks the button hides the panel (box).
func benchPanelClick(b *testing.B, text, toggle, rowSel, box, metric string) {
	base := browsertest.Serve(b)
	br := browsertest.Start(b)
	br.Navigate(base)
	br.WaitReady("html[data-ready]")
	paste(br, text)
	status := pastedStatus(b, text)
	waitJS(br, `document.querySelector(".input-status").textContent.startsWith(`+jsQuote(status)+`)`)
	var sum float64
	for b.Loop() {
		var ms float64
		br.Eval(`new Promise((resolve) => {
			const t0 = performance.now();
			document.querySelector(`+jsQuote(toggle)+`).click();
			const tick = () => document.querySelector(`+jsQuote(rowSel)+`) ? resolve(performance.now() - t0) : requestAnimationFrame(tick);
			requestAnimationFrame(tick);
		})`, &ms)
		sum += ms
		b.StopTimer()
		br.Click(toggle)
		waitJS(br, `!document.querySelector(`+jsQuote(box)+`)`)
		b.StartTimer()
	}
	b.ReportMetric(sum/float64(b.N), metric)
	br.Click(toggle)
	waitJS(br, `!!document.querySelector(`+jsQuote(rowSel)+`)`)
	b.ReportMetric(float64(br.NodeCount()), "dom-nodes")
}
