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

// catalogRows returns the relations and types panel's rows drawn, in order: "a|b" a line.
const catalogRows = `[...document.querySelectorAll(".catalog-list .cat-row")].sort((x, y) => parseFloat(x.style.top) - parseFloat(y.style.top)).map((r) =>
	[...r.children].map((c) => c.textContent).join("|")).join("\n")`

// TestBrowsersCatalog shows the Type example's Type and Relation messages in the tree's place:
// names, columns with types and key flags, the messages that used each, only the rows in view;
// a relation's name, clicked or pressed with Enter, filters the list to it; no panel moves.
func TestBrowsersCatalog(t *testing.T) {
	s, _ := web.Apply(web.StateOfExample(exampleIndex(t, "Type")), web.ShowCatalog{On: true})
	c := s.Catalog
	if len(c.Entries) != 4 || c.Entries[3].Relation == nil {
		t.Fatalf("the Type example's catalog: %+v", c.Entries)
	}
	rel := c.Entries[3].Relation
	oid := strconv.FormatUint(uint64(rel.OID), 10)
	const rects = `[...document.querySelectorAll(".panel")].map((e) => { const r = e.getBoundingClientRect();
		return e.classList[1] + "@" + [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","); }).join(" ")`
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		b.SetViewport(1400, 900)
		waitFor(t, b, "the window's size", `innerWidth === 1400 && innerHeight === 900`, `innerWidth + "x" + innerHeight`)
		openExample(t, b, "Type", "Bytes of message")
		waitFor(t, b, "the tree", `document.querySelector(".tree-panel h2").textContent === "Fields" && document.querySelector(".tnode")`,
			`document.querySelector(".tree-panel h2").textContent`)
		var before, after string
		b.Eval(rects, &before)
		b.Click(".catalog-toggle")
		want := "Y public.mood|OID " + strconv.FormatUint(uint64(c.Entries[0].Type.OID), 10) + " · message 2\nused by|1 message: 5\n"
		waitFor(t, b, "the relations and types", `document.querySelector(".tree-panel h2").textContent === "Relations and types" && (`+catalogRows+`).startsWith(`+jsQuote(want)+`)`,
			catalogRows)
		b.Eval(rects, &after)
		if after != before {
			t.Errorf("showing the relations moved the panels:\n before %s\n after  %s", before, after)
		}
		// Only the rows in view are drawn.
		if n := b.Count(".catalog-list .cat-row"); n >= len(c.Rows) {
			t.Errorf("%d rows drawn of %d", n, len(c.Rows))
		}
		axeSerious(t, b, b.Name()+", the relations and types")
		// The relation's heading and first column, in the first screenful.
		head := "R public.types|OID " + oid + " · replica identity DEFAULT (the primary key) · message 5\n"
		col := rel.Columns[0].Name + "|" + rel.Columns[0].TypeName
		waitFor(t, b, "the relation's heading and first column", `(`+catalogRows+`).includes(`+jsQuote(head+col)+`)`, catalogRows)
		if !rel.Columns[0].Key || b.Count(".catalog-list .cat-col .cat-a.is-key") == 0 {
			t.Errorf("the key column is not marked (key %v)", rel.Columns[0].Key)
		}
		// Enter on the relation's name filters the list to its messages: its Relation and Inserts.
		waitFor(t, b, "the relation's button focused", `(() => { const e = document.querySelector("button.cat-rel");
			if (e && document.activeElement !== e) e.focus(); return !!e && document.activeElement === e; })()`,
			`document.activeElement.className`)
		b.Press("Enter")
		waitFor(t, b, "the list filtered to the relation", `document.querySelector(".filter").value === "rel:`+oid+`" &&
			document.querySelector(".list-panel h2").textContent === "Messages (7 of 12)"`,
			`document.querySelector(".filter").value + " " + document.querySelector(".list-panel h2").textContent + ", focus on " + document.activeElement.className`)
		// At the end, the Inserts that used the relation.
		b.Eval(`(() => { const l = document.querySelector(".catalog-list"); l.scrollTop = l.scrollHeight; })()`, nil)
		waitFor(t, b, "the last rows", `(`+catalogRows+`).endsWith("used by|6 messages: 6 7 8 9 10 11")`, catalogRows)
		b.Click(".catalog-toggle")
		waitFor(t, b, "the tree back", `document.querySelector(".tree-panel h2").textContent === "Fields" && !document.querySelector(".catalog")`,
			`document.querySelector(".tree-panel h2").textContent`)
	})
}

