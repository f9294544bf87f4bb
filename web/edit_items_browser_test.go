//go:build !js

package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/hexview"
	"pgoutput-inspector/internal/browsertest"
	"pgoutput-inspector/web"
)

// changedHex is the hex view's text of the bytes an edit marked as changed in state s: each
// byte as two hex digits, separated by spaces.
func changedHex(s web.State) string {
	b := s.Tree().Bytes
	var out []string
	for _, r := range s.Edit.Changed {
		for k := r.Offset; k < r.End(); k++ {
			out = append(out, strconv.FormatUint(uint64(b[k])|0x100, 16)[1:])
		}
	}
	return strings.Join(out, " ")
}

// TestBrowsersEditItems adds a column to the first example's Insert with the keyboard (a copy of
// column 2, after it) and removes it again, in the page: the text box holds exactly the edited
// stream the store makes, the tree's column count follows, the hex view marks the count and
// the new column, removing the column gives back the original message, and the share link
// made with the column added opens in another tab to the same bytes.
func TestBrowsersEditItems(t *testing.T) {
	s0 := web.NewState(0)
	tr := s0.Tree()
	value := nodeOf(t, tr, decoder.FieldColumnValue, 1) // column 2's value
	count := nodeOf(t, tr, decoder.FieldTupleColumnCount, 0)
	tuple := nodeOf(t, tr, decoder.FieldTupleNew, 0)
	n := tr.ValueOf(count).Num
	s1, _ := web.Apply(s0, web.SelectNode{Node: int32(value)})
	s1, _ = web.Apply(s1, web.Edit{Op: web.EditAdd, Node: int32(value)})
	added := int(s1.Node)
	if nt := s1.Tree(); nt.Err != nil || nt.ValueOf(count).Num != n+1 || nt.Nodes[added].Field != decoder.FieldTupleColumn {
		t.Fatalf("the store did not add a column: %q, %v", s1.Edit.View.Err, nt.Err)
	}
	s2, _ := web.Apply(s1, web.Edit{Op: web.EditRemove, Node: int32(added)})
	if string(s2.Tree().Bytes) != string(tr.Bytes) || s2.Node != int32(tuple) {
		t.Fatalf("the store did not give back the original message: %x, node %d", s2.Tree().Bytes, s2.Node)
	}
	countText := func(s web.State) string { return web.NodeText(s.Tree(), count, web.MaxRowText) }
	if countText(s1) != strconv.FormatUint(n+1, 10) || countText(s2) != strconv.FormatUint(n, 10) {
		t.Fatalf("the count reads %q and %q, want %d and %d", countText(s1), countText(s2), n+1, n)
	}
	chg := changedHex(s1)
	if chg == "" {
		t.Fatal("adding a column marked no bytes")
	}
	row := func(i int) string { return `document.querySelector('.tnode[data-node="` + strconv.Itoa(i) + `"]')` }
	countRow := row(count) + ` && ` + row(count) + `.querySelector(".t-value").textContent`
	chgHex := `[...document.querySelectorAll(".hv-hex .hv-seg.chg")].map((e) => e.textContent.trim()).join(" ")`

	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		until(b, row(value))
		b.Click(`.tnode[data-node="` + strconv.Itoa(value) + `"]`)
		until(b, row(value)+`.classList.contains("selected") && document.querySelector(".edit-add") && document.querySelector(".edit-remove")`)
		waitText(t, b, ".edit-add", "Add after")
		// The keyboard: the Add button takes the focus and Enter presses it.
		b.Eval(`document.querySelector(".edit-add").focus()`, nil)
		b.Press("Enter")
		waitFor(t, b, "the input is the stream with the column added", inputText+` === `+jsQuote(s1.Text), inputText)
		until(b, row(added)+` && `+row(added)+`.classList.contains("selected")`)
		waitText(t, b, ".edit-undo", "1 edit made. UndoOriginal")
		treeSettled(t, b)
		waitFor(t, b, "the column count is "+countText(s1), countRow+` === `+jsQuote(countText(s1)), countRow)
		waitFor(t, b, "the count and the new column marked as changed", chgHex+` === `+jsQuote(chg), chgHex)

		// Share makes a link to the stream with the column added (opened below, once this tab
		// has done with the keyboard: a tab opened takes the keys in Firefox).
		b.Click(".share")
		until(b, `document.querySelector(".share-status") && document.querySelector(".share-status").textContent.includes("characters")`)
		var hash string
		b.Eval(`location.hash`, &hash)

		// Remove, with the keyboard too: the original message, the tuple selected.
		waitText(t, b, ".edit-remove", "Remove")
		b.Eval(`document.querySelector(".edit-remove").focus()`, nil)
		b.Press("Enter")
		waitFor(t, b, "the input is the stream with the column removed", inputText+` === `+jsQuote(s2.Text), inputText)
		until(b, row(tuple)+` && `+row(tuple)+`.classList.contains("selected") && !document.querySelector(".edit-remove")`)
		waitText(t, b, ".edit-undo", "2 edits made. UndoOriginal")
		treeSettled(t, b)
		waitFor(t, b, "the column count is "+countText(s2), countRow+` === `+jsQuote(countText(s2)), countRow)
		waitText(t, b, ".edit-add", "Add at the end")

		// The share link opens to the stream with the column added.
		o := openTab(t, b.Name(), base+hash)
		waitFor(t, o, "the link opens the stream with the column added", inputText+` === `+jsQuote(s1.Text), inputText)
		treeSettled(t, o)
		waitFor(t, o, "the link's column count is "+countText(s1), countRow+` === `+jsQuote(countText(s1)), countRow)
	})
}

