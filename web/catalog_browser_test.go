//go:build !js

package web_test

import (
	"strconv"
	"testing"

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
	s, _ := web.Apply(web.NewState(exampleIndex(t, "Type")), web.ShowCatalog{On: true})
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