// TestBrowsersPanelToggles: the "Before / after", "Relations", "Timeline" and "Notes" buttons
// say they are pressed exactly when the tree's place shows their view, and stay shown, pressed
// or not. The relations, the timeline and the notes show over the before and after, which
// comes back when they go, and take each other's place.
func TestBrowsersPanelToggles(t *testing.T) {
	s, _ := web.Apply(web.StateOfExample(exampleIndex(t, "Update, key changed")), web.ShowTimeline{On: true})
	timeline := "Timeline (" + strconv.Itoa(len(s.Timeline.Spans)) + " spans) (a timeline)"
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		openExample(t, b, "Update, key changed", "Bytes of message 7: Update")
		shows := func(title, change, catalog, tl, notes string) {
			t.Helper()
			want := title + ", before/after pressed " + change + ", relations pressed " + catalog + ", timeline pressed " + tl +
				", notes pressed " + notes + ", hidden: "
			poll(t, b, "the tree's place shows "+want, `((s) => s === `+jsQuote(want)+` ? "" : s)(
				document.querySelector(".tree-panel h2").textContent +
				(document.querySelector(".change") ? " (a before and after)" : "") + (document.querySelector(".catalog") ? " (a catalog)" : "") +
				(document.querySelector(".tl-list") ? " (a timeline)" : "") + (document.querySelector(".notes") ? " (notes)" : "") +
				", before/after pressed " + document.querySelector(".change-toggle").getAttribute("aria-pressed") +
				", relations pressed " + document.querySelector(".catalog-toggle").getAttribute("aria-pressed") +
				", timeline pressed " + document.querySelector(".timeline-toggle").getAttribute("aria-pressed") +
				", notes pressed " + document.querySelector(".notes-toggle").getAttribute("aria-pressed") +
				", hidden: " + [...document.querySelectorAll(".change-toggle, .catalog-toggle, .timeline-toggle, .notes-toggle")].
					filter((e) => e.getClientRects().length === 0).map((e) => e.className).join(" "))`)
		}
		const fields, change, catalog, notes = "Fields", "Before and after (a before and after)", "Relations and types (a catalog)", "Notes (notes)"
		shows(fields, "false", "false", "false", "false")
		// Each button clicked in turn, and what the tree's place shows after it.
		for _, step := range []struct{ click, title, change, catalog, timeline, notes string }{
			{".change-toggle", change, "true", "false", "false", "false"},
			{".catalog-toggle", catalog, "false", "true", "false", "false"},
			{".catalog-toggle", change, "true", "false", "false", "false"},
			{".catalog-toggle", catalog, "false", "true", "false", "false"},
			{".timeline-toggle", timeline, "false", "false", "true", "false"},
			{".catalog-toggle", catalog, "false", "true", "false", "false"},
			{".timeline-toggle", timeline, "false", "false", "true", "false"},
			{".timeline-toggle", change, "true", "false", "false", "false"},
			{".notes-toggle", notes, "false", "false", "false", "true"},
			{".notes-toggle", change, "true", "false", "false", "false"},
			{".change-toggle", fields, "false", "false", "false", "false"},
			{".timeline-toggle", timeline, "false", "false", "true", "false"},
			{".notes-toggle", notes, "false", "false", "false", "true"},
			{".catalog-toggle", catalog, "false", "true", "false", "false"},
			{".notes-toggle", notes, "false", "false", "false", "true"},
			{".timeline-toggle", timeline, "false", "false", "true", "false"},
			{".timeline-toggle", fields, "false", "false", "false", "false"},
		} {
			b.Click(step.click)
			shows(step.title, step.change, step.catalog, step.timeline, step.notes)
		}
	})
}