// TestBrowsersEditItemsFocus: with column 2's value of the first example's Insert the last row in
// the tree's box, the keyboard goes from the tree to "Add after" with Tab and presses it with
// Enter: the new column, a row below the box, is selected and the tree scrolls to show it whole.
// Tab goes on to Remove and Space presses it: the column goes, the tuple is selected and shown,
// and the focus, which went with the Remove button, is on the tree, its active row the tuple.
func TestBrowsersEditItemsFocus(t *testing.T) {
	s0 := web.NewState(0)
	tr := s0.Tree()
	value := nodeOf(t, tr, decoder.FieldColumnValue, 1) // column 2's value
	tuple := nodeOf(t, tr, decoder.FieldTupleNew, 0)
	s1, _ := web.Apply(s0, web.SelectNode{Node: int32(value)})
	s1, _ = web.Apply(s1, web.Edit{Op: web.EditAdd, Node: int32(value)})
	added := int(s1.Node)
	s2, _ := web.Apply(s1, web.Edit{Op: web.EditRemove, Node: int32(added)})
	if s2.Node != int32(tuple) || string(s2.Tree().Bytes) != string(tr.Bytes) {
		t.Fatalf("the store: node %d after removing, want %d", s2.Node, tuple)
	}
	valueRow := -1
	for k, id := range s0.TreeRows {
		if id == int32(value) {
			valueRow = k
		}
	}
	row := func(i int) string { return `document.querySelector('.tnode[data-node="` + strconv.Itoa(i) + `"]')` }
	// inBox: node i's row is drawn, selected and whole within the tree box's visible rectangle
	// (to half a pixel: the box can sit at a fraction of a pixel).
	inBox := func(i int) string {
		return `((r, box) => r && box && r.classList.contains("selected") && r.getBoundingClientRect().top >= box.getBoundingClientRect().top + box.clientTop - 0.5 &&
			r.getBoundingClientRect().bottom <= box.getBoundingClientRect().top + box.clientTop + box.clientHeight + 0.5)(` + row(i) + `, document.querySelector(".vlist.tree"))`
	}
	where := func(i int) string {
		return `((r, box) => r ? "row " + r.getBoundingClientRect().top + "-" + r.getBoundingClientRect().bottom + " selected " + r.classList.contains("selected") : "row not drawn")(` + row(i) + `) +
			" in a box from " + (document.querySelector(".vlist.tree").getBoundingClientRect().top + document.querySelector(".vlist.tree").clientTop) + " high " + document.querySelector(".vlist.tree").clientHeight + " at " + document.querySelector(".vlist.tree").scrollTop`
	}
	active := `(document.activeElement ? document.activeElement.tagName + "." + document.activeElement.className : "none")`

	eachBrowser(t, "", func(t *testing.T, b browsertest.Tab, base string) {
		b.SetViewport(1400, 900)
		until(b, row(value))
		b.Click(`.tnode[data-node="` + strconv.Itoa(value) + `"]`)
		until(b, row(value)+`.classList.contains("selected") && document.querySelector(".edit-add")`)
		// The value's row the last one in the box: the new column falls below it.
		var top int
		b.Eval(`((box) => { box.scrollTop = Math.max(`+strconv.Itoa((valueRow+1)*hexview.RowHeight)+` - box.clientHeight, 0); return box.scrollTop; })(document.querySelector(".vlist.tree"))`, &top)
		if top <= 0 {
			t.Fatalf("the tree's box shows row %d without scrolling", valueRow)
		}
		treeSettled(t, b)
		waitFor(t, b, "column 2's value the last row in the box", inBox(value)+` && !`+inBox(added), where(value))

		// From the tree, Tab to Add after; Enter presses it.
		b.Eval(`document.querySelector(".vlist.tree").focus()`, nil)
		var walk []string
		for k := 0; k < 8; k++ {
			var on bool
			b.Eval(`document.activeElement === document.querySelector(".edit-add")`, &on)
			if on {
				break
			}
			b.Press("Tab")
			var a string
			b.Eval(active, &a)
			walk = append(walk, a)
		}
		waitFor(t, b, "Tab from the tree reaches Add after (walk: "+strings.Join(walk, ", ")+")", `document.activeElement === document.querySelector(".edit-add")`, active)
		b.Press("Enter")
		waitFor(t, b, "the input is the stream with the column added", inputText+` === `+jsQuote(s1.Text), inputText)
		treeSettled(t, b)
		waitFor(t, b, "the new column selected and whole in the tree's box", inBox(added), where(added))

		// Tab to Remove; Space presses it. The focus goes to the tree, the tuple its active row.
		b.Press("Tab")
		waitFor(t, b, "Tab from Add after reaches Remove", `document.activeElement === document.querySelector(".edit-remove")`, active)
		b.Press(" ")
		waitFor(t, b, "the input is the stream with the column removed", inputText+` === `+jsQuote(s2.Text), inputText)
		treeSettled(t, b)
		waitFor(t, b, "the tuple selected and whole in the tree's box", inBox(tuple), where(tuple))
		waitFor(t, b, "the focus on the tree, the tuple its active row",
			`document.activeElement === document.querySelector(".vlist.tree") && document.activeElement.getAttribute("aria-activedescendant") === "t-`+strconv.Itoa(tuple)+`"`,
			active+` + " " + document.activeElement.getAttribute("aria-activedescendant")`)
	})
}