// TestBrowsersCatalogTab: in a stream whose relations are described again, Tab goes through
// the relations' buttons drawn in the order they are on screen (their rows sit in slots, in
// another order in the document), then leaves the list; Shift+Tab goes back through them to
// the list's box; "used by" names the message that described the relation again.
func TestBrowsersCatalogTab(t *testing.T) {
	// The capture's header and first 117 messages: 12 Relation messages, public.parent and
	// public.child each described three times.
	lines := strings.SplitAfter(corpus(t, "pg15-text"), "\n")
	text := strings.Join(lines[:6+117], "")
	status := pastedStatus(t, text)
	s, _ := web.Apply(web.NewState(-1), web.SetText{Text: text})
	for !s.Doc.Complete() {
		s, _ = web.Apply(s, web.DecodeMore{})
	}
	s, _ = web.Apply(s, web.ShowCatalog{On: true})
	c := s.Catalog
	var heads []int // the rows of the relations' headings
	againRow, again := -1, ""
	for k, r := range c.Rows {
		e := &c.Entries[r.Entry]
		switch {
		case e.Relation == nil:
		case r.Column == web.RowHeading:
			heads = append(heads, k)
		case r.Column == web.RowUsers && e.Again >= 0 && againRow < 0:
			againRow, again = k, "; then described again by message "+strconv.Itoa(e.Again+1)
		}
	}
	if len(heads) != 12 || againRow < 0 {
		t.Fatalf("%d relations' headings at rows %v, the first described again at row %d", len(heads), heads, againRow)
	}
	h := hexview.RowHeight
	const focusRow = `(() => { const e = document.activeElement; return e.closest(".catalog-list") ? e.dataset.row || "box" : "out: " + e.tagName + "." + e.className; })()`
	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, _ string) {
		b.SetViewport(1400, 900)
		waitFor(t, b, "the window's size", `innerWidth === 1400 && innerHeight === 900`, `innerWidth + "x" + innerHeight`)
		paste(b, text)
		waitText(t, b, ".input-status", status)
		b.Click(".catalog-toggle")
		waitText(t, b, ".tree-panel h2", "Relations and types")
		// The users of the first relation described again.
		b.Eval(`document.querySelector(".catalog-list").scrollTop = `+strconv.Itoa((againRow-2)*h), nil)
		listSettled(t, b, "the relations", ".catalog-list", ".cat-row")
		poll(t, b, "the users row naming the message that described the relation again", `((r) => !r ? "no row `+strconv.Itoa(againRow)+`" :
			r.textContent.startsWith("used by") && r.textContent.endsWith(`+jsQuote(again)+`) ? "" : r.textContent)(
			[...document.querySelectorAll(".catalog-list .cat-row")].find((r) => Math.round(parseFloat(r.style.top) / `+strconv.Itoa(h)+`) === `+strconv.Itoa(againRow)+`))`)
		// Scrolled to row 60: the buttons drawn are not in the document in their screen order.
		b.Eval(`document.querySelector(".catalog-list").scrollTop = `+strconv.Itoa(60*h), nil)
		listSettled(t, b, "the relations", ".catalog-list", ".cat-row")
		var order []int
		b.Eval(`[...document.querySelectorAll(".catalog-list button.cat-rel")].map((e) => +e.dataset.row)`, &order)
		if slices.IsSorted(order) {
			t.Fatalf("the buttons drawn are in screen order in the document (%v): this test shows nothing", order)
		}
		var first int
		b.Eval(`Math.min(...[...document.querySelectorAll(".catalog-list .cat-row")].map((r) => Math.round(parseFloat(r.style.top) / `+strconv.Itoa(h)+`)))`, &first)
		// From the box, Tab goes to each relation's button in turn, those drawn (scrolling as
		// they take the focus), then out of the list.
		next := slices.IndexFunc(heads, func(k int) bool { return k >= first })
		b.Eval(`document.querySelector(".catalog-list").focus()`, nil)
		var got []string
		for range len(heads) + 1 {
			b.Press("Tab")
			poll(t, b, "the focus moved on from "+strings.Join(append([]string{"box"}, got...), ", "), `((f) => f !== `+jsQuote(append([]string{"box"}, got...)[len(got)])+` ? "" : f)(`+focusRow+`)`)
			listSettled(t, b, "the relations", ".catalog-list", ".cat-row")
			var f string
			b.Eval(focusRow, &f)
			got = append(got, f)
			if strings.HasPrefix(f, "out") {
				break
			}
		}
		var want []string
		for _, k := range heads[next:min(next+len(got)-1, len(heads))] {
			want = append(want, strconv.Itoa(k))
		}
		if len(got) < 4 || !slices.Equal(got[:len(got)-1], want) || !strings.HasPrefix(got[len(got)-1], "out") {
			t.Fatalf("Tab from the box (rows %d on drawn, buttons in the document at rows %v) went to %v, want the buttons at rows %v in turn, then out of the list", first, order, got, heads[next:])
		}
		// Back from the last button reached: Shift+Tab goes to the ones before it on screen,
		// then to the box.
		last := got[len(got)-2]
		b.Eval(`document.querySelector('.catalog-list button[data-row="`+last+`"]').focus()`, nil)
		listSettled(t, b, "the relations", ".catalog-list", ".cat-row")
		got = []string{last}
		for range len(heads) + 1 {
			b.Press("Tab", "Shift")
			poll(t, b, "the focus moved back from "+strings.Join(got, ", "), `((f) => f !== `+jsQuote(got[len(got)-1])+` ? "" : f)(`+focusRow+`)`)
			listSettled(t, b, "the relations", ".catalog-list", ".cat-row")
			var f string
			b.Eval(focusRow, &f)
			got = append(got, f)
			if f == "box" || strings.HasPrefix(f, "out") {
				break
			}
		}
		want = nil
		for k := slices.IndexFunc(heads, func(k int) bool { return strconv.Itoa(k) == last }); k >= 0 && len(want) < len(got)-1; k-- {
			want = append(want, strconv.Itoa(heads[k]))
		}
		if len(got) < 3 || !slices.Equal(got[:len(got)-1], want) || got[len(got)-1] != "box" {
			t.Fatalf("Shift+Tab from row %s went to %v, want the buttons before it in turn, then the box", last, got[1:])
		}
	})
}

// BenchmarkCatalogOf measures making the relations panel's model of pg17-text (1,450 messages)
// and of the 1 MB paste (15,048 messages), natively: the page's own work is
// BenchmarkPageCatalog.
func BenchmarkCatalogOf(b *testing.B) {
	for _, in := range []struct{ name, text string }{{"pg17-text", corpus(b, "pg17-text")}, {"1MB", tenThousand(b)}} {
		b.Run(in.name, func(b *testing.B) {
			d := decodedWhole(b, in.text)
			b.ReportAllocs()
			for b.Loop() {
				web.CatalogOf(d)
			}
		})
	}
}

// BenchmarkPageCatalog measures, in headless Chromium, opening the relations panel of
// pg17-text (1,450 messages) and of the 1 MB paste (15,048), decoded: the time from the click
// on "Relations" to the frame that shows its rows, and the DOM's size then.
func BenchmarkPageCatalog(b *testing.B) {
	for _, in := range []struct{ name, text string }{{"pg17-text", corpus(b, "pg17-text")}, {"1MB", tenThousand(b)}} {
		b.Run(in.name, func(b *testing.B) {
			benchPanelClick(b, in.text, ".catalog-toggle", ".cat-row", ".catalog-list", "ms/click-to-relations")
		})
	}
}
